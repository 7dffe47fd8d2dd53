import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { formErrors, problemMessage } from '../../api/messages'
import { useSession } from '../../app/session'
import {
  Button,
  ConfirmDialog,
  DateTime,
  Dialog,
  EmptyState,
  ErrorState,
  FormError,
  ListView,
  Loading,
  PageHeader,
  Period,
  TextField,
  useListQuery,
} from '../../ui'
import { useCreatorName } from '../creators/creators-api'
import { useCatalogChoices } from '../revenue/revenue-api'
import {
  canCancel,
  canMarkFailed,
  canMarkInTransit,
  canMarkPaid,
  movesByItself,
  payoutLinesQuery,
  payoutQuery,
  useFailPayout,
  usePayoutStep,
  type FailPayout,
  type PayoutLine,
  type PayoutStep,
} from './payouts-api'
import { PayoutStatusBadge } from './payout-status'

const routeApi = getRouteApi('/app/payouts/$id')

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

function PayoutDetailPage() {
  const { id } = routeApi.useParams()
  const { cursor: linesCursor } = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { can } = useSession()
  // A sandbox payout under way is asked for again until it is final (paid, failed or canceled).
  const payout = useQuery(payoutQuery(id))
  const creatorName = useCreatorName()
  const steps = {
    'mark-in-transit': usePayoutStep(id, 'mark-in-transit'),
    'mark-paid': usePayoutStep(id, 'mark-paid'),
    cancel: usePayoutStep(id, 'cancel'),
  }
  const fail = useFailPayout(id)
  const [asking, setAsking] = useState<PayoutStep | 'fail' | null>(null)
  // The step refused last (its error is shown at the top once its dialog is closed).
  const [refused, setRefused] = useState<PayoutStep | null>(null)
  const catalog = useCatalogChoices()
  const title = (catalogId: string) => catalog.data?.find((entry) => entry.id === catalogId)?.title ?? catalogId
  const lines = useListQuery(payoutLinesQuery(id, linesCursor))
  if (payout.isPending) return <Loading label="Loading the payout…" />
  if (payout.error) return <ErrorState error={payout.error} onRetry={() => void payout.refetch()} />
  const data = payout.data
  const writable = can('payouts:write')
  const money = (amount: string) => `${amount} ${data.currency}`
  const payee = creatorName(data.creatorId)
  const what = `the payout of ${money(data.amount)} to ${payee}`
  const failErrors = formErrors(fail.error, FAILURE_LABELS)
  const stepError = refused && asking !== refused ? problemMessage(steps[refused].error) : null

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
  const submitFailure = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const value = (name: string) => String(form.get(name) ?? '').trim()
    const body: FailPayout = { failureMessage: value('failureMessage') }
    if (value('failureCode')) body.failureCode = value('failureCode')
    fail.mutate(body, { onSuccess: () => setAsking(null) })
  }
  const allowed: Record<PayoutStep, boolean> = {
    'mark-in-transit': canMarkInTransit(data),
    'mark-paid': canMarkPaid(data),
    cancel: canCancel(data),
  }

  return (
    <>
      <PageHeader
        title={`Payout of ${money(data.amount)}`}
        actions={
          writable ? (
            <>
              {(Object.keys(STEPS) as PayoutStep[])
                .filter((step) => allowed[step])
                .map((step) => (
                  <Button key={step} variant={step === 'cancel' ? 'secondary' : 'primary'} onClick={() => ask(step)}>
                    {STEPS[step].button}
                  </Button>
                ))}
              {canMarkFailed(data) ? (
                <Button variant="danger" onClick={() => ask('fail')}>
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
            {payee}
          </Link>
        </p>
        {movesByItself(data) ? (
          <p className="muted" role="status">
            The sandbox rail moves this payout on by itself every few seconds; this page follows it.
          </p>
        ) : null}
      </PageHeader>
      <FormError message={stepError} />
      <dl className="details">
        <dt>Id</dt>
        <dd>{data.id}</dd>
        <dt>Amount</dt>
        <dd>{money(data.amount)}</dd>
        <dt>Method</dt>
        <dd>{data.method === 'manual' ? 'Manual (marked by hand)' : 'Sandbox rail'}</dd>
        <dt>Created</dt>
        <dd>
          <DateTime value={data.createdAt} />
        </dd>
        <dt>Paid at</dt>
        <dd>
          <DateTime value={data.paidAt} />
        </dd>
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
        <dd>
          {data.statement.periodStart && data.statement.periodEnd ? (
            <Period start={data.statement.periodStart} end={data.statement.periodEnd} />
          ) : (
            '—'
          )}
        </dd>
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
      <h2>Statement lines</h2>
      <ListView<PayoutLine>
        list={lines}
        loading="Loading the statement lines…"
        cursor={linesCursor}
        onCursor={(cursor) => void navigate({ search: { cursor } })}
        empty={<EmptyState title="No allocations: the payout pays the balance carried in." />}
        caption="Allocations in this statement"
        rowKey={(line) => line.revenueId}
        columns={[
          { header: 'Period', cell: (line) => <Period start={line.periodStart} end={line.periodEnd} /> },
          {
            header: 'Catalog entry',
            cell: (line) => (
              <Link to="/catalog/$id" params={{ id: line.catalogId }}>
                {title(line.catalogId)}
              </Link>
            ),
          },
          { header: 'Source', cell: (line) => line.source },
          { header: 'Territory', cell: (line) => line.territory },
          { header: 'Allocation', numeric: true, cell: (line) => money(line.amount) },
        ]}
      />
      <p>
        <Link to="/revenue" search={{ creatorId: data.creatorId }}>
          Revenue allocated to {payee}
        </Link>
      </p>
      {(Object.keys(STEPS) as PayoutStep[]).map((step) => (
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
        <form onSubmit={submitFailure} noValidate className="form">
          <FormError message={failErrors.general} />
          <TextField
            label={FAILURE_LABELS.failureMessage}
            name="failureMessage"
            required
            maxLength={500}
            hint="What went wrong, such as “The bank returned the transfer”"
            error={failErrors.fields.failureMessage}
          />
          <TextField
            label={FAILURE_LABELS.failureCode}
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
