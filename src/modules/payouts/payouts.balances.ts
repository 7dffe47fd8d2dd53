import { sql } from 'kysely'
import type { Reader } from '../../database.js'
import { decodeCursor, encodeCursor, type Page } from '../../platform/pagination.js'
import { floorToMinorUnit, formatAmount } from '../../shared/money/money.decimal.js'
import { live, unheld } from './payouts.batch.js'
import type { Balance, BalanceQuery } from './payouts.schemas.js'

interface BalanceRow {
  creator_id: string
  currency: string
  payout_currency: string
  opening_balance_micros: string
  minimum_payout_micros: string
  earnings: string
  entries: number
  carried: string
}

/**
 * What a payout created now would compute, per creator and currency, by the rules of
 * POST /api/payouts (payouts.service.ts `create`): the opening balance (the creator's own in
 * their payout currency) plus what their live payouts carried forward, and the allocations no
 * live payout holds, summed in SQL as the payout run sums them. A page is a page of creators in
 * id order; each has a row for their payout currency and one for every other currency with
 * unpaid allocations or a live payout.
 */
export async function listBalances(reader: Reader, orgId: string, query: BalanceQuery): Promise<Page<Balance>> {
  const filters = { creatorId: query.creatorId }
  const after = decodeCursor(query.cursor, filters, 1)
  let page = reader.selectFrom('creators').select('id').where('org_id', '=', orgId)
  if (query.creatorId !== undefined) page = page.where('id', '=', query.creatorId)
  if (after) page = page.where('id', '>', String(after[0]))
  const creators = await page
    .orderBy('id')
    .limit(query.limit + 1)
    .execute()
  const hasMore = creators.length > query.limit
  const ids = creators.slice(0, query.limit).map((creator) => creator.id)
  if (ids.length === 0) return { data: [], pagination: { cursor: null, hasMore: false } }

  const rows = await sql<BalanceRow>`
    with c as (
      select id, payout_currency, opening_balance_micros, minimum_payout_micros from creators
      where org_id = ${orgId} and id = any(${ids}::text[])
    ),
    pairs as (
      select c.id as creator_id, c.payout_currency as currency from c
      union
      select a.creator_id, a.currency from c
      join revenue_allocations a on a.org_id = ${orgId} and a.creator_id = c.id
      ${unheld}
      where h.held is null
      union
      select q.creator_id, q.currency from c
      join payouts q on q.org_id = ${orgId} and q.creator_id = c.id and q.status in (${live})
    )
    select p.creator_id, p.currency, c.payout_currency, c.opening_balance_micros::text as opening_balance_micros,
           c.minimum_payout_micros::text as minimum_payout_micros,
           u.earnings::text as earnings, u.entries::int as entries, l.carried::text as carried
    from pairs p
    join c on c.id = p.creator_id
    cross join lateral (
      select coalesce(sum(a.amount_micros), 0) as earnings, count(*) as entries
      from revenue_allocations a
      ${unheld}
      where a.org_id = ${orgId} and a.creator_id = p.creator_id and a.currency = p.currency and h.held is null
    ) u
    cross join lateral (
      select coalesce(sum(q.earnings_micros - q.amount_micros), 0) as carried
      from payouts q
      where q.org_id = ${orgId} and q.creator_id = p.creator_id and q.currency = p.currency and q.status in (${live})
    ) l
    order by p.creator_id collate "C", p.currency collate "C"`.execute(reader)

  const data = rows.rows.map((row) => presentBalance(row))
  const last = ids[ids.length - 1]!
  return { data, pagination: { cursor: hasMore ? encodeCursor([last], filters) : null, hasMore } }
}

function presentBalance(row: BalanceRow): Balance {
  const { currency } = row
  const inPayoutCurrency = currency === row.payout_currency
  const openingBalance = (inPayoutCurrency ? BigInt(row.opening_balance_micros) : 0n) + BigInt(row.carried)
  const earnings = BigInt(row.earnings)
  const balance = openingBalance + earnings
  const floored = floorToMinorUnit(balance, currency)
  const payable = floored > 0n ? floored : 0n
  const minimum = inPayoutCurrency ? BigInt(row.minimum_payout_micros) : null
  return {
    creatorId: row.creator_id,
    currency,
    openingBalance: formatAmount(openingBalance, currency),
    earnings: formatAmount(earnings, currency),
    entries: row.entries,
    balance: formatAmount(balance, currency),
    payable: formatAmount(payable, currency),
    minimumPayout: minimum === null ? null : formatAmount(minimum, currency),
    payableNow: payable > 0n && (minimum === null || payable >= minimum),
  }
}
