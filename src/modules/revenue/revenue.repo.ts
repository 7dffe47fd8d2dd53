import type { Selectable } from 'kysely'
import type { Reader, Tx } from '../../database.js'
import type { KeyedWrite } from '../../database.js'
import { mergeableInsert } from '../../db/mergeable-insert.js'
import type { Keyset } from '../../platform/pagination.js'
import type { RevenueTables } from './revenue.tables.js'
import { olderThan } from '../../platform/pagination.js'

/** The unique index of statement lines (org, source, statementRef, lineRef): what recording a line twice violates. */
export const STATEMENT_LINE_INDEX = 'revenue_entries_statement_line'

export type RevenueRow = Selectable<RevenueTables['revenue_entries']>
export type AllocationRow = Selectable<RevenueTables['revenue_allocations']>

// The API's create writes these for every line: fixed SQL texts, mergeable across a group commit.
const insertEntry = mergeableInsert('revenue_entries', [
  ['org_id', 'text'],
  ['id', 'text'],
  ['catalog_id', 'text'],
  ['event_id', 'text'],
  ['source', 'text'],
  ['type', 'text'],
  ['period_start', 'text'],
  ['period_end', 'text'],
  ['territory', 'text'],
  ['units', 'bigint'],
  ['amount_micros', 'bigint'],
  ['currency', 'text'],
  ['statement_ref', 'text'],
  ['line_ref', 'text'],
  ['reverses', 'text'],
  ['batch_id', 'text'],
  ['created_at', 'timestamptz'],
  ['created_by', 'text'],
])
const insertAllocation = mergeableInsert('revenue_allocations', [
  ['org_id', 'text'],
  ['revenue_id', 'text'],
  ['creator_id', 'text'],
  ['currency', 'text'],
  ['amount_micros', 'bigint'],
])

/** The writes that record an entry and its allocations (sent with the commit; a group commit merges them with its other lines'). */
export function revenueInserts(row: RevenueRow, allocations: readonly AllocationRow[]): KeyedWrite[] {
  const entry = insertEntry([
    row.org_id,
    row.id,
    row.catalog_id,
    row.event_id,
    row.source,
    row.type,
    row.period_start,
    row.period_end,
    row.territory,
    row.units,
    row.amount_micros,
    row.currency,
    row.statement_ref,
    row.line_ref,
    row.reverses,
    row.batch_id,
    row.created_at,
    row.created_by,
  ])
  return [
    entry,
    ...allocations.map((a) => insertAllocation([a.org_id, a.revenue_id, a.creator_id, a.currency, a.amount_micros])),
  ]
}

export function findRevenue(db: Reader | Tx, orgId: string, id: string): Promise<RevenueRow | undefined> {
  return db
    .selectFrom('revenue_entries')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export function findStatementLine(
  db: Tx,
  orgId: string,
  source: string,
  statementRef: string,
  lineRef: string,
): Promise<{ id: string } | undefined> {
  return statementLineQuery(db, orgId, source, statementRef, lineRef).executeTakeFirst()
}

/** The entry already recorded for a statement line, as a query (to run in a batch). */
export function statementLineQuery(db: Tx, orgId: string, source: string, statementRef: string, lineRef: string) {
  return db
    .selectFrom('revenue_entries')
    .select('id')
    .where('org_id', '=', orgId)
    .where('source', '=', source)
    .where('statement_ref', '=', statementRef)
    .where('line_ref', '=', lineRef)
}

export function findReversal(db: Tx, orgId: string, originalId: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('revenue_entries')
    .select('id')
    .where('org_id', '=', orgId)
    .where('reverses', '=', originalId)
    .executeTakeFirst()
}

export async function allocationsOf(
  db: Reader | Tx,
  orgId: string,
  revenueIds: readonly string[],
): Promise<Map<string, AllocationRow[]>> {
  const byRevenue = new Map<string, AllocationRow[]>()
  if (revenueIds.length === 0) return byRevenue
  const rows = await db
    .selectFrom('revenue_allocations')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('revenue_id', 'in', [...new Set(revenueIds)])
    .orderBy('revenue_id')
    .orderBy('creator_id')
    .execute()
  for (const row of rows) {
    const list = byRevenue.get(row.revenue_id) ?? []
    list.push(row)
    byRevenue.set(row.revenue_id, list)
  }
  return byRevenue
}

export interface RevenueFilters {
  catalogId?: string
  creatorId?: string
  periodFrom?: string
  periodTo?: string
  currency?: string
  batchId?: string
}

export function listRevenue(
  db: Reader,
  orgId: string,
  filters: RevenueFilters,
  after: Keyset | null,
  limit: number,
): Promise<RevenueRow[]> {
  let select = db.selectFrom('revenue_entries as r').selectAll('r').where('r.org_id', '=', orgId)
  if (filters.catalogId) select = select.where('r.catalog_id', '=', filters.catalogId)
  if (filters.currency) select = select.where('r.currency', '=', filters.currency)
  if (filters.batchId) select = select.where('r.batch_id', '=', filters.batchId)
  if (filters.periodFrom) select = select.where('r.period_end', '>=', filters.periodFrom)
  if (filters.periodTo) select = select.where('r.period_start', '<=', filters.periodTo)
  if (filters.creatorId) {
    const creatorId = filters.creatorId
    select = select.where((eb) =>
      eb.exists(
        eb
          .selectFrom('revenue_allocations as a')
          .select('a.creator_id')
          .whereRef('a.org_id', '=', 'r.org_id')
          .whereRef('a.revenue_id', '=', 'r.id')
          .where('a.creator_id', '=', creatorId),
      ),
    )
  }
  if (after) select = select.where(olderThan(after, 'r.created_at', 'r.id'))
  return select
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit + 1)
    .execute()
}

/** Every line of an import batch with its allocations (a batch is one transaction's: at most a few thousand lines). */
export async function batchLines(
  db: Reader,
  orgId: string,
  batchId: string,
): Promise<{ rows: RevenueRow[]; allocations: Map<string, AllocationRow[]> }> {
  const rows = await db
    .selectFrom('revenue_entries')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('batch_id', '=', batchId)
    .execute()
  return {
    rows,
    allocations: await allocationsOf(
      db,
      orgId,
      rows.map((row) => row.id),
    ),
  }
}
