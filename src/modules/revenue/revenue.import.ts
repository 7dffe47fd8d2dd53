import { createReadStream } from 'node:fs'
import path from 'node:path'
import { parse } from 'csv-parse'
import type { Tx } from '../../db/database.js'
import { AppError } from '../../platform/errors.js'
import type { AuditActor } from '../audit/audit.service.js'
import { splitsOf } from '../catalog/catalog.repo.js'
import { allocate } from '../money/allocation.js'
import { normaliseIsrc } from '../records/identifiers.js'
import type { RecordDeps } from '../records/records.mount.js'
import type { AllocationRow, RevenueRow } from './revenue.repo.js'
import type { CreateRevenueBody } from './revenue.schemas.js'
import { lineFields, presentRevenue } from './revenue.service.js'
import type { RevenueType } from './revenue.tables.js'

/** The columns a DSP statement must have (`type` is optional, default stream). */
export const STATEMENT_COLUMNS = ['isrc', 'territory', 'period_start', 'period_end', 'units', 'amount', 'currency', 'statement_ref', 'line_ref'] as const

export interface ImportOptions {
  orgId: string
  file: string
  /** Where the money comes from; default the file's name. Part of each line's re-run key. */
  source?: string
  /** Lines per transaction. */
  batchSize?: number
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
  source: string
  /** The first few rejected lines, with their line numbers in the file. */
  rejections: { line: number; reason: string }[]
}

const REJECTIONS_KEPT = 10
const DEFAULT_BATCH = 2000
const TYPES = new Set<string>(['stream', 'download', 'physical', 'sync', 'performance', 'mechanical', 'other'])
const DATE = /^\d{4}-\d{2}-\d{2}$/
const UNITS = /^-?\d{1,13}$/

interface StatementLine {
  line: number
  isrc: string
  row: Omit<RevenueRow, 'id' | 'catalog_id' | 'created_at' | 'created_by' | 'org_id'>
}

function isDate(text: string): boolean {
  if (!DATE.test(text)) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text
}

function field(record: Record<string, string | undefined>, name: string): string {
  const value = record[name]?.trim() ?? ''
  if (value === '') throw new AppError('parameter_missing', `${name} is empty`, { param: name })
  return value
}

