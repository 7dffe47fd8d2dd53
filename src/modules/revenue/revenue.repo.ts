import { CompiledQuery, type Compilable, type Selectable } from 'kysely'
import type { Reader, Tx } from '../../db/database.js'
import type { Keyset } from '../../platform/pagination.js'
import type { RevenueTables } from './revenue.tables.js'
import { olderThan } from '../../platform/pagination.js'

export type RevenueRow = Selectable<RevenueTables['revenue_entries']>
export type AllocationRow = Selectable<RevenueTables['revenue_allocations']>

// The API's create writes these for every line: SQL text, not queries built and compiled each time.
const INSERT_ENTRY =
  'insert into revenue_entries (org_id, id, catalog_id, event_id, source, type, period_start, period_end, territory, units, amount_micros, currency, statement_ref, line_ref, reverses, created_at, created_by) ' +
  'values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)'
const INSERT_ALLOCATIONS =
  'insert into revenue_allocations (org_id, revenue_id, creator_id, currency, amount_micros) ' +
  'select $1, $2, a.creator_id, $3, a.amount_micros from unnest($4::text[], $5::bigint[]) with ordinality as a (creator_id, amount_micros, n) order by a.n'

/** The statements that write an entry and its allocations (to send with the commit). */
export function revenueInserts(row: RevenueRow, allocations: readonly AllocationRow[]): Compilable[] {
  const entry = CompiledQuery.raw(INSERT_ENTRY, [
    row.org_id, row.id, row.catalog_id, row.event_id, row.source, row.type, row.period_start, row.period_end, row.territory,
    row.units, row.amount_micros, row.currency, row.statement_ref, row.line_ref, row.reverses, row.created_at, row.created_by,
  ])
  const shares = CompiledQuery.raw(INSERT_ALLOCATIONS, [row.org_id, row.id, row.currency, allocations.map((a) => a.creator_id), allocations.map((a) => a.amount_micros)])
  return [{ compile: () => entry }, { compile: () => shares }]
}

export function findRevenue(db: Reader | Tx, orgId: string, id: string): Promise<RevenueRow | undefined> {
  return db.selectFrom('revenue_entries').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst()
}

export function findStatementLine(db: Tx, orgId: string, source: string, statementRef: string, lineRef: string): Promise<{ id: string } | undefined> {
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
  return db.selectFrom('revenue_entries').select('id').where('org_id', '=', orgId).where('reverses', '=', originalId).executeTakeFirst()
}

export async function allocationsOf(db: Reader | Tx, orgId: string, revenueIds: readonly string[]): Promise<Map<string, AllocationRow[]>> {
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
}

export function listRevenue(db: Reader, orgId: string, filters: RevenueFilters, after: Keyset | null, limit: number): Promise<RevenueRow[]> {
  let select = db.selectFrom('revenue_entries as r').selectAll('r').where('r.org_id', '=', orgId)
  if (filters.catalogId) select = select.where('r.catalog_id', '=', filters.catalogId)
  if (filters.currency) select = select.where('r.currency', '=', filters.currency)
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
  return select.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(limit + 1).execute()
}
