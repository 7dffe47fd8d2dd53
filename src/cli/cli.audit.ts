import os from 'node:os'
import { InvalidArgumentError, type Command } from 'commander'
import type { Config } from '../config.js'
import type { ChainReport } from '../modules/verification/index.js'
import { BATCH_LINES } from '../verify.js'
import { config } from './cli.common.js'

/** Threads `audit verify` uses at most by default: past a few, the server's reads are the bound. */
const MAX_VERIFY_THREADS = 4

/**
 * One range per core: each range keeps a thread here and a PostgreSQL backend busy, but the
 * thread's checking is the larger part, so on two cores a second range still gains (by 3-10%
 * on the two guests measured, never less than one; docs/decisions-operations.md, Performance).
 */
const defaultVerifyThreads = () => Math.max(1, Math.min(MAX_VERIFY_THREADS, os.availableParallelism()))

function threadCount(value: string): number {
  const threads = Number(value)
  if (!Number.isInteger(threads) || threads < 1 || threads > 64)
    throw new InvalidArgumentError('a whole number from 1 to 64')
  return threads
}

/** The org's chain, seals, batches and records; on PostgreSQL, `threads` walk a long chain in ranges. */
async function verifyOrg(cfg: Config, orgId: string, threads: number, sinceSeal: boolean): Promise<ChainReport> {
  // The other threads start first: they load their modules and connect while this one does.
  const walkers =
    cfg.databaseUrl && threads > 1
      ? (await import('../modules/verification/index.js')).startRangeWalkers(cfg.databaseUrl, threads - 1)
      : undefined
  try {
    const [{ openDatabase }, { loadServiceKeys }, { verifyChainAndSeals }] = await Promise.all([
      import('../database.js'),
      import('../service-keys.js'),
      import('../modules/verification/index.js'),
    ])
    const db = await openDatabase({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir })
    try {
      const { evidenceSigner } = await loadServiceKeys(cfg)
      return await verifyChainAndSeals(db, orgId, [evidenceSigner], {
        sinceSeal,
        ...(cfg.databaseUrl ? { parallel: { databaseUrl: cfg.databaseUrl, threads, walkers } } : {}),
        batchLines: BATCH_LINES,
      })
    } finally {
      await db.close()
    }
  } finally {
    await walkers?.close()
  }
}

/** The report as one line of text: ok, the records no event covers, or where the chain breaks. */
function printReport(report: ChainReport): void {
  const uncovered = report.coverage?.uncovered ?? []
  if (report.ok)
    process.stdout.write(
      `ok: ${report.events} events, ${report.seals?.seals ?? 0} seals and ${report.batches?.batches ?? 0} batches of ${report.orgId} verify${report.since ? ` (from seal ${report.since.sealId}, events after ${report.since.treeSize})` : ''}; every record is covered\n`,
    )
  else if (uncovered.length > 0)
    process.stdout.write(
      `NOT COVERED: ${uncovered.length} record(s) without an event:\n${uncovered.map((record) => `  ${record.table} ${record.id}: ${record.reason}\n`).join('')}`,
    )
  else
    process.stdout.write(
      `BROKEN at sequence ${report.broken?.sequence}${report.broken?.eventId ? ` (${report.broken.eventId})` : ''}: ${report.broken?.reason}\n`,
    )
}

/** `oeuvre audit verify`. */
export function registerAuditCommands(program: Command): void {
  const audit = program.command('audit').description('audit log tools')
  audit
    .command('verify')
    .description(
      "walk an org's hash chain, check its seals, its batch events' roots and that every record is covered by an event; report the first failure",
    )
    .requiredOption('--org <orgId>', 'the org to verify')
    .option('--json', 'print the report as JSON')
    .option(
      '--since-seal',
      'check only what was appended after the last seal a verify recorded (the whole chain when there is none)',
    )
    .option(
      '--threads <n>',
      `threads that walk a long chain on PostgreSQL (default: one per core, at most ${MAX_VERIFY_THREADS})`,
      threadCount,
    )
    .action(async (options: { org: string; json?: boolean; threads?: number; sinceSeal?: boolean }) => {
      const report = await verifyOrg(
        config(),
        options.org,
        options.threads ?? defaultVerifyThreads(),
        options.sinceSeal === true,
      )
      if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`)
      else printReport(report)
      process.exitCode = report.ok ? 0 : 1
    })
}
