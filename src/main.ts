import { createReadStream } from 'node:fs'
import { BATCH_LINES } from './verify.js'
import { stat } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import os from 'node:os'
import v8 from 'node:v8'
import { Command, InvalidArgumentError } from 'commander'
import type { Logger } from 'pino'
import { ConfigError, loadConfig, type Config } from './config.js'
import { DataDirectoryInUse, noteServingUrl } from './db/data-dir-lock.js'
import type { ChainReport } from './modules/verification/index.js'
import type { ImportProgress } from './modules/revenue/index.js'
import type { Services } from './services.js'

// Each command loads only the modules it uses: a one-shot command (audit verify, a payout run)
// does not pay for the HTTP stack, Redis or every service at start-up.

function config(): Config {
  try {
    return loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
}

/**
 * The last resort, not a remedy: an exception nothing caught leaves its reason in the log, and
 * the process still exits (its state is unknown); failures the service expects are handled where
 * they happen (a dropped database connection, Redis away).
 */
function logCrashes(log: Pick<Logger, 'fatal'>): void {
  process.on('uncaughtException', (error) => {
    log.fatal({ err: error }, 'uncaught exception: exiting')
    process.exit(1)
  })
  process.on('unhandledRejection', (reason) => {
    log.fatal({ err: reason }, 'unhandled promise rejection: exiting')
    process.exit(1)
  })
}

/**
 * PORT=0: the port the system picks, taken before the app is built, so that PUBLIC_URL's default
 * (the printed URL, every problem's `type` link, the discovery document, the web app's origin)
 * names it. The port is free again for the moment between this and the server's own bind.
 */
async function withPickedPort(cfg: Config): Promise<Config> {
  if (cfg.port !== 0) return cfg
  const probe = net.createServer()
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, cfg.host, resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return loadConfig({ ...process.env, PORT: String(port) })
}

async function serve(): Promise<void> {
  const cfg = await withPickedPort(config())
  const [
    { systemClock: clock },
    { openRuntime },
    { createPasswordHasher },
    { loadServiceKeys },
    { createWorker },
    { DEMO_EMAIL, DEMO_PASSWORD, seedDemo },
    { createLogger },
  ] = await Promise.all([
    import('./platform/clock.js'),
    import('./runtime.js'),
    import('./platform/crypto.js'),
    import('./service-keys.js'),
    import('./worker/worker.js'),
    import('./seed.js'),
    import('./platform/logger.js'),
  ])
  const log = createLogger(cfg)
  logCrashes(log)
  const { db, limiter } = await openRuntime(cfg, clock, log)
  const passwords = createPasswordHasher()
  const keys = await loadServiceKeys(cfg)
  const { buildApp } = await import('./app.js')
  const { app, services } = await buildApp({ config: cfg, db, clock, limiter, passwords, ...keys })
  const worker = createWorker(services.jobs, app.log)
  if (cfg.seedDemo) await seedDemo(db, services, passwords)
  await app.listen({ port: cfg.port, host: cfg.host })
  if (cfg.worker === 'inline') worker.start()
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : cfg.port
  const url = cfg.publicUrl.replace(/:\d+$/, `:${port}`)
  // A command refused the embedded data directory points at this server.
  noteServingUrl(url)
  process.stdout.write(`listening on ${url}\n`)
  const demo = await db.global.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirst()
  if (demo)
    process.stdout.write(
      `demo login: ${DEMO_EMAIL} / ${DEMO_PASSWORD}  (the app at ${url}/, API reference at ${url}/docs)\n`,
    )
  const shutdown = async () => {
    await worker.stop()
    await app.close()
    await db.close()
    await limiter.close()
    process.exit(0)
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
}

async function runWorker(options: { once?: boolean }): Promise<void> {
  const cfg = config()
  const [
    { systemClock },
    { openRuntime },
    { createServices },
    { loadServiceKeys },
    { createWorker },
    { createLogger },
  ] = await Promise.all([
    import('./platform/clock.js'),
    import('./runtime.js'),
    import('./services.js'),
    import('./service-keys.js'),
    import('./worker/worker.js'),
    import('./platform/logger.js'),
  ])
  // stdout carries --once's answer: the log goes to stderr.
  const log = createLogger(cfg, 2)
  logCrashes(log)
  const { db, limiter } = await openRuntime(cfg, systemClock, log)
  const services = createServices({ config: cfg, db, clock: systemClock, limiter, ...(await loadServiceKeys(cfg)) })
  const worker = createWorker(services.jobs, log)
  if (options.once) {
    process.stdout.write(`${JSON.stringify(await worker.runOnce())}\n`)
    await db.close()
    await limiter.close()
    return
  }
  worker.start()
  process.stdout.write('worker running\n')
  const shutdown = async () => {
    await worker.stop()
    await db.close()
    await limiter.close()
    process.exit(0)
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
}

const program = new Command('oeuvre').description('Oeuvre: rights catalog and partner integration service')

program.command('serve').description('run the API (and the worker, unless WORKER=off)').action(serve)

program
  .command('worker')
  .description('run the background worker alone')
  .option('--once', 'run every job once and exit')
  .action(runWorker)

program
  .command('migrate')
  .description('apply pending database migrations')
  .action(async () => {
    const cfg = config()
    const [{ openBackend }, { migrate }] = await Promise.all([import('./db/database.js'), import('./db/migrate.js')])
    const backend = await openBackend({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir })
    const applied = await migrate(backend)
    process.stdout.write(applied.length ? `applied ${applied.join(', ')}\n` : 'database is up to date\n')
    await backend.end()
  })

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
      ? (await import('./modules/verification/index.js')).startRangeWalkers(cfg.databaseUrl, threads - 1)
      : undefined
  try {
    const [{ openDatabase }, { loadServiceKeys }, { verifyChainAndSeals }] = await Promise.all([
      import('./database.js'),
      import('./service-keys.js'),
      import('./modules/verification/index.js'),
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
    const uncovered = report.coverage?.uncovered ?? []
    if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`)
    else if (report.ok)
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
    process.exitCode = report.ok ? 0 : 1
  })

/** The services a one-shot command needs (the audit log with its listeners, so webhooks see the events). */
async function openServices(): Promise<{ services: Services; close(): Promise<void> }> {
  const cfg = config()
  const [{ systemClock }, { openRuntime }, { createServices }, { loadServiceKeys }, { createLogger }] =
    await Promise.all([
      import('./platform/clock.js'),
      import('./runtime.js'),
      import('./services.js'),
      import('./service-keys.js'),
      import('./platform/logger.js'),
    ])
  const { db, limiter } = await openRuntime(cfg, systemClock, createLogger(cfg, 2))
  const services = createServices({ config: cfg, db, clock: systemClock, limiter, ...(await loadServiceKeys(cfg)) })
  return {
    services,
    close: async () => {
      await db.close()
      await limiter.close()
    },
  }
}

/** Runs a command, printing an AppError's detail (not a stack) and exiting 1. */
async function command(work: () => Promise<void>): Promise<void> {
  try {
    await work()
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  }
}

const progressLine = (text: string) => {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${text}`)
}

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
  .action((file: string, options: { org: string; source?: string; batch?: number }) =>
    command(async () => {
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
    }),
  )

program
  .command('payouts')
  .description('payout tools')
  .command('run')
  .description('create a payout for every creator of the org with something to pay')
  .requiredOption('--org <orgId>', 'the org')
  .option('--currency <code>', 'pay this currency (default: each creator’s payout currency)')
  .option('--through <date>', 'include revenue whose period ends on or before this date (YYYY-MM-DD)')
  .action((options: { org: string; currency?: string; through?: string }) =>
    command(async () => {
      const [{ services, close }, { runPayouts }] = await Promise.all([
        openServices(),
        import('./modules/payouts/index.js'),
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
    }),
  )

/** An operator's command: the services, the operator named by --operator (an operator's email), and the work. */
async function asOperator(
  email: string,
  work: (services: Services, operator: { userId: string; requestId: string }) => Promise<unknown>,
): Promise<void> {
  const { services, close } = await openServices()
  try {
    const user = await services.db.global
      .selectFrom('users')
      .select('id')
      .where('email', '=', email.trim().toLowerCase())
      .where('kind', '=', 'person')
      .executeTakeFirst()
    if (!user || !(await services.partners.isOperator(user.id)))
      throw new Error(`${email} is not an operator (oeuvre operators add <email>)`)
    const result = await work(services, { userId: user.id, requestId: `cli_${Date.now()}` })
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
  } finally {
    await close()
  }
}

const positiveInt = (value: string) => {
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('a whole number of at least 1')
  return parsed
}

program
  .command('operators')
  .description('Oeuvre staff who review partners')
  .command('add')
  .description('make an existing user an operator (they sign up first: there is no set-password flow yet)')
  .argument('<email>', 'the user’s email')
  .action((email: string) =>
    command(async () => {
      const { services, close } = await openServices()
      try {
        const { userId, added } = await services.partners.addOperator(email)
        process.stdout.write(added ? `${email} (${userId}) is now an operator\n` : `${email} is an operator already\n`)
      } finally {
        await close()
      }
    }),
  )

const partnersCommand = program
  .command('partners')
  .description('review partners (operators); every decision is an org event naming the operator')
const operatorOption = ['--operator <email>', 'the operator acting (their email)'] as const

partnersCommand
  .command('list')
  .description('partners, newest first')
  .requiredOption(...operatorOption)
  .option('--status <status>', 'only partners with this status')
  .option('--limit <n>', 'how many (1..100)', positiveInt)
  .action((options: { operator: string; status?: string; limit?: number }) =>
    command(() =>
      asOperator(options.operator, (services) =>
        services.partners.list({
          limit: options.limit ?? 25,
          ...(options.status ? { status: options.status as never } : {}),
        }),
      ),
    ),
  )

partnersCommand
  .command('show')
  .argument('<partnerId>')
  .description('a partner with its application, agreement evidence, steps and review requests')
  .requiredOption(...operatorOption)
  .action((id: string, options: { operator: string }) =>
    command(() => asOperator(options.operator, (services) => services.partners.show(id))),
  )

partnersCommand
  .command('approve')
  .argument('<partnerId>')
  .description('approve the open review: the partner goes live')
  .requiredOption(...operatorOption)
  .option('--rate-limit <n>', 'platform integrators: requests per minute of their production clients', positiveInt)
  .option('--burst <n>', 'platform integrators: bucket capacity', positiveInt)
  .action((id: string, options: { operator: string; rateLimit?: number; burst?: number }) =>
    command(() =>
      asOperator(options.operator, (services, operator) =>
        services.partners.approve(operator, id, {
          ...(options.rateLimit !== undefined ? { rateLimit: options.rateLimit } : {}),
          ...(options.burst !== undefined ? { burst: options.burst } : {}),
        }),
      ),
    ),
  )

for (const [name, description] of [
  ['request-changes', 'ask the partner for changes'],
  ['reject', 'reject the partner'],
  ['suspend', 'suspend a live partner (its production clients get no more tokens)'],
] as const) {
  partnersCommand
    .command(name)
    .argument('<partnerId>')
    .description(description)
    .requiredOption(...operatorOption)
    .requiredOption('--reason <text>', 'shown to the partner')
    .action((id: string, options: { operator: string; reason: string }) =>
      command(() =>
        asOperator(options.operator, (services, operator) => {
          if (name === 'request-changes') return services.partners.requestChanges(operator, id, options.reason)
          if (name === 'reject') return services.partners.reject(operator, id, options.reason)
          return services.partners.suspend(operator, id, options.reason)
        }),
      ),
    )
}

partnersCommand
  .command('resume')
  .argument('<partnerId>')
  .description('resume a suspended partner')
  .requiredOption(...operatorOption)
  .action((id: string, options: { operator: string }) =>
    command(() => asOperator(options.operator, (services, operator) => services.partners.resume(operator, id))),
  )

try {
  await program.parseAsync(process.argv)
} catch (error) {
  // Another process holds the embedded database: one line, no stack, exit 1.
  if (!(error instanceof DataDirectoryInUse)) throw error
  process.stderr.write(`error: ${error.message}\n`)
  process.exit(1)
}
