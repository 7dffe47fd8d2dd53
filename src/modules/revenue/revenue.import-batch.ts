import type { Database, Tx } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { IdGenerator } from '../../platform/ids.js'
import { batchEventData, type BatchLine } from '../../shared/merkle/merkle.batch.js'
import { allocate, type Share } from '../../shared/money/money.allocation.js'
import { uniqueViolation } from '../../shared/records/records.mount.js'
import type { AuditActor, AuditLog } from '../audit/index.js'
import {
  activeEntryIds,
  insertStatementLines,
  presentStatementLines,
  sharesOf,
  type RecordedLines,
} from './revenue.import-repo.js'
import { skippedLine, type BatchOutcome, type SkippedLine } from './revenue.import-report.js'
import { STATEMENT_LINE_INDEX, type AllocationRow, type RevenueRow } from './revenue.repo.js'
import { presentRevenue } from './revenue.present.js'
import type { Rejection, StatementBatch, StatementLine } from './revenue.statement.js'

/** Entries whose splits are kept between batches; past this the cache starts again (a huge catalog). */
const SHARES_KEPT = 100_000
/** Attempts of a batch that PostgreSQL chose as a deadlock's victim (another writer took the same lines). */
const DEADLOCK_ATTEMPTS = 5

export interface ImportDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: Pick<AuditLog, 'append'>
}

/** One import under way: who imports into which org, and what it has learnt so far of the catalog and the statement. */
export interface ImportRun {
  deps: ImportDeps
  orgId: string
  actor: AuditActor
  /** Splits never change once written (the app may only insert them), so they are read once per entry. */
  sharesByEntry: Map<string, Share[]>
  /**
   * Lines are looked up before booking while recent batches met recorded ones (a re-run);
   * otherwise the insert's conflict handling alone sorts them out.
   */
  lookUpRecorded: boolean
}

/**
 * Writes one batch read from the statement: looks up the lines recorded already (a re-run),
 * then books the others in one transaction with the batch's event, booking again with
 * conflicts skipped should one be recorded after all (a concurrent writer, a line twice in
 * the file, or no look-up made).
 */
export async function writeBatch(run: ImportRun, batch: StatementBatch): Promise<BatchOutcome> {
  const present = run.lookUpRecorded ? await recordedLines(run, batch.lines) : new Set<number>()
  const fresh = present.size ? batch.lines.filter((_, index) => !present.has(index)) : batch.lines
  const outcome: BatchOutcome = {
    imported: 0,
    skipped: present.size,
    rejections: batch.rejections,
    skippedLines: present.size ? batch.lines.filter((_, index) => present.has(index)).map(skippedLine) : [],
    batchId: null,
  }
  let recorded: RecordedLines = 'fail'
  for (let attempt = 1; fresh.length > 0; attempt += 1) {
    try {
      const booking = await run.deps.db.tx({ orgId: run.orgId }, (tx) => bookBatch(run, tx, fresh, recorded))
      outcome.imported = booking.imported
      outcome.skipped += booking.skipped
      outcome.rejections = [...outcome.rejections, ...booking.rejections]
      outcome.skippedLines = [...outcome.skippedLines, ...booking.skippedLines]
      outcome.batchId = booking.batchId
      break
    } catch (error) {
      if (recorded === 'fail' && uniqueViolation(error) === STATEMENT_LINE_INDEX) {
        recorded = 'skip'
        continue
      }
      // Another writer holds some of these lines and wants the chain lock: PostgreSQL broke the cycle here.
      if (!isDeadlock(error) || attempt === DEADLOCK_ATTEMPTS) throw error
    }
  }
  if (batch.lines.length) run.lookUpRecorded = outcome.skipped > 0
  return outcome
}

/** The positions of the lines recorded already: one indexed read, outside any transaction. */
function recordedLines(run: ImportRun, lines: readonly StatementLine[]): Promise<Set<number>> {
  const keys = lines.map((line) => ({
    source: line.fields.source,
    statementRef: line.statementRef,
    lineRef: line.lineRef,
  }))
  return run.deps.db.read(run.orgId, (reader) => presentStatementLines(reader, run.orgId, keys))
}

function isDeadlock(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '40P01'
}

/**
 * Books the batch's lines in the transaction, with the batch's event; the unique statement-line
 * index has the last word (`recorded`: fail on a recorded line, or skip it).
 */
