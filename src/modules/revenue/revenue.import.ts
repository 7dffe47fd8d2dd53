import type { Readable } from 'node:stream'
import { AppError } from '../../platform/errors.js'
import { writeBatch, type ImportDeps, type ImportRun } from './revenue.import-batch.js'
import { ImportReportBuilder, type ImportProgress, type ImportReport } from './revenue.import-report.js'
import { readStatement } from './revenue.statement.js'

export type { ImportProgress, ImportReport, SkippedLine } from './revenue.import-report.js'

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

const KEPT = 100
const DEFAULT_BATCH = 1000

/**
 * Streams a DSP statement into revenue entries, in named steps: read a batch of lines (parsed and
 * validated, revenue.statement.ts), look up the lines recorded already, book the batch in one
 * transaction with its `revenue.imported` event (revenue.import-batch.ts), merge its outcome into
 * the report (revenue.import-report.ts). Each batch event carries the batch's line count, totals
 * and the Merkle root of its lines; a re-run skips what is recorded, so it adds nothing. Memory
 * holds a few batches, whatever the statement's size. Reached through the revenue service.
 */
export async function importStatement(deps: ImportDeps, options: ImportOptions): Promise<ImportReport> {
  const source = options.source?.trim()
  if (source !== undefined && (source === '' || source.length > 200))
    throw new AppError('parameter_invalid', 'source must be 1 to 200 characters', { param: 'source' })
  const run = await startRun(deps, options)
  const report = new ImportReportBuilder(source ?? null, {
    rejections: Math.max(0, options.rejectionsKept ?? KEPT),
    skipped: Math.max(0, options.skippedKept ?? KEPT),
  })
  // The next batch is read and validated while earlier ones are written; on PostgreSQL two are
  // written at once (one's rows computed while the server inserts the other's), PGlite has one connection.
  const writers = deps.db.kind === 'pg' ? 2 : 1
  const writing: Promise<void>[] = []
  try {
    for await (const batch of readStatement(options.input, source, options.batchSize ?? DEFAULT_BATCH)) {
      if (writing.length >= writers) await writing.shift()
      const place = report.place()
      const merged = writeBatch(run, batch).then((outcome) => {
        const progress = report.merge(batch, place, outcome)
        options.onProgress?.(progress)
      })
      // A failure surfaces at its await (ending the reading), not as an unhandled rejection.
      merged.catch(() => undefined)
      writing.push(merged)
    }
    for (const merged of writing) await merged
  } finally {
    // Never leave a batch writing behind a failure: the caller closes the database next.
    await Promise.allSettled(writing)
  }
  return report.finish()
}

/** The run's org and actor: the importing user, or the org's system user (the CLI). */
async function startRun(deps: ImportDeps, options: ImportOptions): Promise<ImportRun> {
  const { orgId } = options
  const org = await deps.db.read(orgId, (reader) =>
    reader.selectFrom('orgs').select('system_user_id').where('org_id', '=', orgId).executeTakeFirst(),
  )
  if (!org) throw new AppError('resource_missing', `org ${orgId} does not exist`)
  const actor = { orgId, actor: { userId: options.actorUserId ?? org.system_user_id } }
  return { deps, orgId, actor, sharesByEntry: new Map(), lookUpRecorded: true }
}
