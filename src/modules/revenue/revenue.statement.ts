import type { Readable } from 'node:stream'
import Papa from 'papaparse'
import { AppError } from '../../platform/errors.js'
import { compileValidator, validationError } from '../../platform/validation.js'
import { normaliseIsrc, requireIdentifier } from '../../shared/records/records.identifiers.js'
import type { LineFields } from './revenue.rules.js'
import { CreateRevenueBody } from './revenue.schemas.js'
import { lineFields } from './revenue.rules.js'

/** The columns a DSP statement must have (`type` is optional, default stream; `source` optional, see statementLineParser). */
export const STATEMENT_COLUMNS = [
  'isrc',
  'territory',
  'period_start',
  'period_end',
  'units',
  'amount',
  'currency',
  'statement_ref',
  'line_ref',
] as const

/** A line longer than this is a quote left open (which would otherwise swallow the rest of the file). */
const MAX_LINE_CHARS = 1 << 20

/** A statement line that passed the API's rules, before its catalog entry is looked up. */
export interface StatementLine {
  /** Its line number in the file (the header is line 1). */
  line: number
  isrc: string
  fields: LineFields
  statementRef: string
  lineRef: string
}

export interface Rejection {
  line: number
  reason: string
}

/** Up to `size` consecutive records of a statement, validated (the first batch's header takes one of them). */
export interface StatementBatch {
  lines: StatementLine[]
  rejections: Rejection[]
  /** Records read in this batch (valid and rejected). */
  records: number
  /** Bytes of the file read so far. */
  bytes: number
}

interface CsvBatch {
  rows: string[][]
  lineNumbers: number[]
  bytes: number
}

function newlinesIn(row: readonly string[]): number {
  let count = 0
  for (const field of row) {
    for (let at = field.indexOf('\n'); at !== -1; at = field.indexOf('\n', at + 1)) count += 1
  }
  return count
}

/** Why the text cannot be read on from `line`: a broken quote, or a line longer than any real one. */
function unreadableAt(line: number, broken: string | undefined, pending: number): AppError | null {
  if (broken !== undefined)
    return new AppError(
      'parameter_invalid',
      `line ${line}: malformed CSV (${broken}); the statement was read up to there`,
    )
  if (pending > MAX_LINE_CHARS)
    return new AppError(
      'parameter_invalid',
      `line ${line}: longer than ${MAX_LINE_CHARS} characters (a quote left open?); the statement was read up to there`,
    )
  return null
}

/**
 * A CSV text's rows, about `size` at a time, with their line numbers. papaparse (fast
 * path without quotes) is fed by the stream, which is paused while a batch is consumed,
 * so memory holds about one batch whatever the statement's size. A broken quote ends the
 * reading with an error naming its line: what follows it cannot be trusted.
 */
async function* csvBatches(input: Readable, size: number): AsyncGenerator<CsvBatch> {
  input.setEncoding('utf8')
  let read = 0
  const current: CsvBatch = { rows: [], lineNumbers: [], bytes: 0 }
  let nextLine = 1
  let streamed = 0
  let done = false
  let failure: unknown = null
  let wake: (() => void) | null = null
  const signal = () => {
    wake?.()
    wake = null
  }
  const fail = (error: unknown) => {
    failure ??= error
    done = true
  }
  input.on('data', (chunk: string) => {
    streamed += chunk.length
    read += Buffer.byteLength(chunk)
  })
  Papa.parse<string[]>(input, {
    delimiter: ',',
    header: false,
    skipEmptyLines: false,
    chunk(results, parser) {
      const broken = results.errors[0]
      const usable = broken?.row === undefined ? results.data.length : broken.row
      for (let index = 0; index < usable; index += 1) {
        const row = results.data[index]
        if (row === undefined) continue
        current.rows.push(row)
        current.lineNumbers.push(nextLine)
        nextLine += 1 + newlinesIn(row)
      }
      current.bytes = read
      const unreadable = unreadableAt(nextLine, broken?.message, streamed - results.meta.cursor)
      if (unreadable) {
        fail(unreadable)
        parser.abort()
      }
      if (current.rows.length >= size) input.pause()
      signal()
    },
    complete() {
      done = true
      signal()
    },
    error(error) {
      fail(error)
      signal()
    },
  })
  try {
    for (;;) {
      while (current.rows.length < size && !done) await new Promise<void>((resolve) => (wake = resolve))
      if (current.rows.length > 0) {
        // At most `size` rows at a time (a chunk of the text can hold more): a batch is one transaction and one event.
        yield {
          rows: current.rows.splice(0, size),
          lineNumbers: current.lineNumbers.splice(0, size),
          bytes: current.bytes,
        }
        if (!done && current.rows.length < size) input.resume()
        continue
      }
      if (failure !== null) throw failure
      return
    }
  } finally {
    input.destroy()
  }
}

