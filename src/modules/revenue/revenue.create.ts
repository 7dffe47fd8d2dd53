import type { Tx } from '../../database.js'
import type { RequestContext } from '../../platform/context.js'
import { AppError } from '../../platform/errors.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import { allocate, type Allocation, type Share } from '../../shared/money/money.allocation.js'
import { uniqueViolation } from '../../shared/records/records.mount.js'
import {
  activeEntriesQuery,
  activeSplitsQuery,
  findEntry,
  type CatalogRow,
  type EntryReference,
} from '../catalog/index.js'
import type { SplitRow } from '../catalog/index.js'
import { eventQuery, findEvent } from '../ticketing/index.js'
import { cachedEntryStale, type CachedEntry, type EntryCache } from './revenue.entry-cache.js'
import { presentRevenue } from './revenue.present.js'
import {
  allocationsOf,
  findReversal,
  findRevenue,
  findStatementLine,
  revenueInserts,
  statementLineQuery,
  STATEMENT_LINE_INDEX,
  type AllocationRow,
  type RevenueRow,
} from './revenue.repo.js'
import {
  checkMirror,
  entryReference,
  lineFields,
  referenceNames,
  referenceParam,
  type LineFields,
} from './revenue.rules.js'
import type { CreateRevenueBody, Revenue } from './revenue.schemas.js'
import type { ImportDeps as RevenueDeps } from './revenue.import-batch.js'

/** What creating one entry works with: the service's deps and this process's cache of catalog references. */
export interface EntryWriter {
  deps: RevenueDeps
  entryCache: EntryCache
}

/** One line, as POST /api/revenue takes it. */
interface NewLine {
  ctx: RequestContext
  body: CreateRevenueBody
  ref: EntryReference
  line: LineFields
  id: string
}

/**
 * Creates one entry: through the cache when this process read its reference before (no read at
 * all), else read, check and write. Both are grouped transactions: they only read (without
 * locks) before their commit and send every write with it, so concurrent lines of one org
 * share one chain lock and one WAL flush.
 */
export async function createEntry(
  writer: EntryWriter,
  ctx: RequestContext,
  body: CreateRevenueBody,
  answer: StoredAnswer | undefined,
): Promise<Revenue> {
  const ref = entryReference(body)
  const line = lineFields(body)
  const input: NewLine = { ctx, body, ref, line, id: writer.deps.ids.next('revenue') }
  const usable = body.reverses === undefined && line.eventId === null
  const cached = usable ? writer.entryCache.get(ctx.orgId, input.ref) : undefined
  if (cached) {
    const revenue = await createCached(writer, input, cached, answer)
    if (revenue) return revenue
  }
  return writer.deps.db.groupedTx(
    ctx,
    async (tx) => {
      const { entry, amounts } =
        body.reverses !== undefined
          ? await reversalAmounts(tx, input, body.reverses)
          : await lineAmounts(writer, tx, input)
      return record(writer, tx, input, entry.id, amounts)
    },
    { commitWith: answer },
  )
}

/**
 * A line whose reference this process read before: one round trip with the commit, under a
 * guard that the reference still names the cached entry alone. Undefined when the read-then-write
 * path must answer: the cached entry no longer holds (forgotten), or the statement line is
 * recorded already (that path names the entry that recorded it).
 */
async function createCached(
  writer: EntryWriter,
  input: NewLine,
  cached: CachedEntry,
  answer: StoredAnswer | undefined,
): Promise<Revenue | undefined> {
  const { db } = writer.deps
  try {
    return await db.groupedTx(
      input.ctx,
      (tx) => {
        db.atCommit(tx, cached.guard)
        return record(writer, tx, input, cached.catalogId, allocate(input.line.amount, splitShares(cached.splits)))
      },
      { commitWith: answer },
    )
  } catch (error) {
    if (cachedEntryStale(error)) writer.entryCache.forget(input.ctx.orgId, input.ref)
    else if (uniqueViolation(error) !== STATEMENT_LINE_INDEX) throw error
    return undefined
  }
}

