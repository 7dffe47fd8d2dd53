import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { DateTime, EmptyState, FilterForm, ListView, PageHeader, SelectField, useListQuery } from '../../ui'
import { useCreatorName } from '../creators/creators-api'
import { PAYOUT_STATUSES, payoutListQuery, STATUS_LABELS, type Payout, type PayoutSearch } from './payouts-api'
import { PayoutStatusBadge } from './payout-status'

const routeApi = getRouteApi('/app/payouts')

function PayoutsListPage() {
  const search = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const creatorName = useCreatorName()
  // Sandbox payouts still under way move by themselves: the list asks again until they are final.
  const list = useListQuery(payoutListQuery(search))
  const filtered = search.status !== undefined

  return (
    <>
      <PageHeader
        title="Payouts"
        actions={
          <Link to="/payouts/balances" search={{}} className="button button-secondary">
            Balances
          </Link>
        }
      >
        <p className="muted">Payouts are created from a creator’s balance.</p>
      </PageHeader>
      <FilterForm<PayoutSearch>
        label="Filter payouts"
        search={search}
        read={(value) => ({ status: value('status') as PayoutSearch['status'] })}
      >
        <SelectField
          label="Status"
          name="status"
          defaultValue={search.status ?? ''}
          options={[
            { value: '', label: 'Any status' },
            ...PAYOUT_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
          ]}
        />
      </FilterForm>
      <ListView<Payout>
        list={list}
        loading="Loading payouts…"
        cursor={search.cursor}
        onCursor={(cursor) => void navigate({ search: { ...search, cursor } })}
        empty={
          <EmptyState title={filtered ? 'No payouts match this filter' : 'No payouts yet'}>
            {filtered ? (
              <p>Change or clear the filter.</p>
            ) : (
              <p>A payout pays a creator what their balance holds; create one from the balances page.</p>
            )}
          </EmptyState>
        }
        caption="Payouts, newest first"
        rowKey={(payout) => payout.id}
        columns={[
          {
            header: 'Payout',
            cell: (payout) => (
              <Link to="/payouts/$id" params={{ id: payout.id }}>
                {payout.id}
              </Link>
            ),
          },
          { header: 'Creator', cell: (payout) => creatorName(payout.creatorId) },
          { header: 'Amount', numeric: true, cell: (payout) => `${payout.amount} ${payout.currency}` },
          { header: 'Status', cell: (payout) => <PayoutStatusBadge status={payout.status} /> },
          { header: 'Method', cell: (payout) => (payout.method === 'manual' ? 'Manual' : 'Sandbox rail') },
          { header: 'Created', cell: (payout) => <DateTime value={payout.createdAt} /> },
        ]}
      />
    </>
  )
}

export const route = createLazyRoute('/app/payouts')({ component: PayoutsListPage })
