import { sql, type Compilable, type Selectable } from 'kysely'
import type { Reader, Tx } from '../../database.js'
import type { Keyset } from '../../platform/pagination.js'
import type { PayableAllocation, Statement } from './payouts.statement.js'
import type { PayoutStatus, PayoutsTables } from './payouts.tables.js'
import { olderThan } from '../../platform/pagination.js'

export type PayoutRow = Selectable<PayoutsTables['payouts']>

/** Statuses whose payout holds its allocations; failed and canceled ones gave them back. */
export const LIVE_STATUSES: readonly PayoutStatus[] = ['pending', 'in_transit', 'paid']

const ITEM_BATCH = 1000

export function findPayout(db: Reader | Tx, orgId: string, id: string): Promise<PayoutRow | undefined> {
  return db.selectFrom('payouts').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst()
}

/** The creator's allocations in `currency` that no live payout holds, up to `through` (a period end date): rows for `payableOf`. */
export function unpaidAllocationsQuery(
  tx: Tx,
  orgId: string,
  creatorId: string,
  currency: string,
  through: string | null,
) {
  let select = tx
    .selectFrom('revenue_allocations as a')
    .innerJoin('revenue_entries as r', (join) =>
      join.onRef('r.org_id', '=', 'a.org_id').onRef('r.id', '=', 'a.revenue_id'),
    )
    // A LIMIT 1 probe of payout_items_live, not an anti-join: see payouts.batch.ts (stale statistics).
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('payout_items as i')
          .select(sql<boolean>`true`.as('held'))
          .whereRef('i.org_id', '=', 'a.org_id')
          .whereRef('i.revenue_id', '=', 'a.revenue_id')
          .whereRef('i.creator_id', '=', 'a.creator_id')
          .where('i.released_at', 'is', null)
          .limit(1)
          .as('h'),
      (join) => join.onTrue(),
    )
    .select(['a.revenue_id', 'a.amount_micros', 'r.period_start', 'r.period_end'])
    .where('a.org_id', '=', orgId)
    .where('a.creator_id', '=', creatorId)
    .where('a.currency', '=', currency)
    .where('h.held', 'is', null)
  if (through !== null) select = select.where('r.period_end', '<=', through)
  return select.orderBy('a.revenue_id')
}

type UnpaidRow = Awaited<ReturnType<ReturnType<typeof unpaidAllocationsQuery>['execute']>>[number]

/** unpaidAllocationsQuery's rows (a batch's, untyped) as payable allocations. */
export function payableOf(rows: readonly Record<string, unknown>[]): PayableAllocation[] {
  return (rows as unknown as readonly UnpaidRow[]).map((row) => ({
    revenueId: row.revenue_id,
    amount: row.amount_micros,
    periodStart: row.period_start,
    periodEnd: row.period_end,
  }))
}

/**
 * The creator's live statements in `currency`, for `carriedBy`: what they moved, Σ (earnings
 * − amount). Added to the creator's opening balance it is the balance carried into the next
 * statement (the previous statement's carriedForward when none was canceled in between).
 */
export function livePayoutsQuery(tx: Tx, orgId: string, creatorId: string, currency: string) {
  return tx
    .selectFrom('payouts')
    .select(['earnings_micros', 'amount_micros'])
    .where('org_id', '=', orgId)
    .where('creator_id', '=', creatorId)
    .where('currency', '=', currency)
    .where('status', 'in', [...LIVE_STATUSES])
}

/** What livePayoutsQuery's rows (a batch's, untyped) carried. */
export function carriedBy(rows: readonly Record<string, unknown>[]): bigint {
  return (rows as unknown as readonly { earnings_micros: bigint; amount_micros: bigint }[]).reduce(
    (sum, row) => sum + row.earnings_micros - row.amount_micros,
    0n,
  )
}

