import type { Database } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { AuditLog } from '../audit/index.js'
import type { Tx } from '../../database.js'
import type { RequestContext } from '../../platform/context.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import { AppError, notFound } from '../../platform/errors.js'
import { batchInclusion } from '../../shared/merkle/merkle.batch.js'
import { decodeCursor, toPage, type Page } from '../../platform/pagination.js'
import { activeEntriesQuery, activeSplitsQuery, findEntry, type CatalogRow, type SplitRow } from '../catalog/index.js'
import { allocate, type Allocation, type Share } from '../../shared/money/money.allocation.js'
import { formatAmount, MICRO_PLACES, parseAmount } from '../../shared/money/money.decimal.js'
import { requireCurrency } from '../../shared/money/money.schemas.js'
import { requireCountry } from '../../shared/records/records.identifiers.js'
import { iso, conflictsAsAppErrors, uniqueViolation } from '../../shared/records/records.mount.js'
import { eventQuery, findEvent } from '../ticketing/index.js'
import {
  allocationsOf,
  batchLines,
  findReversal,
  findRevenue,
  findStatementLine,
  listRevenue,
  revenueInserts,
  statementLineQuery,
  STATEMENT_LINE_INDEX,
  type AllocationRow,
  type RevenueRow,
} from './revenue.repo.js'
import { checkMirror, entryReference, referenceNames, referenceParam, type LineFields } from './revenue.rules.js'
import type { CreateRevenueBody, Revenue, RevenueProof, RevenueQuery } from './revenue.schemas.js'
import { cachedEntryStale, EntryCache, type CachedEntry } from './revenue.entry-cache.js'
import type { EntryReference } from '../catalog/index.js'

export interface RevenueService {
  /** `answer`: the request's Idempotency-Key answer, committed with the entry. */
  create(ctx: RequestContext, body: CreateRevenueBody, answer?: StoredAnswer): Promise<Revenue>
  list(ctx: RequestContext, query: RevenueQuery): Promise<Page<Revenue>>
  /** An imported line's inclusion proof in its batch event's Merkle root. */
  proof(ctx: RequestContext, revenueId: string): Promise<RevenueProof>
}

export function presentRevenue(row: RevenueRow, allocations: readonly AllocationRow[]): Revenue {
  return {
    id: row.id,
    catalogId: row.catalog_id,
    eventId: row.event_id,
    source: row.source,
    type: row.type,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    territory: row.territory,
    units: Number(row.units),
    amount: formatAmount(row.amount_micros, row.currency),
    currency: row.currency,
    statementRef: row.statement_ref,
    lineRef: row.line_ref,
    reverses: row.reverses,
    batchId: row.batch_id,
    // By creator, as JavaScript orders strings: the record is a batch's Merkle leaf, whatever order the rows came in.
    allocations: [...allocations]
      .sort((a, b) => (a.creator_id < b.creator_id ? -1 : a.creator_id > b.creator_id ? 1 : 0))
      .map((allocation) => ({
        creatorId: allocation.creator_id,
        amount: formatAmount(allocation.amount_micros, row.currency),
      })),
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
  }
}

/** The validated, normalised fields of a line (shared with the statement import). */
export function lineFields(body: CreateRevenueBody): LineFields {
  const currency = requireCurrency(body.currency)
  if (body.territory !== 'WORLD') requireCountry(body.territory, 'territory')
  if (body.periodStart > body.periodEnd)
    throw new AppError('parameter_invalid', 'periodEnd must not be before periodStart', { param: 'periodEnd' })
  if ((body.type === 'ticket_sale') !== (body.eventId !== undefined)) {
    throw new AppError('parameter_invalid', 'Ticket sales name their eventId, and only ticket sales do', {
      param: 'eventId',
    })
  }
  return {
    eventId: body.eventId ?? null,
    source: body.source.trim(),
    type: body.type,
    periodStart: body.periodStart,
    periodEnd: body.periodEnd,
    territory: body.territory,
    units: BigInt(body.units),
    amount: parseAmount(body.amount, { param: 'amount', places: MICRO_PLACES, zero: false }),
    currency,
  }
}

