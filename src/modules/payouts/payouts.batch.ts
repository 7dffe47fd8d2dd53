import { sql } from 'kysely'
import type { RequestContext } from '../../platform/context.js'
import { AppError } from '../../platform/errors.js'
import { batchEventData } from '../../shared/merkle/merkle.batch.js'
import { requireCurrency } from '../../shared/money/money.schemas.js'
import type { Database, Tx } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { AuditLog } from '../audit/index.js'
import { LIVE_STATUSES, pendingPayoutRow, type PayoutRow } from './payouts.repo.js'
import type { Payout } from './payouts.schemas.js'
import { statementFromTotals, type Statement } from './payouts.statement.js'

/** One page of a payout run: the org's creators after `after` in id order. */
export interface PayoutPageRequest {
  after: string
  /** The page's last creator id, when the page was bounded in advance (pages paid side by side). */
  upTo?: string
  limit: number
  /** Pay this currency (default: each creator's payout currency). */
  currency?: string
  /** Include revenue whose period ends on or before this date. */
  through?: string
}

export interface PayoutPageOutcome {
  creators: number
  /** The last creator id of the page (where the next page starts), null when the page was empty. */
  lastId: string | null
  created: number
  nothingToPay: number
  belowMinimum: number
}

/** Allocations changed between the page's totals and its items (a concurrent revenue write): run the page again. */
export class PayoutPageChanged extends Error {
  constructor(payoutId: string) {
    super(`the allocations of payout ${payoutId} changed while the page was written`)
  }
}

interface CreatorTotals {
  creator_id: string
  earnings: string | null
  entries: number
  period_start: string | null
  period_end: string | null
  carried: string | null
}

export const live = sql.join(LIVE_STATUSES.map((status) => sql.lit(status)))

/** No live payout holds allocation `a`: a LIMIT 1 lateral probe of payout_items_live (see unpaidOf). */
export const unheld = sql`
    left join lateral (
      select true as held from payout_items i
      where i.org_id = a.org_id and i.revenue_id = a.revenue_id and i.creator_id = a.creator_id and i.released_at is null
      limit 1
    ) h on true`

/**
 * Allocations of the page's creators (`p`: creator_id, currency) that no live payout holds, up to
 * `through`. The live-item check is a LIMIT 1 lateral probe of payout_items_live, never an anti-join:
 * a run grows payout_items faster than statistics follow, and an anti-join planned on stale ones
 * rescans every item for every allocation.
 */
function unpaidOf(orgId: string, through: string | undefined) {
  return sql`
    from p
    join revenue_allocations a on a.org_id = ${orgId} and a.creator_id = p.creator_id and a.currency = p.currency
    join revenue_entries r on r.org_id = a.org_id and r.id = a.revenue_id
    ${unheld}
    where h.held is null ${through === undefined ? sql`` : sql`and r.period_end <= ${through}`}`
}

/** What paying a page of creators needs. */
export interface PayoutPageDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: Pick<AuditLog, 'append'>
}

/**
 * Pays one page of creators set-based, in one transaction: their rows locked in id order (so
 * an API payout for any of them waits, then finds the allocations taken), their unpaid
 * allocations and live statements summed in SQL, each statement computed by the API's rules
 * (`statementFromTotals`), the payouts and their items written with INSERT ... SELECT, and
 * one `payouts.run` event for the page whose data carries the Merkle root of the payouts'
 * records as the API answers them (each payout names the batch).
 */
