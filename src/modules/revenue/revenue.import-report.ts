import type { Rejection, StatementBatch, StatementLine } from './revenue.statement.js'

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

export const skippedLine = (line: StatementLine): SkippedLine => ({
  line: line.line,
  statementRef: line.statementRef,
  lineRef: line.lineRef,
})

/** What one batch did. */
export interface BatchOutcome {
  imported: number
  skipped: number
  rejections: Rejection[]
  skippedLines: SkippedLine[]
  batchId: string | null
}

/**
 * The report as batches finish, in whatever order: counts add up, the first rejected and
 * skipped lines are kept by line number, and the batches are listed in statement order.
 */
export class ImportReportBuilder {
  private readonly report: ImportReport
  /** Batches written, by their place in the statement (two may be written at once and finish in either order). */
  private readonly written: ({ batchId: string; lineCount: number } | null)[] = []

  constructor(
    source: string | null,
    private readonly kept: { rejections: number; skipped: number },
  ) {
    this.report = {
      source,
      lines: 0,
      imported: 0,
      skipped: 0,
      rejected: 0,
      bytes: 0,
      rejections: [],
      skippedLines: [],
      batches: [],
    }
  }

  /** A place for the next batch read from the statement. */
  place(): number {
    return this.written.push(null) - 1
  }

  /** Merges a batch's outcome; the progress so far. */
  merge(batch: StatementBatch, place: number, outcome: BatchOutcome): ImportProgress {
    const report = this.report
    report.lines += batch.records
    report.bytes = Math.max(report.bytes, batch.bytes)
    report.imported += outcome.imported
    report.skipped += outcome.skipped
    report.rejected += outcome.rejections.length
    report.rejections = firstByLine([...report.rejections, ...outcome.rejections], this.kept.rejections)
    if (outcome.skippedLines.length > 0)
      report.skippedLines = firstByLine([...report.skippedLines, ...outcome.skippedLines], this.kept.skipped)
    this.written[place] = outcome.batchId === null ? null : { batchId: outcome.batchId, lineCount: outcome.imported }
    const { lines, imported, skipped, rejected, bytes } = report
    return { lines, imported, skipped, rejected, bytes }
  }

  finish(): ImportReport {
    return { ...this.report, batches: this.written.filter((batch) => batch !== null) }
  }
}

const firstByLine = <T extends { line: number }>(lines: T[], kept: number): T[] =>
  lines.sort((a, b) => a.line - b.line).slice(0, kept)
