import { useState, type FormEvent } from 'react'
import { formErrors, problemMessage } from '../../api/messages'
import { Button, ConfirmDialog, Dialog, FormError, TextField } from '../../ui'
import {
  canCancel,
  canMarkFailed,
  canMarkInTransit,
  canMarkPaid,
  useFailPayout,
  usePayoutStep,
  type FailPayout,
  type Payout,
  type PayoutStep,
} from './payouts-api'

const FAILURE_LABELS = { failureMessage: 'Reason', failureCode: 'Failure code' }

/** Each step asks first, naming the amount, the currency and the payee. */
const STEPS: Record<
  PayoutStep,
  { button: string; question: (what: string) => string; description: string; confirm: string }
> = {
  'mark-in-transit': {
    button: 'Mark in transit',
    question: (what) => `Mark ${what} in transit?`,
    description: 'Do this once the transfer has been sent.',
    confirm: 'Yes, mark it in transit',
  },
  'mark-paid': {
    button: 'Mark paid',
    question: (what) => `Mark ${what} paid?`,
    description: 'Do this once the money has arrived. Paid is final.',
    confirm: 'Yes, mark it paid',
  },
  cancel: {
    button: 'Cancel payout',
    question: (what) => `Cancel ${what}?`,
    description: 'Nothing is sent; its allocations become payable again.',
    confirm: 'Yes, cancel the payout',
  },
}

const STEP_ORDER = Object.keys(STEPS) as PayoutStep[]

/**
 * The payout's steps (mark in transit, mark paid, cancel) and marking it failed: which one is being
 * asked in its dialog, and the step refused last, whose error the page shows once its dialog is closed.
 */
export function usePayoutActions(id: string) {
  const steps = {
    'mark-in-transit': usePayoutStep(id, 'mark-in-transit'),
    'mark-paid': usePayoutStep(id, 'mark-paid'),
    cancel: usePayoutStep(id, 'cancel'),
  }
  const fail = useFailPayout(id)
  const [asking, setAsking] = useState<PayoutStep | 'fail' | null>(null)
  // The step refused last (its error is shown at the top once its dialog is closed).
  const [refused, setRefused] = useState<PayoutStep | null>(null)
  const ask = (step: PayoutStep | 'fail') => {
    if (step === 'fail') fail.reset()
    else steps[step].reset()
    setRefused(null)
    setAsking(step)
  }
  const take = (step: PayoutStep) =>
    steps[step].mutate(undefined, {
      onSuccess: () => setAsking(null),
      onError: () => {
        // The page now shows the payout as the server has it; the dialog closes and the error stays on top.
        setRefused(step)
        setAsking(null)
      },
    })
  const stepError = refused && asking !== refused ? problemMessage(steps[refused].error) : null
  return { steps, fail, asking, setAsking, ask, take, stepError }
}

export type PayoutActions = ReturnType<typeof usePayoutActions>

/** The header's buttons: the steps the payout's status allows, then "Mark failed"; each opens its dialog. */
export function PayoutActionButtons({ payout, onAsk }: { payout: Payout; onAsk: PayoutActions['ask'] }) {
  const allowed: Record<PayoutStep, boolean> = {
    'mark-in-transit': canMarkInTransit(payout),
    'mark-paid': canMarkPaid(payout),
    cancel: canCancel(payout),
  }
  return (
    <>
      {STEP_ORDER.filter((step) => allowed[step]).map((step) => (
        <Button key={step} variant={step === 'cancel' ? 'secondary' : 'primary'} onClick={() => onAsk(step)}>
          {STEPS[step].button}
        </Button>
      ))}
      {canMarkFailed(payout) ? (
        <Button variant="danger" onClick={() => onAsk('fail')}>
          Mark failed
        </Button>
      ) : null}
    </>
  )
}

/** Each step's confirmation, and the failure's dialog with its reason; `what` names amount, currency and payee. */
export function PayoutActionDialogs({ actions, what }: { actions: PayoutActions; what: string }) {
  const { steps, asking, setAsking, take } = actions
  return (
    <>
      {STEP_ORDER.map((step) => (
        <ConfirmDialog
          key={step}
          open={asking === step}
          onOpenChange={(open) => setAsking(open ? step : null)}
          title={STEPS[step].question(what)}
          description={STEPS[step].description}
          confirm={STEPS[step].confirm}
          variant={step === 'cancel' ? 'danger' : 'primary'}
          busy={steps[step].isPending}
          onConfirm={() => take(step)}
        />
      ))}
      <Dialog
        open={asking === 'fail'}
        onOpenChange={(open) => setAsking(open ? 'fail' : null)}
        title={`Mark ${what} failed?`}
        description="Nothing more is sent; its allocations become payable again."
      >
        <FailPayoutForm fail={actions.fail} onFailed={() => setAsking(null)} />
      </Dialog>
    </>
  )
}

/** Why it failed (required) and a failure code. */
function FailPayoutForm({ fail, onFailed }: { fail: PayoutActions['fail']; onFailed: () => void }) {
  const { fields, general } = formErrors(fail.error, FAILURE_LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const value = (name: string) => String(form.get(name) ?? '').trim()
    const body: FailPayout = { failureMessage: value('failureMessage') }
    if (value('failureCode')) body.failureCode = value('failureCode')
    fail.mutate(body, { onSuccess: onFailed })
  }
  return (
    <form onSubmit={submit} noValidate className="form">
      <FormError message={general} />
      <TextField
        label={FAILURE_LABELS.failureMessage}
        name="failureMessage"
        required
        maxLength={500}
        hint="What went wrong, such as “The bank returned the transfer”"
        error={fields.failureMessage}
      />
      <TextField
        label={FAILURE_LABELS.failureCode}
        name="failureCode"
        hint="Optional, lowercase such as account_closed (default manual)"
        error={fields.failureCode}
      />
      <Button type="submit" variant="danger" busy={fail.isPending}>
        Mark the payout failed
      </Button>
    </form>
  )
}
