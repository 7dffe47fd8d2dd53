import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router'
import { balancesRoute } from '../../app/routes'
import { useSession } from '../../app/session'
import { Button, EmptyState, ErrorState, FormError, Loading, PageHeader, Pagination, Table } from '../../ui'
import { useCreatorName } from '../creators/creators-api'
import { balancesQuery, useCreatePayout, type Balance } from './payouts-api'

/** A zero amount as the API writes it ("0.00", "0"): compared as text, money is never a float. */
const ZERO = /^0(\.0+)?$/

const rowKey = (balance: Balance) => `${balance.creatorId}:${balance.currency}`

function BalancesPage() {
  const { cursor } = balancesRoute.useSearch()
  const navigate = useNavigate({ from: '/payouts/balances' })
  const { can } = useSession()
  const creatorName = useCreatorName()
  const list = useQuery({ ...balancesQuery(cursor), placeholderData: keepPreviousData })
  const create = useCreatePayout()
  const writable = can('payouts:write')
  const pay = (balance: Balance) =>
    create.mutate(
      { creatorId: balance.creatorId, currency: balance.currency },
      { onSuccess: (payout) => void navigate({ to: '/payouts/$id', params: { id: payout.id } }) },
    )

  return (
    <>
      <PageHeader
        title="Balances"
        actions={
          <Link to="/payouts" search={{}} className="button button-secondary">
            All payouts
          </Link>
        }
      >
        <p className="muted">
          What a payout created now would pay each creator: the balance carried in plus unpaid earnings, rounded down to
          the currency’s minor unit.
        </p>
      </PageHeader>
      <FormError message={create.error?.message} />
      {list.isPending ? (
        <Loading label="Loading balances…" />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState title="No balances yet">
          <p>Each creator has a balance in their payout currency once they are added.</p>
        </EmptyState>
      ) : (
        <>
          <Table<Balance>
            caption="Balances per creator and currency"
            rows={list.data.data}
            rowKey={rowKey}
            columns={[
              {
                header: 'Creator',
                cell: (balance) => (
                  <Link to="/creators/$id" params={{ id: balance.creatorId }}>
                    {creatorName(balance.creatorId)}
                  </Link>
                ),
              },
              { header: 'Currency', cell: (balance) => balance.currency },
              { header: 'Carried in', numeric: true, cell: (balance) => balance.openingBalance },
              { header: 'Unpaid earnings', numeric: true, cell: (balance) => balance.earnings },
              { header: 'Allocations', numeric: true, cell: (balance) => balance.entries },
              { header: 'Balance', numeric: true, cell: (balance) => balance.balance },
              { header: 'Payable now', numeric: true, cell: (balance) => balance.payable },
              { header: 'Minimum', numeric: true, cell: (balance) => balance.minimumPayout ?? '—' },
              {
                header: 'Payout',
                cell: (balance) =>
                  balance.payableNow ? (
                    writable ? (
                      <Button
                        variant="primary"
                        busy={create.isPending && create.variables?.creatorId === balance.creatorId}
                        onClick={() => pay(balance)}
                      >
                        Create payout
                      </Button>
                    ) : (
                      'Ready'
                    )
                  ) : (
                    <span className="muted">{ZERO.test(balance.payable) ? 'Nothing to pay' : 'Below the minimum'}</span>
                  ),
              },
            ]}
          />
          <Pagination
            nextCursor={list.data.pagination.cursor}
            hasMore={list.data.pagination.hasMore}
            paged={cursor !== undefined}
            onNext={(next) => void navigate({ search: { cursor: next } })}
            onFirst={() => void navigate({ search: {} })}
          />
        </>
      )}
    </>
  )
}

export const route = createLazyRoute('/app/payouts/balances')({ component: BalancesPage })
