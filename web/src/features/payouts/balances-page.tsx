import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { problemMessage } from '../../api/messages'
import { useSession } from '../../app/session'
import { Button, ConfirmDialog, EmptyState, ListView, PageHeader, useListQuery, type Column } from '../../ui'
import { useCreatorName } from '../creators/creators-api'
import { balancesQuery, useCreatePayout, type Balance } from './payouts-api'

const routeApi = getRouteApi('/app/payouts/balances')

/** A zero amount as the API writes it ("0.00", "0"): compared as text, money is never a float. */
const ZERO = /^0(\.0+)?$/

const rowKey = (balance: Balance) => `${balance.creatorId}:${balance.currency}`

function BalancesPage() {
  const { cursor } = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { can } = useSession()
  const creatorName = useCreatorName()
  const list = useListQuery(balancesQuery(cursor))
  const create = useCreatePayout()
  const writable = can('payouts:write')
  // The balance a payout is being created for: asked in a dialog that names the amount and the payee.
  const [paying, setPaying] = useState<Balance | null>(null)
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
      <ListView<Balance>
        list={list}
        loading="Loading balances…"
        cursor={cursor}
        onCursor={(next) => void navigate({ search: { cursor: next } })}
        empty={
          <EmptyState title="No balances yet">
            <p>Each creator has a balance in their payout currency once they are added.</p>
          </EmptyState>
        }
        caption="Balances per creator and currency"
        rowKey={rowKey}
        columns={balanceColumns(
          creatorName,
          writable
            ? (balance) => {
                create.reset()
                setPaying(balance)
              }
            : null,
        )}
      />
      {paying ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => (open ? undefined : setPaying(null))}
          title={`Pay ${paying.payable} ${paying.currency} to ${creatorName(paying.creatorId)}?`}
          description={`A payout of ${paying.payable} ${paying.currency} to ${creatorName(paying.creatorId)}: the balance payable now, taken out of their balance.`}
          confirm={`Create the payout of ${paying.payable} ${paying.currency}`}
          busy={create.isPending}
          error={problemMessage(create.error)}
          onConfirm={() => pay(paying)}
        />
      ) : null}
    </>
  )
}

/**
 * Who, in which currency, the balance and what it is made of, and what is payable now against the minimum;
 * a balance payable now gets "Create payout" when `onPay` is given (roles that may write payouts).
 */
function balanceColumns(
  creatorName: (id: string) => string,
  onPay: ((balance: Balance) => void) | null,
): Column<Balance>[] {
  return [
    {
      header: 'Creator',
      cell: (balance) => (
        <Link to="/creators/$id" params={{ id: balance.creatorId }}>
          {creatorName(balance.creatorId)}
        </Link>
      ),
    },
    { header: 'Currency', cell: (balance) => balance.currency },
    {
      header: 'Balance',
      numeric: true,
      cell: (balance) => (
        <>
          {balance.balance}
          <span className="cell-detail">
            {balance.openingBalance} carried in, {balance.earnings} earned in {balance.entries}{' '}
            {balance.entries === 1 ? 'allocation' : 'allocations'}
          </span>
        </>
      ),
    },
    { header: 'Payable now', numeric: true, cell: (balance) => balance.payable },
    { header: 'Minimum', numeric: true, cell: (balance) => balance.minimumPayout ?? '—' },
    {
      header: 'Payout',
      cell: (balance) =>
        balance.payableNow ? (
          onPay ? (
            <Button variant="primary" onClick={() => onPay(balance)}>
              Create payout
            </Button>
          ) : (
            'Ready'
          )
        ) : (
          <span className="muted">{ZERO.test(balance.payable) ? 'Nothing to pay' : 'Below the minimum'}</span>
        ),
    },
  ]
}

export const route = createLazyRoute('/app/payouts/balances')({ component: BalancesPage })