/** The one active entry a line's reference names (422 when it names none, or more than one). */
async function requireOneEntry(
  tx: Tx,
  orgId: string,
  ref: EntryReference,
  entries: readonly CatalogRow[],
): Promise<CatalogRow> {
  const param = referenceParam(ref)
  const named = Object.values(ref)[0] as string
  if (entries.length > 1)
    throw new AppError('unprocessable', `${param} ${named} names more than one active entry; send catalogId`, { param })
  const entry = entries[0]
  if (entry) return entry
  if ('catalogId' in ref) {
    const inactive = await findEntry(tx, orgId, ref.catalogId)
    if (inactive)
      throw new AppError(
        'unprocessable',
        `${ref.catalogId} has been superseded by ${inactive.superseded_by}; book revenue on the active entry`,
        { param },
      )
  }
  throw new AppError('unprocessable', `${param} ${named} does not name an active catalog entry of this org`, { param })
}

/** What a line needs checked and read before it is written, read in one round trip. */
interface LineContext {
  recordedAs: string | null
  eventFound: boolean
  entries: CatalogRow[]
  splits: SplitRow[]
}

async function readLineContext(
  db: RevenueDeps['db'],
  tx: Tx,
  orgId: string,
  ref: EntryReference,
  line: LineFields,
  body: CreateRevenueBody,
): Promise<LineContext> {
  const statementLine = body.statementRef !== undefined && body.lineRef !== undefined
  const results = await db.batch(tx, [
    activeEntriesQuery(tx, orgId, ref),
    activeSplitsQuery(tx, orgId, ref),
    ...(statementLine ? [statementLineQuery(tx, orgId, line.source, body.statementRef!, body.lineRef!)] : []),
    ...(line.eventId !== null ? [eventQuery(tx, orgId, line.eventId)] : []),
  ])
  // The optional queries' results follow the two that always run, in the order they were added.
  const optional = results.slice(2)
  const recorded = statementLine ? optional.shift() : undefined
  const event = line.eventId !== null ? optional.shift() : undefined
  return {
    entries: (results[0] ?? []) as CatalogRow[],
    splits: (results[1] ?? []) as SplitRow[],
    recordedAs: (recorded?.[0]?.id as string | undefined) ?? null,
    eventFound: event === undefined || event.length > 0,
  }
}

function splitShares(splits: readonly SplitRow[]): Share[] {
  return splits.map((split) => ({ creatorId: split.creator_id, shareBps: split.share_bps }))
}

function lineRecorded(body: CreateRevenueBody, line: LineFields, existingId: string): AppError {
  return new AppError(
    'conflict',
    `Statement ${body.statementRef} line ${body.lineRef} from ${line.source} is already recorded as ${existingId}`,
    { param: 'lineRef' },
  )
}

function eventMissing(eventId: string): AppError {
  return new AppError('unprocessable', `eventId ${eventId} is not a ticketed event of this org`, { param: 'eventId' })
}

const CONSTRAINT_CONFLICTS: Record<string, string> = {
  [STATEMENT_LINE_INDEX]: 'This statement line (source, statementRef, lineRef) has already been recorded',
  revenue_entries_reverses: 'That entry has already been reversed',
}

/** What the service is built from: the database, time, ids, and the audit log's append. */
export interface RevenueDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: Pick<AuditLog, 'append'>
}