export async function payPayoutPage(
  deps: PayoutPageDeps,
  ctx: RequestContext,
  request: PayoutPageRequest,
  present: (row: PayoutRow) => Payout,
): Promise<PayoutPageOutcome> {
  const { orgId } = ctx
  return deps.db.tx(ctx, async (tx) => {
    // Index paths only: a run fills payout_items faster than statistics follow (and another page or
    // org may be filling it right now), and a probe planned as a scan of a near-empty table rescans it per row.
    await sql`set local enable_seqscan = off`.execute(tx)
    const creators = await lockPageCreators(tx, orgId, request)
    const outcome: PayoutPageOutcome = {
      creators: creators.length,
      lastId: creators.at(-1)?.id ?? null,
      created: 0,
      nothingToPay: 0,
      belowMinimum: 0,
    }
    if (creators.length === 0) return outcome
    const currencies = creators.map((creator) => requireCurrency(request.currency ?? creator.payout_currency))
    const byCreator = await unpaidTotals(tx, orgId, creators, currencies, request.through)

    const org = await tx.selectFrom('orgs').select('environment').where('org_id', '=', orgId).executeTakeFirstOrThrow()
    const now = deps.clock.now()
    const batchId = deps.ids.next('batch')
    const payouts: PayoutRow[] = []
    creators.forEach((creator, index) => {
      const currency = currencies[index]!
      const statement = statementOrRefusal(outcome, statementInput(creator, currency, byCreator.get(creator.id)))
      if (!statement) return
      payouts.push(
        pendingPayoutRow({
          orgId,
          id: deps.ids.next('payout'),
          creatorId: creator.id,
          currency,
          statement,
          sandbox: org.environment === 'sandbox',
          now,
          createdBy: ctx.actor.userId,
          batchId,
        }),
      )
    })
    if (payouts.length === 0) return outcome

    await tx.insertInto('payouts').values(payouts).execute()
    await insertItems(tx, orgId, payouts, request.through)
    // One event for the page: its data the Merkle root of the payouts as written (each one's later steps are events of their own).
    const lines = payouts.map((payout) => ({
      id: payout.id,
      currency: payout.currency,
      amount: payout.amount_micros,
      record: present(payout),
    }))
    await deps.audit.append(
      tx,
      ctx,
      'payouts.run',
      { type: 'payout_batch', id: batchId },
      batchEventData(batchId, lines),
    )
    outcome.created = payouts.length
    return outcome
  })
}

/** A creator of the page as locked: what its statement needs. */
interface PageCreator {
  id: string
  payout_currency: string
  minimum_payout_micros: bigint
  opening_balance_micros: bigint
}

/**
 * Lock the page's creator rows, in id order: two payouts must never take the same allocation.
 * FOR UPDATE, unlike lockCreator's NO KEY UPDATE, also holds revenue for these creators back
 * (a foreign key's key-share lock) until the page commits: the page sums in one statement and
 * links in another, which must see the same allocations. Under a running import, NO KEY UPDATE
 * let every page see new lines between the two, run again and fall back to one payout per
 * creator: a payout run beside a 100,000-line import took 77 and 136 s instead of 1-7 s.
 */
async function lockPageCreators(tx: Tx, orgId: string, request: PayoutPageRequest): Promise<PageCreator[]> {
  let page = tx
    .selectFrom('creators')
    .select(['id', 'payout_currency', 'minimum_payout_micros', 'opening_balance_micros'])
    .where('org_id', '=', orgId)
    .where('id', '>', request.after)
  if (request.upTo !== undefined) page = page.where('id', '<=', request.upTo)
  return page.orderBy('id').limit(request.limit).forUpdate().execute()
}

/** Each creator's unpaid allocations summed in its currency, with what its live payouts carry forward. */
async function unpaidTotals(
  tx: Tx,
  orgId: string,
  creators: readonly PageCreator[],
  currencies: readonly string[],
  through: string | undefined,
): Promise<Map<string, CreatorTotals>> {
  const ids = creators.map((creator) => creator.id)
  const totals = await sql<CreatorTotals>`
      with p (creator_id, currency) as (select * from unnest(${ids}::text[], ${currencies}::text[])),
      unpaid as (
        select a.creator_id, sum(a.amount_micros) as earnings, count(*) as entries,
               min(r.period_start collate "C") as period_start, max(r.period_end collate "C") as period_end
        ${unpaidOf(orgId, through)}
        group by a.creator_id
      )
      select p.creator_id, u.earnings::text as earnings, coalesce(u.entries, 0)::int as entries, u.period_start, u.period_end,
             (select sum(q.earnings_micros - q.amount_micros) from payouts q
              where q.org_id = ${orgId} and q.creator_id = p.creator_id and q.currency = p.currency and q.status in (${live}))::text as carried
      from p left join unpaid u on u.creator_id = p.creator_id`.execute(tx)
  return new Map(totals.rows.map((row) => [row.creator_id, row]))
}