/** A new line: its entry and splits read in one round trip, with the checks that it is not recorded and its event exists. */
async function lineAmounts(
  writer: EntryWriter,
  tx: Tx,
  input: NewLine,
): Promise<{ entry: CatalogRow; amounts: Allocation[] }> {
  const { ctx, ref, line, body } = input
  const context = await readLineContext(writer, tx, input)
  if (context.recordedAs !== null) throw lineRecorded(body, line, context.recordedAs)
  if (!context.eventFound) throw eventMissing(line.eventId!)
  const entry = await requireOneEntry(tx, ctx.orgId, ref, context.entries)
  const splits = context.splits.filter((split) => split.catalog_id === entry.id)
  writer.entryCache.keep(tx, ctx.orgId, ref, entry.id, splits)
  return { entry, amounts: allocate(line.amount, splitShares(splits)) }
}

/** A reversal: the exact negation of what the original allocated, micro-unit for micro-unit, once. */
async function reversalAmounts(
  tx: Tx,
  input: NewLine,
  reverses: string,
): Promise<{ entry: CatalogRow; amounts: Allocation[] }> {
  const { ctx, ref, line, body } = input
  if (body.statementRef !== undefined && body.lineRef !== undefined) {
    const existing = await findStatementLine(tx, ctx.orgId, line.source, body.statementRef, body.lineRef)
    if (existing) throw lineRecorded(body, line, existing.id)
  }
  if (line.eventId !== null && !(await findEvent(tx, ctx.orgId, line.eventId))) throw eventMissing(line.eventId)
  const original = await findRevenue(tx, ctx.orgId, reverses)
  if (!original)
    throw new AppError('unprocessable', `reverses ${reverses} is not a revenue entry of this org`, {
      param: 'reverses',
    })
  if (original.reverses !== null)
    throw new AppError('unprocessable', `${original.id} is itself a reversal and cannot be reversed`, {
      param: 'reverses',
    })
  const reversal = await findReversal(tx, ctx.orgId, original.id)
  if (reversal)
    throw new AppError('conflict', `${original.id} has already been reversed by ${reversal.id}`, { param: 'reverses' })
  const entry = await findEntry(tx, ctx.orgId, original.catalog_id)
  if (!entry || !referenceNames(ref, entry)) {
    throw new AppError(
      'unprocessable',
      `A reversal mirrors ${original.id} exactly: it is for catalog entry ${original.catalog_id}`,
      { param: referenceParam(ref) },
    )
  }
  checkMirror(original, line)
  const originalAllocations = (await allocationsOf(tx, ctx.orgId, [original.id])).get(original.id) ?? []
  const amounts = originalAllocations.map((allocation) => ({
    creatorId: allocation.creator_id,
    amount: -allocation.amount_micros,
  }))
  return { entry, amounts }
}

/** Writes the line and its allocations with the commit, and appends its event. */
async function record(
  writer: EntryWriter,
  tx: Tx,
  input: NewLine,
  catalogId: string,
  amounts: Allocation[],
): Promise<Revenue> {
  const { ctx, body, line, id } = input
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
    created_at: writer.deps.clock.now(),
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
  for (const insert of revenueInserts(row, allocations)) writer.deps.db.atCommit(tx, insert)
  const revenue = presentRevenue(row, allocations)
  await writer.deps.audit.append(tx, ctx, 'revenue.created', { type: 'revenue', id }, revenue)
  return revenue
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

async function readLineContext(writer: EntryWriter, tx: Tx, input: NewLine): Promise<LineContext> {
  const { ctx, ref, line, body } = input
  const { orgId } = ctx
  const statementLine = body.statementRef !== undefined && body.lineRef !== undefined
  const results = await writer.deps.db.batch(tx, [
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