export function createRevenueService(deps: RevenueDeps): RevenueService {
  const { db, clock, ids, audit } = deps

  const entryCache = new EntryCache()

  /** Writes the line and its allocations with the commit, and appends its event. */
  async function record(
    tx: Tx,
    ctx: RequestContext,
    id: string,
    body: CreateRevenueBody,
    line: LineFields,
    catalogId: string,
    amounts: Allocation[],
  ): Promise<Revenue> {
    const row: RevenueRow = {
      org_id: ctx.orgId,
      id,
      catalog_id: catalogId,
      event_id: line.eventId,
      source: line.source,
      type: line.type,
      period_start: line.periodStart,
      period_end: line.periodEnd,
      territory: line.territory,
      units: line.units,
      amount_micros: line.amount,
      currency: line.currency,
      statement_ref: body.statementRef ?? null,
      line_ref: body.lineRef ?? null,
      reverses: body.reverses ?? null,
      batch_id: null,
      created_at: clock.now(),
      created_by: ctx.actor.userId,
    }
    const allocations: AllocationRow[] = [...amounts]
      .sort((a, b) => (a.creatorId < b.creatorId ? -1 : 1))
      .map((part) => ({
        org_id: ctx.orgId,
        revenue_id: id,
        creator_id: part.creatorId,
        currency: line.currency,
        amount_micros: part.amount,
      }))
    // Nothing reads them back: they go with the commit (a raced statement line still ends in its unique index, as 409).
    for (const insert of revenueInserts(row, allocations)) db.atCommit(tx, insert)
    const revenue = presentRevenue(row, allocations)
    await audit.append(tx, ctx, 'revenue.created', { type: 'revenue', id }, revenue)
    return revenue
  }

  /**
   * A line whose reference this process read before: no read at all, one round trip with the
   * commit, under a guard that the reference still names the cached entry alone. Undefined when
   * the uncached path (read, then write) must answer: the cached entry no longer holds (forgotten), or the statement
   * line is recorded already (the uncached path (read, then write) names the entry that recorded it).
   */
  async function createCached(
    ctx: RequestContext,
    body: CreateRevenueBody,
    ref: EntryReference,
    line: LineFields,
    id: string,
    cached: CachedEntry,
    answer: StoredAnswer | undefined,
  ): Promise<Revenue | undefined> {
    try {
      // Grouped: it reads nothing, and every write goes with the commit, the guard first.
      return await db.groupedTx(
        ctx,
        (tx) => {
          db.atCommit(tx, cached.guard)
          return record(tx, ctx, id, body, line, cached.catalogId, allocate(line.amount, splitShares(cached.splits)))
        },
        { commitWith: answer },
      )
    } catch (error) {
      if (cachedEntryStale(error)) entryCache.forget(ctx.orgId, ref)
      else if (uniqueViolation(error) !== STATEMENT_LINE_INDEX) throw error
      return undefined
    }
  }

  async function create(ctx: RequestContext, body: CreateRevenueBody, answer?: StoredAnswer): Promise<Revenue> {
    const ref = entryReference(body)
    const line = lineFields(body)
    const id = ids.next('revenue')
    const cached = body.reverses === undefined && line.eventId === null ? entryCache.get(ctx.orgId, ref) : undefined
    if (cached) {
      const revenue = await createCached(ctx, body, ref, line, id, cached, answer)
      if (revenue) return revenue
    }
    // Grouped: it only reads (without locks) before its commit, and every write goes with the
    // commit, so concurrent lines of one org share one chain lock and one WAL flush.
    return db.groupedTx(
      ctx,
      async (tx) => {
        let entry: CatalogRow
        let amounts: Allocation[]
        if (body.reverses !== undefined) {
          if (body.statementRef !== undefined && body.lineRef !== undefined) {
            const existing = await findStatementLine(tx, ctx.orgId, line.source, body.statementRef, body.lineRef)
            if (existing) throw lineRecorded(body, line, existing.id)
          }
          if (line.eventId !== null && !(await findEvent(tx, ctx.orgId, line.eventId))) throw eventMissing(line.eventId)
          const original = await findRevenue(tx, ctx.orgId, body.reverses)
          if (!original)
            throw new AppError('unprocessable', `reverses ${body.reverses} is not a revenue entry of this org`, {
              param: 'reverses',
            })
          if (original.reverses !== null)
            throw new AppError('unprocessable', `${original.id} is itself a reversal and cannot be reversed`, {
              param: 'reverses',
            })
          const reversal = await findReversal(tx, ctx.orgId, original.id)
          if (reversal)
            throw new AppError('conflict', `${original.id} has already been reversed by ${reversal.id}`, {
              param: 'reverses',
            })
          const originalEntry = await findEntry(tx, ctx.orgId, original.catalog_id)
          if (!originalEntry || !referenceNames(ref, originalEntry)) {
            throw new AppError(
              'unprocessable',
              `A reversal mirrors ${original.id} exactly: it is for catalog entry ${original.catalog_id}`,
              { param: referenceParam(ref) },
            )
          }
          checkMirror(original, line)
          entry = originalEntry
          // The exact negation of what the original allocated, micro-unit for micro-unit.
          const originalAllocations = (await allocationsOf(tx, ctx.orgId, [original.id])).get(original.id) ?? []
          amounts = originalAllocations.map((allocation) => ({
            creatorId: allocation.creator_id,
            amount: -allocation.amount_micros,
          }))
        } else {
          const context = await readLineContext(db, tx, ctx.orgId, ref, line, body)
          if (context.recordedAs !== null) throw lineRecorded(body, line, context.recordedAs)
          if (!context.eventFound) throw eventMissing(line.eventId!)
          entry = await requireOneEntry(tx, ctx.orgId, ref, context.entries)
          const splits = context.splits.filter((split) => split.catalog_id === entry.id)
          entryCache.keep(tx, ctx.orgId, ref, entry.id, splits)
          amounts = allocate(line.amount, splitShares(splits))
        }
        return record(tx, ctx, id, body, line, entry.id, amounts)
      },
      { commitWith: answer },
    )
  }

  return {
    create(ctx, body, answer) {
      // A concurrent import of the same line (or reversal) won the race.
      return conflictsAsAppErrors(() => create(ctx, body, answer), CONSTRAINT_CONFLICTS)
    },

    async proof(ctx, revenueId) {
      const { orgId } = ctx
      const found = await db.read(orgId, async (reader) => {
        const row = await findRevenue(reader, orgId, revenueId)
        if (!row?.batch_id) return { row, event: undefined, batch: undefined }
        // The batch's lines and its event were written by one transaction and never change.
        const event = await reader
          .selectFrom('org_events')
          .select('id')
          .where('org_id', '=', orgId)
          .where('action', '=', 'revenue.imported')
          .where('resource_id', '=', row.batch_id)
          .executeTakeFirst()
        return { row, event, batch: await batchLines(reader, orgId, row.batch_id) }
      })
      const { row, event, batch } = found
      if (!row) throw notFound('revenue entry')
      if (!row.batch_id || !batch) {
        const created = await db.read(orgId, (reader) =>
          reader
            .selectFrom('org_events')
            .select('id')
            .where('org_id', '=', orgId)
            .where('action', '=', 'revenue.created')
            .where('resource_type', '=', 'revenue')
            .where('resource_id', '=', row.id)
            .executeTakeFirst(),
        )
        throw new AppError(
          'unprocessable',
          `${row.id} was created alone, not imported in a batch: its own revenue.created event${created ? ` ${created.id}` : ''} holds the record; prove that event against a seal (GET /v1/orgs/{orgId}/events/{eventId}/proof)`,
          { param: 'revenueId' },
        )
      }
      if (!event) throw new Error(`batch ${row.batch_id} has no revenue.imported event`)
      const lines = batch.rows.map((line) => ({
        id: line.id,
        currency: line.currency,
        amount: line.amount_micros,
        record: presentRevenue(line, batch.allocations.get(line.id) ?? []),
      }))
      const inclusion = batchInclusion(lines, row.id)
      if (!inclusion) throw new Error(`${row.id} is not among the lines of its batch ${row.batch_id}`)
      return { revenueId: row.id, batchId: row.batch_id, eventId: event.id, ...inclusion }
    },

    async list(ctx, query) {
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
        return {
          rows,
          allocations: await allocationsOf(
            reader,
            ctx.orgId,
            rows.map((row) => row.id),
          ),
        }
      })
      return toPage(
        rows,
        query.limit,
        (row) => [iso(row.created_at), row.id],
        (row) => presentRevenue(row, allocations.get(row.id) ?? []),
        filters,
      )
    },
  }
}