/** The statement's inputs: the opening balance and minimum apply in the creator's payout currency only. */
function statementInput(
  creator: PageCreator,
  currency: string,
  row: CreatorTotals | undefined,
): Parameters<typeof statementFromTotals>[0] {
  const inPayoutCurrency = currency === creator.payout_currency
  return {
    currency,
    openingBalance: (inPayoutCurrency ? creator.opening_balance_micros : 0n) + BigInt(row?.carried ?? 0),
    totals: {
      earnings: BigInt(row?.earnings ?? 0),
      entries: row?.entries ?? 0,
      periodStart: row?.period_start ?? null,
      periodEnd: row?.period_end ?? null,
    },
    minimum: inPayoutCurrency ? creator.minimum_payout_micros : null,
  }
}

/** The statement, or null with the refusal counted (the two refusals a run expects). */
function statementOrRefusal(
  outcome: PayoutPageOutcome,
  input: Parameters<typeof statementFromTotals>[0],
): Statement | null {
  try {
    return statementFromTotals(input)
  } catch (error) {
    if (error instanceof AppError && error.code === 'nothing_to_pay') outcome.nothingToPay += 1
    else if (error instanceof AppError && error.code === 'balance_below_minimum') outcome.belowMinimum += 1
    else throw error
    return null
  }
}

/**
 * Links every payout to the allocations its statement summed, in one statement: the page's
 * unheld allocations are read once with their amounts (`unpaid`) and inserted as plain rows (the
 * unique index payout_items_live still refuses an allocation a live payout holds, and that error
 * sends the page to the one-by-one path; a speculative ON CONFLICT insert cost twice as much per
 * row). A plain INSERT ... SELECT links every row of `unpaid` or fails, so each payout's count
 * and sum are read from `unpaid` instead of looking each linked allocation up again. A
 * data-modifying CTE runs whether or not it is read. Allocations only ever appear (the
 * creators' locks keep every payout, cancel and failure of theirs out), so equal counts and sums
 * mean the same set; otherwise revenue committed in between and the page is run again.
 */
async function insertItems(
  tx: Tx,
  orgId: string,
  payouts: readonly PayoutRow[],
  through: string | undefined,
): Promise<void> {
  const summed = await sql<{ payout_id: string; entries: number; earnings: string }>`
    with p (creator_id, currency, payout_id) as (
      select * from unnest(${payouts.map((row) => row.creator_id)}::text[], ${payouts.map((row) => row.currency)}::text[], ${payouts.map((row) => row.id)}::text[])
    ),
    unpaid as materialized (
      select p.payout_id, a.revenue_id, a.creator_id, a.amount_micros
      from p
      join revenue_allocations a on a.org_id = ${orgId} and a.creator_id = p.creator_id and a.currency = p.currency
      ${through === undefined ? sql`` : sql`join revenue_entries r on r.org_id = a.org_id and r.id = a.revenue_id and r.period_end <= ${through}`}
      ${unheld}
      where h.held is null
    ),
    linked as (
      insert into payout_items (org_id, payout_id, revenue_id, creator_id, released_at)
      select ${orgId}, payout_id, revenue_id, creator_id, null from unpaid
    )
    select payout_id, count(*)::int as entries, sum(amount_micros)::text as earnings
    from unpaid group by payout_id`.execute(tx)
  const byPayout = new Map(summed.rows.map((row) => [row.payout_id, row]))
  for (const payout of payouts) {
    const row = byPayout.get(payout.id)
    if ((row?.entries ?? 0) !== payout.entries || BigInt(row?.earnings ?? 0) !== payout.earnings_micros)
      throw new PayoutPageChanged(payout.id)
  }
}
