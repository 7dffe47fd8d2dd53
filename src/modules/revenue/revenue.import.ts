import type { RevenueDeps } from './revenue.service.js'
import type { Readable } from 'node:stream'
import type { Tx } from '../../database.js'
import { AppError } from '../../platform/errors.js'
import type { AuditActor } from '../audit/index.js'
import { batchEventData, type BatchLine } from '../../shared/merkle/merkle.batch.js'
import { allocate, type Share } from '../../shared/money/money.allocation.js'
import { uniqueViolation } from '../../shared/records/records.mount.js'
import {
  activeEntryIds,
  insertStatementLines,
  presentStatementLines,
  sharesOf,
  type RecordedLines,
} from './revenue.import-repo.js'
import { STATEMENT_LINE_INDEX, type AllocationRow, type RevenueRow } from './revenue.repo.js'
import { presentRevenue } from './revenue.service.js'
import { readStatement, type Rejection, type StatementBatch, type StatementLine } from './revenue.statement.js'

export { STATEMENT_COLUMNS } from './revenue.statement.js'

export interface ImportOptions {
  orgId: string
  /** The statement's CSV text (a file, an upload), read as a stream. */
  input: Readable
  /**
   * Where the money comes from (e.g. Spotify): part of each line's identity, so a re-run skips
   * what is recorded. Required unless the statement has a `source` column (then not given).
   */
  source?: string
  /** Who imports (an upload's user): the entries' creator and the events' actor. Default: the org's system user (the CLI). */
  actorUserId?: string
  /** Lines per transaction, and per batch event. */
  batchSize?: number
  /** Rejected lines listed in the report, the first by line number (default 100); all are counted. */
  rejectionsKept?: number
  /** Skipped lines (recorded already) listed in the report, the first by line number (default 100); all are counted. */
  skippedKept?: number
  /** After each batch: the counts so far. */
  onProgress?(progress: ImportProgress): void
}

export interface ImportProgress {
  lines: number
  imported: number
  skipped: number
  rejected: number
  bytes: number
}

export interface ImportReport extends ImportProgress {
  /** The source the lines were recorded from, when the caller named it (a statement's source column names its own). */
  source: string | null
  /** The first rejected lines (rejectionsKept), with their line numbers in the statement and why. */
  rejections: Rejection[]
  /** The first skipped lines (skippedKept): recorded already, by a run before or earlier in the statement. */
  skippedLines: SkippedLine[]
  /** Each batch written: its id (the lines' batchId, its revenue.imported event's) and its line count. */
  batches: { batchId: string; lineCount: number }[]
}

/** A line not booked because its (source, statement_ref, line_ref) is recorded already. */
export interface SkippedLine {
  line: number
  statementRef: string
  lineRef: string
}

const REJECTIONS_KEPT = 100
const DEFAULT_BATCH = 1000
/** Entries whose splits are kept between batches; past this the cache starts again (a huge catalog). */
const SHARES_KEPT = 100_000
/** Attempts of a batch that PostgreSQL chose as a deadlock's victim (another writer took the same lines). */
const DEADLOCK_ATTEMPTS = 5

/** What one batch did. */
interface BatchOutcome {
  imported: number
  skipped: number
  rejections: Rejection[]
  skippedLines: SkippedLine[]
  batchId: string | null
}

const skippedLine = (line: StatementLine): SkippedLine => ({
  line: line.line,
  statementRef: line.statementRef,
  lineRef: line.lineRef,
})

function isDeadlock(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '40P01'
}

/**
 * Streams a DSP statement into revenue entries, one transaction per batch: lines matched
 * to active catalog entries by ISRC and allocated like POST /api/revenue, and one
 * `revenue.imported` event per batch whose data carries the batch's line count, totals and
 * the Merkle root of its lines (each line names the batch). Lines already recorded (source,
 * statement_ref, line_ref) are skipped, so a re-run adds nothing, whatever the statement's
 * file is called. Memory holds a few batches (one read while others are written), whatever
 * the statement's size. The CLI's `revenue import` runs this; so can an upload.
 */