/** One CSV record as a revenue line, validated by the same rules as POST /api/revenue. */
export function parseStatementLine(record: Record<string, string | undefined>, source: string, line: number): StatementLine {
  const rawIsrc = field(record, 'isrc')
  const isrc = normaliseIsrc(rawIsrc)
  if (isrc === null) throw new AppError('parameter_invalid', `isrc "${rawIsrc}" is not a valid ISRC`, { param: 'isrc' })
  const type = record.type?.trim() || 'stream'
  if (!TYPES.has(type)) throw new AppError('parameter_invalid', `type ${type} is not a statement line type`, { param: 'type' })
  for (const name of ['period_start', 'period_end']) {
    if (!isDate(field(record, name))) throw new AppError('parameter_invalid', `${name} must be a date YYYY-MM-DD`, { param: name })
  }
  const units = field(record, 'units')
  if (!UNITS.test(units)) throw new AppError('parameter_invalid', `units "${units}" is not a whole number`, { param: 'units' })
  const statementRef = field(record, 'statement_ref')
  const lineRef = field(record, 'line_ref')
  if (statementRef.length > 200 || lineRef.length > 200) throw new AppError('parameter_invalid', 'statement_ref and line_ref are at most 200 characters')
  const body: CreateRevenueBody = {
    isrc,
    source,
    type: type as RevenueType,
    periodStart: field(record, 'period_start'),
    periodEnd: field(record, 'period_end'),
    territory: field(record, 'territory').toUpperCase(),
    units: Number(units),
    amount: field(record, 'amount'),
    currency: field(record, 'currency').toUpperCase(),
    statementRef,
    lineRef,
  }
  const fields = lineFields(body)
  return {
    line,
    isrc,
    row: {
      event_id: null,
      source: fields.source,
      type: fields.type,
      period_start: fields.periodStart,
      period_end: fields.periodEnd,
      territory: fields.territory,
      units: BigInt(units),
      amount_micros: fields.amount,
      currency: fields.currency,
      statement_ref: statementRef,
      line_ref: lineRef,
      reverses: null,
    },
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/**
 * Streams a DSP statement into revenue entries, one transaction per batch: lines matched
 * to active catalog entries by ISRC, allocated like POST /api/revenue, one `revenue.created`
 * event each. Lines already recorded (source, statement_ref, line_ref) are skipped, so a
 * re-run adds nothing. Memory holds one batch, whatever the file's size.
 */
export async function importStatement(deps: RecordDeps, options: ImportOptions): Promise<ImportReport> {
  const { db, clock, ids, audit } = deps
  const { orgId } = options
  const source = (options.source ?? path.basename(options.file)).trim()
  if (source === '' || source.length > 200) throw new AppError('parameter_invalid', 'source must be 1 to 200 characters', { param: 'source' })
  const org = await db.read(orgId, (reader) => reader.selectFrom('orgs').select('system_user_id').where('org_id', '=', orgId).executeTakeFirst())
  if (!org) throw new AppError('resource_missing', `org ${orgId} does not exist`)
  const actor: AuditActor = { orgId, actor: { userId: org.system_user_id } }
  const report: ImportReport = { source, lines: 0, imported: 0, skipped: 0, rejected: 0, bytes: 0, rejections: [] }
  const reject = (line: number, reason: string) => {
    report.rejected += 1
    if (report.rejections.length < REJECTIONS_KEPT) report.rejections.push({ line, reason })
  }

  async function write(tx: Tx, batch: StatementLine[]): Promise<void> {
    const isrcs = [...new Set(batch.map((line) => line.isrc))]
    const entries = await tx
      .selectFrom('catalog_entries')
      .select(['id', 'isrc'])
      .where('org_id', '=', orgId)
      .where('isrc', 'in', isrcs)
      .where('superseded_by', 'is', null)
      .execute()
    const entryOf = new Map(entries.map((entry) => [entry.isrc, entry.id]))
    const splits = await splitsOf(tx, orgId, entries.map((entry) => entry.id))
    const now = clock.now()
    const rows: RevenueRow[] = []
    const allocationsOf = new Map<string, AllocationRow[]>()
    for (const line of batch) {
      const catalogId = entryOf.get(line.isrc)
      const shares = catalogId === undefined ? undefined : splits.get(catalogId)
      if (catalogId === undefined || !shares?.length) {
        reject(line.line, `isrc ${line.isrc} does not name an active catalog entry of this org`)
        continue
      }
      const id = ids.next('revenue')
      rows.push({ org_id: orgId, id, catalog_id: catalogId, created_at: now, created_by: actor.actor.userId, ...line.row })
      const parts = allocate(line.row.amount_micros, shares.map((split) => ({ creatorId: split.creator_id, shareBps: split.share_bps })))
      parts.sort((a, b) => (a.creatorId < b.creatorId ? -1 : 1))
      allocationsOf.set(id, parts.map((part) => ({ org_id: orgId, revenue_id: id, creator_id: part.creatorId, currency: line.row.currency, amount_micros: part.amount })))
    }
    const inserted = new Set<string>()
    for (const chunk of chunks(rows, 1000)) {
      // The unique statement-line index decides what is already present, even against a concurrent import.
      const returned = await tx.insertInto('revenue_entries').values(chunk).onConflict((oc) => oc.doNothing()).returning('id').execute()
      for (const { id } of returned) inserted.add(id)
    }
    report.skipped += rows.length - inserted.size
    const fresh = rows.filter((row) => inserted.has(row.id))
    const allocations = fresh.flatMap((row) => allocationsOf.get(row.id) ?? [])
    for (const chunk of chunks(allocations, 5000)) await tx.insertInto('revenue_allocations').values(chunk).execute()
    // One chained event per line, appended as a run: one head update, multi-row inserts.
    await audit.appendMany(
      tx,
      actor,
      fresh.map((row) => ({ action: 'revenue.created', resource: { type: 'revenue', id: row.id }, data: presentRevenue(row, allocationsOf.get(row.id) ?? []) })),
    )
    report.imported += fresh.length
  }

  async function flush(batch: StatementLine[]): Promise<void> {
    if (batch.length > 0) await db.tx({ orgId }, (tx) => write(tx, batch))
    options.onProgress?.({ lines: report.lines, imported: report.imported, skipped: report.skipped, rejected: report.rejected, bytes: report.bytes })
  }

  const input = createReadStream(options.file)
  input.on('data', (chunk) => {
    report.bytes += chunk.length
  })
  const parser = input.pipe(
    parse({
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      columns: (header: string[]) => {
        const names = header.map((name) => name.trim().toLowerCase())
        const missing = STATEMENT_COLUMNS.filter((name) => !names.includes(name))
        if (missing.length) throw new AppError('parameter_invalid', `the statement has no ${missing.join(', ')} column(s)`)
        return names
      },
    }),
  )
  const size = options.batchSize ?? DEFAULT_BATCH
  let batch: StatementLine[] = []
  try {
    // Async iteration pulls one record at a time: the file is read only as fast as batches commit.
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string | undefined>; info: { lines: number } }>) {
      report.lines += 1
      try {
        batch.push(parseStatementLine(record, source, info.lines))
      } catch (error) {
        if (!(error instanceof AppError)) throw error
        reject(info.lines, error.message)
      }
      if (batch.length >= size) {
        await flush(batch)
        batch = []
      }
    }
    await flush(batch)
  } finally {
    input.destroy()
  }
  return report
}
