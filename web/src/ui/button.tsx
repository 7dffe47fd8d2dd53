import type { ButtonHTMLAttributes } from 'react'

export type ButtonVariant = 'primary' | 'secondary' | 'danger'

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant
  /** Shown while the action runs; the button is disabled meanwhile. */
  busy?: boolean
}

/** A real <button> (type="button" unless said otherwise), named by its text. */
export function Button({
  variant = 'secondary',
  busy = false,
  type = 'button',
  className,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={['button', `button-${variant}`, className].filter(Boolean).join(' ')}
      disabled={rest.disabled || busy}
      aria-busy={busy || undefined}
    >
      {children}
    </button>
  )
}

/** The class of a link drawn as a button (navigation stays a link). */
export function buttonClass(variant: ButtonVariant = 'secondary'): string {
  return `button button-${variant}`
}