async function bookBatch(
  run: ImportRun,
  tx: Tx,
  lines: readonly StatementLine[],
  recorded: RecordedLines,
): Promise<BatchOutcome> {
  const catalog = await recordings(run, tx, [...new Set(lines.map((line) => line.isrc))])
  const batchId = run.deps.ids.next('batch')
  const { entries, rejections } = entriesOf(run, lines, catalog, batchId)
  const rows = entries.map((entry) => entry.row)
  const allocations = entries.map((entry) => entry.allocations)
  const written = await insertStatementLines(tx, rows, allocations, recorded)
  const booked: BatchLine[] = []
  const skippedLines: SkippedLine[] = []
  for (const { row, allocations, line } of entries) {
    if (!written.has(row.id)) skippedLines.push(skippedLine(line))
    else
      booked.push({
        id: row.id,
        currency: row.currency,
        amount: row.amount_micros,
        record: presentRevenue(row, allocations),
      })
  }
  // One chained event for the batch, its data the root of the lines written.
  if (booked.length > 0)
    await run.deps.audit.append(
      tx,
      run.actor,
      'revenue.imported',
      { type: 'revenue_batch', id: batchId },
      batchEventData(batchId, booked),
    )
  return {
    imported: booked.length,
    skipped: entries.length - booked.length,
    rejections,
    skippedLines,
    batchId: booked.length > 0 ? batchId : null,
  }
}

type Recordings = Map<string, { catalogId: string; shares: Share[] }>

/** The active entry and splits of each ISRC, read in the batch's transaction (an entry may be superseded meanwhile). */
async function recordings(run: ImportRun, tx: Tx, isrcs: readonly string[]): Promise<Recordings> {
  const { orgId, sharesByEntry } = run
  const entryIds = await activeEntryIds(tx, orgId, isrcs)
  const unknown = [...new Set(entryIds.values())].filter((id) => !sharesByEntry.has(id))
  if (unknown.length) {
    if (sharesByEntry.size + unknown.length > SHARES_KEPT) sharesByEntry.clear()
    for (const [id, shares] of await sharesOf(tx, orgId, unknown)) sharesByEntry.set(id, shares)
  }
  const byIsrc: Recordings = new Map()
  for (const [isrc, catalogId] of entryIds) {
    const shares = sharesByEntry.get(catalogId)
    if (shares?.length) byIsrc.set(isrc, { catalogId, shares })
  }
  return byIsrc
}

interface BatchEntry {
  row: RevenueRow
  allocations: AllocationRow[]
  /** The statement line it records. */
  line: StatementLine
}

/** Each line's entry and allocations, allocated like POST /api/revenue; a line naming no active entry is rejected. */
function entriesOf(
  run: ImportRun,
  lines: readonly StatementLine[],
  catalog: Recordings,
  batchId: string,
): { entries: BatchEntry[]; rejections: Rejection[] } {
  const { orgId } = run
  const createdAt = run.deps.clock.now()
  const entries: BatchEntry[] = []
  const rejections: Rejection[] = []
  for (const line of lines) {
    const recording = catalog.get(line.isrc)
    if (recording === undefined) {
      rejections.push({
        line: line.line,
        reason: `isrc ${line.isrc} does not name an active catalog entry of this org`,
      })
      continue
    }
    const { fields } = line
    const id = run.deps.ids.next('revenue')
    const row: RevenueRow = {
      org_id: orgId,
      id,
      catalog_id: recording.catalogId,
      event_id: null,
      source: fields.source,
      type: fields.type,
      period_start: fields.periodStart,
      period_end: fields.periodEnd,
      territory: fields.territory,
      units: fields.units,
      amount_micros: fields.amount,
      currency: fields.currency,
      statement_ref: line.statementRef,
      line_ref: line.lineRef,
      reverses: null,
      batch_id: batchId,
      created_at: createdAt,
      created_by: run.actor.actor.userId,
    }
    // Shares come ordered by creator, so the parts do too (as the API orders them).
    const allocations = allocate(fields.amount, recording.shares).map((part) => ({
      org_id: orgId,
      revenue_id: id,
      creator_id: part.creatorId,
      currency: fields.currency,
      amount_micros: part.amount,
    }))
    entries.push({ row, allocations, line })
  }
  return { entries, rejections }
}