export async function importStatement(deps: RevenueDeps, options: ImportOptions): Promise<ImportReport> {
  const { db, clock, ids, audit } = deps
  const { orgId } = options
  const source = options.source?.trim()
  if (source !== undefined && (source === '' || source.length > 200))
    throw new AppError('parameter_invalid', 'source must be 1 to 200 characters', { param: 'source' })
  const rejectionsKept = Math.max(0, options.rejectionsKept ?? REJECTIONS_KEPT)
  const skippedKept = Math.max(0, options.skippedKept ?? REJECTIONS_KEPT)
  const org = await db.read(orgId, (reader) =>
    reader.selectFrom('orgs').select('system_user_id').where('org_id', '=', orgId).executeTakeFirst(),
  )
  if (!org) throw new AppError('resource_missing', `org ${orgId} does not exist`)
  const actor: AuditActor = { orgId, actor: { userId: options.actorUserId ?? org.system_user_id } }
  const report: ImportReport = {
    source: source ?? null,
    lines: 0,
    imported: 0,
    skipped: 0,
    rejected: 0,
    bytes: 0,
    rejections: [],
    skippedLines: [],
    batches: [],
  }
  // Splits never change once written (the app may only insert them), so they are read once per entry.
  const sharesByEntry = new Map<string, Share[]>()
  // Lines are looked up before booking while recent batches met recorded ones (a re-run); otherwise
  // the insert's conflict handling alone sorts them out.
  let lookUpRecorded = true

  /** The active entry and splits of each ISRC, read in the batch's transaction (an entry may be superseded meanwhile). */
  async function recordings(
    tx: Tx,
    isrcs: readonly string[],
  ): Promise<Map<string, { catalogId: string; shares: Share[] }>> {
    const entryIds = await activeEntryIds(tx, orgId, isrcs)
    const unknown = [...new Set(entryIds.values())].filter((id) => !sharesByEntry.has(id))
    if (unknown.length) {
      if (sharesByEntry.size + unknown.length > SHARES_KEPT) sharesByEntry.clear()
      for (const [id, shares] of await sharesOf(tx, orgId, unknown)) sharesByEntry.set(id, shares)
    }
    const byIsrc = new Map<string, { catalogId: string; shares: Share[] }>()
    for (const [isrc, catalogId] of entryIds) {
      const shares = sharesByEntry.get(catalogId)
      if (shares?.length) byIsrc.set(isrc, { catalogId, shares })
    }
    return byIsrc
  }

  /**
   * Books the batch's new lines in one transaction, with the batch's event; the unique
   * statement-line index has the last word.
   */
  async function book(tx: Tx, lines: readonly StatementLine[], recorded: RecordedLines): Promise<BatchOutcome> {
    const catalog = await recordings(tx, [...new Set(lines.map((line) => line.isrc))])
    const createdAt = clock.now()
    const batchId = ids.next('batch')
    const rejections: Rejection[] = []
    const rows: RevenueRow[] = []
    /** The statement line of each row. */
    const rowLines: StatementLine[] = []
    const allocations: AllocationRow[][] = []
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
      const id = ids.next('revenue')
      rowLines.push(line)
      rows.push({
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
        created_by: actor.actor.userId,
      })
      // Shares come ordered by creator, so the parts do too (as the API orders them).
      allocations.push(
        allocate(fields.amount, recording.shares).map((part) => ({
          org_id: orgId,
          revenue_id: id,
          creator_id: part.creatorId,
          currency: fields.currency,
          amount_micros: part.amount,
        })),
      )
    }
    const written = await insertStatementLines(tx, rows, allocations, recorded)
    const booked: BatchLine[] = []
    const skippedLines: SkippedLine[] = []
    for (let index = 0; index < rows.length; index += 1) {
      const row = rows[index]
      if (row === undefined) continue
      if (!written.has(row.id)) {
        const line = rowLines[index]
        if (line !== undefined) skippedLines.push(skippedLine(line))
        continue
      }
      booked.push({
        id: row.id,
        currency: row.currency,
        amount: row.amount_micros,
        record: presentRevenue(row, allocations[index] ?? []),
      })
    }
    // One chained event for the batch, its data the root of the lines written.
    if (booked.length > 0)
      await audit.append(
        tx,
        actor,
        'revenue.imported',
        { type: 'revenue_batch', id: batchId },
        batchEventData(batchId, booked),
      )
    return {
      imported: booked.length,
      skipped: rows.length - booked.length,
      rejections,
      skippedLines,
      batchId: booked.length > 0 ? batchId : null,
    }
  }

  async function write(batch: StatementBatch): Promise<BatchOutcome> {
    // A re-run finds its lines already recorded with one indexed read, outside any transaction.
    const present = lookUpRecorded
      ? await db.read(orgId, (reader) =>
          presentStatementLines(
            reader,
            orgId,
            batch.lines.map((line) => ({
              source: line.fields.source,
              statementRef: line.statementRef,
              lineRef: line.lineRef,
            })),
          ),
        )
      : new Set<number>()
    const fresh = present.size ? batch.lines.filter((_, index) => !present.has(index)) : batch.lines
    const outcome: BatchOutcome = {
      imported: 0,
      skipped: present.size,
      rejections: batch.rejections,
      skippedLines: present.size ? batch.lines.filter((_, index) => present.has(index)).map(skippedLine) : [],
      batchId: null,
    }
    // Lines not found recorded are inserted plainly; should one be recorded after all (a
    // concurrent writer, a line twice in the file, or no look-up made), the batch is booked
    // again with the conflicts skipped.
    let recorded: RecordedLines = 'fail'
    for (let attempt = 1; fresh.length > 0; attempt += 1) {
      try {
        const booking = await db.tx({ orgId }, (tx) => book(tx, fresh, recorded))
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
    if (batch.lines.length) lookUpRecorded = outcome.skipped > 0
    return outcome
  }

  // Batches written, by their place in the statement (two may be written at once and finish in either order).
  const written: ({ batchId: string; lineCount: number } | null)[] = []
  const count = (batch: StatementBatch, place: number, outcome: BatchOutcome) => {
    report.lines += batch.records
    report.bytes = Math.max(report.bytes, batch.bytes)
    report.imported += outcome.imported
    report.skipped += outcome.skipped
    report.rejected += outcome.rejections.length
    report.rejections = [...report.rejections, ...outcome.rejections]
      .sort((a, b) => a.line - b.line)
      .slice(0, rejectionsKept)
    if (outcome.skippedLines.length > 0)
      report.skippedLines = [...report.skippedLines, ...outcome.skippedLines]
        .sort((a, b) => a.line - b.line)
        .slice(0, skippedKept)
    written[place] = outcome.batchId === null ? null : { batchId: outcome.batchId, lineCount: outcome.imported }
    options.onProgress?.({
      lines: report.lines,
      imported: report.imported,
      skipped: report.skipped,
      rejected: report.rejected,
      bytes: report.bytes,
    })
  }

  // The next batch is read and validated while earlier ones are written; on PostgreSQL two are
  // written at once (one's rows computed while the server inserts the other's), PGlite has one connection.
  const writers = db.kind === 'pg' ? 2 : 1
  const writing: Promise<void>[] = []
  try {
    for await (const batch of readStatement(options.input, source, options.batchSize ?? DEFAULT_BATCH)) {
      if (writing.length >= writers) await writing.shift()
      const place = written.push(null) - 1
      const counted = write(batch).then((outcome) => count(batch, place, outcome))
      // A failure surfaces at its await (ending the reading), not as an unhandled rejection.
      counted.catch(() => undefined)
      writing.push(counted)
    }
    for (const counted of writing) await counted
  } finally {
    // Never leave a batch writing behind a failure: the caller closes the database next.
    await Promise.allSettled(writing)
  }
  report.batches = written.filter((batch) => batch !== null)
  return report
}
