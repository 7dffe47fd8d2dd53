import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { PAYOUT_STATUSES, payoutsRoute, type PayoutSearch } from '../../app/routes'
import { Button, EmptyState, ErrorState, Loading, PageHeader, Pagination, SelectField, Table } from '../../ui'
import { useCreatorName } from '../creators/creators-api'
import { payoutListQuery, STATUS_LABELS, type Payout } from './payouts-api'
import { PayoutStatusBadge } from './payout-status'

function PayoutsListPage() {
  const search = payoutsRoute.useSearch()
  const navigate = useNavigate({ from: '/payouts' })
  const creatorName = useCreatorName()
  const list = useQuery({ ...payoutListQuery(search), placeholderData: keepPreviousData })
  const filtered = search.status !== undefined

  const applyFilters = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const status = String(form.get('status') ?? '') || undefined
    // A new filter starts from the first page: a cursor belongs to the filters it was made with.
    void navigate({ search: { status: status as PayoutSearch['status'] } })
  }

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
      <form
        className="filters"
        onSubmit={applyFilters}
        role="search"
        aria-label="Filter payouts"
        key={JSON.stringify(search)}
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
        <div className="filters-actions">
          <Button type="submit" variant="primary">
            Apply filters
          </Button>
          {filtered ? <Button onClick={() => void navigate({ search: {} })}>Clear filters</Button> : null}
        </div>
      </form>
      {list.isPending ? (
        <Loading label="Loading payouts…" />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={filtered ? 'No payouts match this filter' : 'No payouts yet'}>
          {filtered ? (
            <p>Change or clear the filter.</p>
          ) : (
            <p>A payout pays a creator what their balance holds; create one from the balances page.</p>
          )}
        </EmptyState>
      ) : (
        <>
          <Table<Payout>
            caption="Payouts, newest first"
            rows={list.data.data}
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
              { header: 'Method', cell: (payout) => payout.method },
              { header: 'Created', cell: (payout) => payout.createdAt.slice(0, 10) },
            ]}
          />
          <Pagination
            nextCursor={list.data.pagination.cursor}
            hasMore={list.data.pagination.hasMore}
            paged={search.cursor !== undefined}
            onNext={(cursor) => void navigate({ search: { ...search, cursor } })}
            onFirst={() => void navigate({ search: { ...search, cursor: undefined } })}
          />
        </>
      )}
    </>
  )
}

export const route = createLazyRoute('/app/payouts')({ component: PayoutsListPage })