/** What a new payout stores: its statement's figures, pending, by `createdBy` at `now`. */
export interface NewPayout {
  orgId: string
  id: string
  creatorId: string
  currency: string
  statement: Statement
  sandbox: boolean
  now: Date
  createdBy: string
  /** The payout run's batch, or null for a payout created alone. */
  batchId: string | null
}

/** The row of a payout just computed (POST /api/payouts and the payout run write the same). */
export function pendingPayoutRow(payout: NewPayout): PayoutRow {
  const { statement, now } = payout
  return {
    org_id: payout.orgId,
    id: payout.id,
    creator_id: payout.creatorId,
    currency: payout.currency,
    amount_micros: statement.amount,
    status: 'pending',
    method: payout.sandbox ? 'sandbox' : 'manual',
    opening_balance_micros: statement.openingBalance,
    earnings_micros: statement.earnings,
    recouped_micros: statement.recouped,
    carried_forward_micros: statement.carriedForward,
    entries: statement.entries,
    period_start: statement.periodStart,
    period_end: statement.periodEnd,
    failure_code: null,
    failure_message: null,
    created_at: now,
    created_by: payout.createdBy,
    status_changed_at: now,
    paid_at: null,
    batch_id: payout.batchId,
  }
}

/** The payout as it was written, pending: what its batch's Merkle leaf hashed (a payout moves on by events of its own). */
export function asWritten(row: PayoutRow): PayoutRow {
  return {
    ...row,
    status: 'pending',
    failure_code: null,
    failure_message: null,
    paid_at: null,
    status_changed_at: row.created_at,
  }
}

/** The payout and its items, as statements (a thousand items each) for its commit. */
export function payoutInserts(tx: Tx, row: PayoutRow, revenueIds: readonly string[]): Compilable[] {
  const inserts: Compilable[] = [tx.insertInto('payouts').values(row)]
  for (let start = 0; start < revenueIds.length; start += ITEM_BATCH) {
    const batch = revenueIds.slice(start, start + ITEM_BATCH)
    inserts.push(
      tx.insertInto('payout_items').values(
        batch.map((revenueId) => ({
          org_id: row.org_id,
          payout_id: row.id,
          revenue_id: revenueId,
          creator_id: row.creator_id,
          released_at: null,
        })),
      ),
    )
  }
  return inserts
}

export interface StatusChange {
  status: PayoutStatus
  at: Date
  failureCode?: string
  failureMessage?: string
}

/** Moves a payout from one of `from` to a new status; undefined when it was not in one of them. */
export function changeStatus(
  tx: Tx,
  orgId: string,
  id: string,
  from: readonly PayoutStatus[],
  change: StatusChange,
): Promise<PayoutRow | undefined> {
  return tx
    .updateTable('payouts')
    .set({
      status: change.status,
      status_changed_at: change.at,
      ...(change.status === 'paid' ? { paid_at: change.at } : {}),
      ...(change.status === 'failed'
        ? { failure_code: change.failureCode ?? 'manual', failure_message: change.failureMessage ?? null }
        : {}),
    })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .returningAll()
    .executeTakeFirst()
}

/** Gives a failed or canceled payout's allocations back to the creator's balance. */
export async function releaseItems(tx: Tx, orgId: string, payoutId: string, at: Date): Promise<void> {
  await tx
    .updateTable('payout_items')
    .set({ released_at: at })
    .where('org_id', '=', orgId)
    .where('payout_id', '=', payoutId)
    .where('released_at', 'is', null)
    .execute()
}

export function listPayouts(
  db: Reader,
  orgId: string,
  filters: { batchId?: string; status?: PayoutStatus },
  after: Keyset | null,
  limit: number,
): Promise<PayoutRow[]> {
  let select = db.selectFrom('payouts').selectAll().where('org_id', '=', orgId)
  if (filters.batchId) select = select.where('batch_id', '=', filters.batchId)
  if (filters.status) select = select.where('status', '=', filters.status)
  if (after) select = select.where(olderThan(after, 'created_at', 'id'))
  return select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
}
