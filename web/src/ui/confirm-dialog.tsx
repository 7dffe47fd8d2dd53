import type { ReactNode } from 'react'
import { Button, type ButtonVariant } from './button'
import { Dialog } from './dialog'
import { FormError } from './field'

export interface ConfirmDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The question, naming what is at stake: "Pay 70.00 EUR to Ada Vos?". */
  title: string
  description?: string
  /** The action's name on its button: "Create the payout". */
  confirm: string
  variant?: ButtonVariant
  busy: boolean
  /** The request's error in people's words, shown in the dialog. */
  error?: string | null | undefined
  onConfirm: () => void
  children?: ReactNode
}

/** Asks before an action that cannot be taken back (money, revoking, deleting); "Close" leaves everything as it was. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirm,
  variant = 'primary',
  busy,
  error,
  onConfirm,
  children,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} {...(description ? { description } : {})}>
      <FormError message={error} />
      {children}
      <Button variant={variant} busy={busy} onClick={onConfirm}>
        {confirm}
      </Button>
    </Dialog>
  )
}
