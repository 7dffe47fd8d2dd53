import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { fieldErrors } from '../../api/client'
import { payoutRoute } from '../../app/routes'
import { useSession } from '../../app/session'
import { Button, Dialog, ErrorState, FormError, Loading, PageHeader, TextField } from '../../ui'
import { useCreatorName } from '../creators/creators-api'
import {
  canCancel,
  canMarkFailed,
  canMarkInTransit,
  canMarkPaid,
  payoutQuery,
  useFailPayout,
  usePayoutStep,
  type FailPayout,
} from './payouts-api'
import { PayoutStatusBadge } from './payout-status'

function PayoutDetailPage() {
  const { id } = payoutRoute.useParams()
  const { can } = useSession()
  const payout = useQuery(payoutQuery(id))
  const creatorName = useCreatorName()
  const cancel = usePayoutStep(id, 'cancel')
  const inTransit = usePayoutStep(id, 'mark-in-transit')
  const paid = usePayoutStep(id, 'mark-paid')
  const fail = useFailPayout(id)
  const [failing, setFailing] = useState(false)
  if (payout.isPending) return <Loading label="Loading the payout…" />
  if (payout.error) return <ErrorState error={payout.error} onRetry={() => void payout.refetch()} />
  const data = payout.data
  const writable = can('payouts:write')
  const stepError = cancel.error ?? inTransit.error ?? paid.error
  const failErrors = fieldErrors(fail.error)
  const money = (amount: string) => `${amount} ${data.currency}`

  const submitFailure = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const value = (name: string) => String(form.get(name) ?? '').trim()
    const body: FailPayout = { failureMessage: value('failureMessage') }
    if (value('failureCode')) body.failureCode = value('failureCode')
    fail.mutate(body, { onSuccess: () => setFailing(false) })
  }

  return (
    <>
      <PageHeader
        title={`Payout of ${money(data.amount)}`}
        actions={
          writable ? (
            <>
              {canMarkInTransit(data) ? (
                <Button variant="primary" busy={inTransit.isPending} onClick={() => inTransit.mutate()}>
                  Mark in transit
                </Button>
              ) : null}
              {canMarkPaid(data) ? (
                <Button variant="primary" busy={paid.isPending} onClick={() => paid.mutate()}>
                  Mark paid
                </Button>
              ) : null}
              {canCancel(data) ? (
                <Button busy={cancel.isPending} onClick={() => cancel.mutate()}>
                  Cancel payout
                </Button>
              ) : null}
              {canMarkFailed(data) ? (
                <Button variant="danger" onClick={() => setFailing(true)}>
                  Mark failed
                </Button>
              ) : null}
            </>
          ) : null
        }
      >
        <p>
          <PayoutStatusBadge status={data.status} /> to{' '}
          <Link to="/creators/$id" params={{ id: data.creatorId }}>
            {creatorName(data.creatorId)}
          </Link>
        </p>
      </PageHeader>
      <FormError message={stepError?.message} />
      <dl className="details">
        <dt>Id</dt>
        <dd>{data.id}</dd>
        <dt>Amount</dt>
        <dd>{money(data.amount)}</dd>
        <dt>Method</dt>
        <dd>{data.method === 'manual' ? 'Manual (marked by hand)' : 'Sandbox rail'}</dd>
        <dt>Created</dt>
        <dd>{data.createdAt}</dd>
        <dt>Paid at</dt>
        <dd>{data.paidAt ?? '—'}</dd>
        {data.failureCode !== null ? (
          <>
            <dt>Failure</dt>
            <dd>
              {data.failureCode}: {data.failureMessage ?? ''}
            </dd>
          </>
        ) : null}
        {data.batchId !== null ? (
          <>
            <dt>Payout run batch</dt>
            <dd>{data.batchId}</dd>
          </>
        ) : null}
      </dl>
      <h2>Statement</h2>
      <dl className="details">
        <dt>Period</dt>
        <dd>{data.statement.periodStart ? `${data.statement.periodStart} to ${data.statement.periodEnd}` : '—'}</dd>
        <dt>Opening balance</dt>
        <dd>{money(data.statement.openingBalance)}</dd>
        <dt>Earnings</dt>
        <dd>
          {money(data.statement.earnings)} from {data.statement.entries} allocations
        </dd>
        <dt>Advance recouped</dt>
        <dd>{money(data.statement.recouped)}</dd>
        <dt>Paid out</dt>
        <dd>{money(data.amount)}</dd>
        <dt>Carried forward</dt>
        <dd>{money(data.statement.carriedForward)}</dd>
      </dl>
      <p>
        <Link to="/revenue" search={{ creatorId: data.creatorId }}>
          Revenue allocated to {creatorName(data.creatorId)}
        </Link>
      </p>
      <Dialog
        open={failing}
        onOpenChange={setFailing}
        title="Mark this payout failed?"
        description="Its allocations become payable again."
      >
        <form onSubmit={submitFailure} noValidate className="form">
          <FormError message={failErrors.general} />
          <TextField
            label="Reason"
            name="failureMessage"
            required
            maxLength={500}
            hint="What went wrong, such as “The bank returned the transfer”"
            error={failErrors.fields.failureMessage}
          />
          <TextField
            label="Failure code"
            name="failureCode"
            hint="Optional, lowercase such as account_closed (default manual)"
            error={failErrors.fields.failureCode}
          />
          <Button type="submit" variant="danger" busy={fail.isPending}>
            Mark the payout failed
          </Button>
        </form>
      </Dialog>
    </>
  )
}

export const route = createLazyRoute('/app/payouts/$id')({ component: PayoutDetailPage })
