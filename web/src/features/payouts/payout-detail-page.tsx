import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { useSession } from '../../app/session'
import {
  DateTime,
  EmptyState,
  ErrorState,
  FormError,
  ListView,
  Loading,
  PageHeader,
  Period,
  useListQuery,
  type Column,
} from '../../ui'
import { useCreatorName } from '../creators/creators-api'
import { useCatalogChoices } from '../revenue/revenue-api'
import { PayoutActionButtons, PayoutActionDialogs, usePayoutActions } from './payout-actions'
import { movesByItself, payoutLinesQuery, payoutQuery, type Payout, type PayoutLine } from './payouts-api'
import { PayoutStatusBadge } from './payout-status'

const routeApi = getRouteApi('/app/payouts/$id')

/** Money as the API writes it, with its currency: `70.00 EUR`. */
type Money = (amount: string) => string

function PayoutDetailPage() {
  const { id } = routeApi.useParams()
  const { cursor: linesCursor } = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { can } = useSession()
  // A sandbox payout under way is asked for again until it is final (paid, failed or canceled).
  const payout = useQuery(payoutQuery(id))
  const creatorName = useCreatorName()
  const actions = usePayoutActions(id)
  const catalog = useCatalogChoices()
  const title = (catalogId: string) => catalog.data?.find((entry) => entry.id === catalogId)?.title ?? catalogId
  const lines = useListQuery(payoutLinesQuery(id, linesCursor))
  if (payout.isPending) return <Loading label="Loading the payout…" />
  if (payout.error) return <ErrorState error={payout.error} onRetry={() => void payout.refetch()} />
  const data = payout.data
  const money: Money = (amount) => `${amount} ${data.currency}`
  const payee = creatorName(data.creatorId)

  return (
    <>
      <PageHeader
        title={`Payout of ${money(data.amount)}`}
        actions={can('payouts:write') ? <PayoutActionButtons payout={data} onAsk={actions.ask} /> : null}
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
      <FormError message={actions.stepError} />
      <PayoutFacts payout={data} money={money} />
      <h2>Statement</h2>
      <PayoutStatement payout={data} money={money} />
      <h2>Statement lines</h2>
      <ListView<PayoutLine>
        list={lines}
        loading="Loading the statement lines…"
        cursor={linesCursor}
        onCursor={(cursor) => void navigate({ search: { cursor } })}
        empty={<EmptyState title="No allocations: the payout pays the balance carried in." />}
        caption="Allocations in this statement"
        rowKey={(line) => line.revenueId}
        columns={lineColumns(title, money)}
      />
      <p>
        <Link to="/revenue" search={{ creatorId: data.creatorId }}>
          Revenue allocated to {payee}
        </Link>
      </p>
      <PayoutActionDialogs actions={actions} what={`the payout of ${money(data.amount)} to ${payee}`} />
    </>
  )
}

/** The payout itself: amount, method, when it was made and paid, why it failed, its payout run. */
function PayoutFacts({ payout, money }: { payout: Payout; money: Money }) {
  return (
    <dl className="details">
      <dt>Id</dt>
      <dd>{payout.id}</dd>
      <dt>Amount</dt>
      <dd>{money(payout.amount)}</dd>
      <dt>Method</dt>
      <dd>{payout.method === 'manual' ? 'Manual (marked by hand)' : 'Sandbox rail'}</dd>
      <dt>Created</dt>
      <dd>
        <DateTime value={payout.createdAt} />
      </dd>
      <dt>Paid at</dt>
      <dd>
        <DateTime value={payout.paidAt} />
      </dd>
      {payout.failureCode !== null ? (
        <>
          <dt>Failure</dt>
          <dd>
            {payout.failureCode}: {payout.failureMessage ?? ''}
          </dd>
        </>
      ) : null}
      {payout.batchId !== null ? (
        <>
          <dt>Payout run batch</dt>
          <dd>{payout.batchId}</dd>
        </>
      ) : null}
    </dl>
  )
}

/** How the amount was reached: the period, the balance carried in, earnings, recouped, paid, carried forward. */
function PayoutStatement({ payout, money }: { payout: Payout; money: Money }) {
  const { statement } = payout
  return (
    <dl className="details">
      <dt>Period</dt>
      <dd>
        {statement.periodStart && statement.periodEnd ? (
          <Period start={statement.periodStart} end={statement.periodEnd} />
        ) : (
          '—'
        )}
      </dd>
      <dt>Opening balance</dt>
      <dd>{money(statement.openingBalance)}</dd>
      <dt>Earnings</dt>
      <dd>
        {money(statement.earnings)} from {statement.entries} allocations
      </dd>
      <dt>Advance recouped</dt>
      <dd>{money(statement.recouped)}</dd>
      <dt>Paid out</dt>
      <dd>{money(payout.amount)}</dd>
      <dt>Carried forward</dt>
      <dd>{money(statement.carriedForward)}</dd>
    </dl>
  )
}

/** A statement line: the allocation of one revenue entry, with its period, entry, source and territory. */
function lineColumns(title: (catalogId: string) => string, money: Money): Column<PayoutLine>[] {
  return [
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
  ]
}

export const route = createLazyRoute('/app/payouts/$id')({ component: PayoutDetailPage })
