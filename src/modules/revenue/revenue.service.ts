import type { Database } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import { decodeCursor, toPage, type Page } from '../../platform/pagination.js'
import { conflictsAsAppErrors, iso } from '../../shared/records/records.mount.js'
import type { AuditLog } from '../audit/index.js'
import { createEntry } from './revenue.create.js'
import { EntryCache } from './revenue.entry-cache.js'
import { importStatement, type ImportOptions, type ImportReport } from './revenue.import.js'
import { presentRevenue } from './revenue.present.js'
import { revenueProof } from './revenue.proof.js'
import { allocationsOf, listRevenue, STATEMENT_LINE_INDEX } from './revenue.repo.js'
import type { CreateRevenueBody, Revenue, RevenueProof, RevenueQuery } from './revenue.schemas.js'

export { presentRevenue } from './revenue.present.js'

export interface RevenueService {
  /** `answer`: the request's Idempotency-Key answer, committed with the entry. */
  create(ctx: RequestContext, body: CreateRevenueBody, answer?: StoredAnswer): Promise<Revenue>
  list(ctx: RequestContext, query: RevenueQuery): Promise<Page<Revenue>>
  /** An imported line's inclusion proof in its batch event's Merkle root. */
  proof(ctx: RequestContext, revenueId: string): Promise<RevenueProof>
  /** Streams a statement into entries, batch by batch (revenue.import.ts). */
  importStatement(options: ImportOptions): Promise<ImportReport>
}

/** What the service is built from: the database, time, ids, and the audit log's append. */
export interface RevenueDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: Pick<AuditLog, 'append'>
}

const CONSTRAINT_CONFLICTS: Record<string, string> = {
  [STATEMENT_LINE_INDEX]: 'This statement line (source, statementRef, lineRef) has already been recorded',
  revenue_entries_reverses: 'That entry has already been reversed',
}

export function createRevenueService(deps: RevenueDeps): RevenueService {
  const writer = { deps, entryCache: new EntryCache() }
  return {
    // A concurrent import of the same line (or reversal) won the race.
    create: (ctx, body, answer) =>
      conflictsAsAppErrors(() => createEntry(writer, ctx, body, answer), CONSTRAINT_CONFLICTS),
    proof: (ctx, revenueId) => revenueProof(deps.db, ctx, revenueId),
    list: (ctx, query) => listEntries(deps.db, ctx, query),
    importStatement: (options) => importStatement(deps, options),
  }
}

async function listEntries(db: Database, ctx: RequestContext, query: RevenueQuery): Promise<Page<Revenue>> {
  const filters = {
    catalogId: query.catalogId,
    creatorId: query.creatorId,
    periodFrom: query.periodFrom,
    periodTo: query.periodTo,
    currency: query.currency,
    batchId: query.batchId,
  }
  const after = decodeCursor(query.cursor, filters, 2)
  const { rows, allocations } = await db.read(ctx.orgId, async (reader) => {
    const rows = await listRevenue(reader, ctx.orgId, filters, after, query.limit)
    const ids = rows.map((row) => row.id)
    return { rows, allocations: await allocationsOf(reader, ctx.orgId, ids) }
  })
  return toPage(
    rows,
    query.limit,
    (row) => [iso(row.created_at), row.id],
    (row) => presentRevenue(row, allocations.get(row.id) ?? []),
    filters,
  )
}
