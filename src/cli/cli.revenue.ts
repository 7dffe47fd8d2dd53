import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import v8 from 'node:v8'
import type { Command } from 'commander'
import type { ImportProgress } from '../modules/revenue/index.js'
import { command, openServices, progressLine } from './cli.common.js'

interface ImportOptions {
  org: string
  source?: string
  batch?: number
}

/** Imports one statement file, with a progress line on a terminal and the rejections on stderr. */
async function importFile(file: string, options: ImportOptions): Promise<void> {
  // The import's live heap stays at a few batches, but it allocates gigabytes on the way: V8's
  // default growth lets the old space reach several times the live size before collecting.
  // Growing it by half keeps the peak resident set within budget (256 MB) for a few % CPU.
  v8.setFlagsFromString('--heap-growing-percent=50')
  const { services, close } = await openServices()
  const started = Date.now()
  const size = (await stat(file).catch(() => null))?.size ?? 0
  const onProgress = (p: ImportProgress) =>
    progressLine(
      `${size ? `${Math.floor((100 * p.bytes) / size)}% ` : ''}${p.lines} lines (${(p.bytes / 2 ** 20).toFixed(1)} MiB, ${Math.round(p.lines / Math.max(0.001, (Date.now() - started) / 1000))}/s): imported ${p.imported}, skipped ${p.skipped}, rejected ${p.rejected}`,
    )
  try {
    const report = await services.revenue.importStatement({
      orgId: options.org,
      input: createReadStream(file),
      rejectionsKept: 10,
      onProgress,
      ...(options.source ? { source: options.source } : {}),
      ...(options.batch ? { batchSize: options.batch } : {}),
    })
    progressLine('')
    for (const rejection of report.rejections) process.stderr.write(`line ${rejection.line}: ${rejection.reason}\n`)
    if (report.rejected > report.rejections.length)
      process.stderr.write(`(and ${report.rejected - report.rejections.length} more rejected lines)\n`)
    process.stdout.write(
      `imported ${report.imported}, skipped ${report.skipped} (already present), rejected ${report.rejected}\n`,
    )
  } finally {
    await close()
  }
}

/** `oeuvre revenue import`. */
export function registerRevenueCommands(program: Command): void {
  program
    .command('revenue')
    .description('revenue tools')
    .command('import')
    .description(
      'import a DSP statement (CSV: isrc, territory, period_start, period_end, units, amount, currency, statement_ref, line_ref, optional type and source); re-runnable',
    )
    .argument('<file>', 'the statement CSV')
    .requiredOption('--org <orgId>', 'the org the revenue is booked to')
    .option(
      '--source <name>',
      'where the money comes from, e.g. Spotify (required unless the statement has a source column); part of each line’s identity',
    )
    .option('--batch <lines>', 'lines per transaction', (value) => Number.parseInt(value, 10))
    .action((file: string, options: ImportOptions) => command(() => importFile(file, options)))
}