const validateBody = compileValidator(CreateRevenueBody, 'body')
const WHOLE_NUMBER = /^-?\d{1,13}$/

/**
 * Turns a statement's rows into validated lines, given the header's column positions. Where
 * the money comes from is part of each line's identity (a re-run skips lines already recorded
 * from that source), so it is never guessed: the statement names it in a `source` column, or
 * the caller does (`source`), not both.
 */
export function statementLineParser(
  header: readonly string[],
  source: string | undefined,
): (row: readonly string[], line: number) => StatementLine {
  const names = header.map((name) => name.trim().toLowerCase())
  const missing = STATEMENT_COLUMNS.filter((name) => !names.includes(name))
  if (missing.length) throw new AppError('parameter_invalid', `the statement has no ${missing.join(', ')} column(s)`)
  const at = (name: string) => names.indexOf(name)
  const sourceColumn = at('source')
  if (sourceColumn !== -1 && source !== undefined)
    throw new AppError('parameter_invalid', 'the statement names its source in a source column: give no other source', {
      param: 'source',
    })
  if (sourceColumn === -1 && source === undefined)
    throw new AppError(
      'parameter_missing',
      'name where the money comes from (the source, e.g. Spotify), or give the statement a source column: it is part of each line’s identity, so a re-run skips what is recorded',
      { param: 'source' },
    )
  const columns = {
    isrc: at('isrc'),
    type: at('type'),
    territory: at('territory'),
    periodStart: at('period_start'),
    periodEnd: at('period_end'),
    units: at('units'),
    amount: at('amount'),
    currency: at('currency'),
    statementRef: at('statement_ref'),
    lineRef: at('line_ref'),
  }
  const required = (row: readonly string[], index: number, name: string): string => {
    const value = row[index]?.trim() ?? ''
    if (value === '') throw new AppError('parameter_missing', `${name} is empty`, { param: name })
    if (value.includes('\0')) throw new AppError('parameter_invalid', `${name} holds a NUL character`, { param: name })
    return value
  }
  return (row, line) => {
    const units = required(row, columns.units, 'units')
    if (!WHOLE_NUMBER.test(units))
      throw new AppError('parameter_invalid', `units "${units}" is not a whole number`, { param: 'units' })
    const body = {
      isrc: required(row, columns.isrc, 'isrc'),
      source: source ?? required(row, sourceColumn, 'source'),
      type: (columns.type === -1 ? '' : (row[columns.type]?.trim() ?? '')) || 'stream',
      periodStart: required(row, columns.periodStart, 'period_start'),
      periodEnd: required(row, columns.periodEnd, 'period_end'),
      territory: required(row, columns.territory, 'territory').toUpperCase(),
      units: Number(units),
      amount: required(row, columns.amount, 'amount'),
      currency: required(row, columns.currency, 'currency').toUpperCase(),
      statementRef: required(row, columns.statementRef, 'statement_ref'),
      lineRef: required(row, columns.lineRef, 'line_ref'),
    }
    // The same rules as POST /api/revenue: its body schema, then its line rules.
    if (!validateBody(body)) throw validationError(validateBody.errors ?? [], 'line')
    // A body naming its entry by isrc alone: entryReference's rule for it.
    const isrc = requireIdentifier(body.isrc, normaliseIsrc, 'isrc', 'ISRC')
    return {
      line,
      isrc,
      fields: lineFields(body as CreateRevenueBody),
      statementRef: body.statementRef,
      lineRef: body.lineRef,
    }
  }
}

/**
 * A DSP statement as batches of validated lines (rejected lines reported with their line
 * numbers). The text is streamed: reading waits while the consumer works on a batch.
 */
export async function* readStatement(
  input: Readable,
  source: string | undefined,
  size: number,
): AsyncGenerator<StatementBatch> {
  let parseLine: ReturnType<typeof statementLineParser> | null = null
  for await (const csv of csvBatches(input, size)) {
    const batch: StatementBatch = { lines: [], rejections: [], records: 0, bytes: csv.bytes }
    csv.rows.forEach((row, index) => {
      const line = csv.lineNumbers[index] ?? 0
      if (parseLine === null) {
        parseLine = statementLineParser(row, source)
        return
      }
      // An empty line is no record (a trailing newline gives one too).
      if (row.length === 1 && row[0]?.trim() === '') return
      batch.records += 1
      try {
        batch.lines.push(parseLine(row, line))
      } catch (error) {
        if (!(error instanceof AppError)) throw error
        batch.rejections.push({ line, reason: error.message })
      }
    })
    yield batch
  }
  if (parseLine === null)
    throw new AppError('parameter_invalid', `the statement has no header line (${STATEMENT_COLUMNS.join(', ')})`)
}
