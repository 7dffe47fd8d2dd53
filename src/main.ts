import type { AddressInfo } from 'node:net'
import net from 'node:net'
import { Command } from 'commander'
import type { Logger } from 'pino'
import { registerAuditCommands } from './cli/cli.audit.js'
import { config } from './cli/cli.common.js'
import { registerOperatorCommands, registerPartnerCommands } from './cli/cli.partners.js'
import { registerPayoutCommands } from './cli/cli.payouts.js'
import { registerRevenueCommands } from './cli/cli.revenue.js'
import { loadConfig, type Config } from './config.js'
import { DataDirectoryInUse, noteServingUrl } from './db/data-dir-lock.js'

// The CLI: running the service (serve, worker, migrate) here, the one-shot commands in src/cli/.
// Each command loads only the modules it uses: a one-shot command (audit verify, a payout run)
// does not pay for the HTTP stack, Redis or every service at start-up.

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
  const { app, services } = await buildApp({ config: cfg, db, clock, limiter, passwords, log, ...keys })
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
  const services = createServices({
    config: cfg,
    db,
    clock: systemClock,
    limiter,
    log,
    ...(await loadServiceKeys(cfg)),
  })
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

registerAuditCommands(program)
registerRevenueCommands(program)
registerPayoutCommands(program)
registerOperatorCommands(program)
registerPartnerCommands(program)

try {
  await program.parseAsync(process.argv)
} catch (error) {
  // Another process holds the embedded database: one line, no stack, exit 1.
  if (!(error instanceof DataDirectoryInUse)) throw error
  process.stderr.write(`error: ${error.message}\n`)
  process.exit(1)
}
