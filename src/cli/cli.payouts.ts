import type { Command } from 'commander'
import { command, openServices, progressLine } from './cli.common.js'

interface RunOptions {
  org: string
  currency?: string
  through?: string
}

/** Runs the org's payouts, with a progress line on a terminal and the failures on stderr. */
async function runOrgPayouts(options: RunOptions): Promise<void> {
  const [{ services, close }, { runPayouts }] = await Promise.all([
    openServices(),
    import('../modules/payouts/index.js'),
  ])
  try {
    const report = await runPayouts(services.db, services.payouts, {
      orgId: options.org,
      ...(options.currency ? { currency: options.currency.toUpperCase() } : {}),
      ...(options.through ? { through: options.through } : {}),
      onProgress: (r) => progressLine(`${r.creators} creators: created ${r.created}`),
    })
    progressLine('')
    for (const failure of report.failures) process.stderr.write(`${failure.creatorId}: ${failure.reason}\n`)
    // A page that could not be paid set-based was paid creator by creator: slower, same result, worth knowing.
    if (report.pagesOneByOne > 0)
      process.stderr.write(
        `${report.pagesOneByOne} page(s) paid one creator at a time: ${report.pageErrors.join('; ')}\n`,
      )
    process.stdout.write(
      `created ${report.created} payouts for ${report.creators} creators, skipped ${report.nothingToPay} (nothing to pay), ${report.belowMinimum} (below minimum), failed ${report.failed}\n`,
    )
    if (report.failed > 0) process.exitCode = 1
  } finally {
    await close()
  }
}

/** `oeuvre payouts run`. */
export function registerPayoutCommands(program: Command): void {
  program
    .command('payouts')
    .description('payout tools')
    .command('run')
    .description('create a payout for every creator of the org with something to pay')
    .requiredOption('--org <orgId>', 'the org')
    .option('--currency <code>', 'pay this currency (default: each creator’s payout currency)')
    .option('--through <date>', 'include revenue whose period ends on or before this date (YYYY-MM-DD)')
    .action((options: RunOptions) => command(() => runOrgPayouts(options)))
}
