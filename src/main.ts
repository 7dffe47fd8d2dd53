import { Command } from 'commander'
import { buildApp } from './app.js'
import { ConfigError, loadConfig, type Config } from './config.js'
import { openBackend } from './db/database.js'
import { migrate } from './db/migrate.js'
import { systemClock } from './platform/clock.js'
import { createPasswordHasher } from './platform/crypto.js'
import { verifyChainAndSeals } from './modules/audit/audit.verify.js'
import { openRuntime } from './runtime.js'
import { createServices, loadServiceKeys } from './services.js'
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from './seed.js'
import { createWorker } from './worker/worker.js'

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

async function serve(): Promise<void> {
  const cfg = config()
  const clock = systemClock
  const { db, limiter } = await openRuntime(cfg, clock)
  const passwords = createPasswordHasher()
  const keys = await loadServiceKeys(cfg)
  const { app, services } = await buildApp({ config: cfg, db, clock, limiter, passwords, ...keys })
  const worker = createWorker(services.jobs, app.log)
  if (cfg.seedDemo) await seedDemo(db, services, passwords)
  await app.listen({ port: cfg.port, host: cfg.host })
  if (cfg.worker === 'inline') worker.start()
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : cfg.port
  const url = cfg.publicUrl.replace(/:\d+$/, `:${port}`)
  process.stdout.write(`listening on ${url}\n`)
  const demo = await db.global.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirst()
  if (demo) process.stdout.write(`demo login: ${DEMO_EMAIL} / ${DEMO_PASSWORD}  (POST ${url}/api/auth/login, API reference at ${url}/docs)\n`)
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
  const { db, limiter } = await openRuntime(cfg, systemClock)
  const log = { error: (obj: unknown, msg?: string) => process.stderr.write(`${msg ?? 'error'} ${JSON.stringify(obj)}\n`) }
  const services = createServices({ config: cfg, db, clock: systemClock, limiter, ...(await loadServiceKeys(cfg)) })
  const worker = createWorker(services.jobs, log as never)
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
    const backend = await openBackend({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir })
    const applied = await migrate(backend)
    process.stdout.write(applied.length ? `applied ${applied.join(', ')}\n` : 'database is up to date\n')
    await backend.end()
  })

const audit = program.command('audit').description('audit log tools')
audit
  .command('verify')
  .description("walk an org's hash chain and report the first broken link")
  .requiredOption('--org <orgId>', 'the org to verify')
  .option('--json', 'print the report as JSON')
  .action(async (options: { org: string; json?: boolean }) => {
    const cfg = config()
    const { db, limiter } = await openRuntime(cfg, systemClock)
    const { evidenceSigner } = await loadServiceKeys(cfg)
    const report = await verifyChainAndSeals(db, options.org, [evidenceSigner])
    await db.close()
    await limiter.close()
    if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`)
    else if (report.ok) process.stdout.write(`ok: ${report.events} events and ${report.seals?.seals ?? 0} seals of ${report.orgId} verify\n`)
    else process.stdout.write(`BROKEN at sequence ${report.broken?.sequence}${report.broken?.eventId ? ` (${report.broken.eventId})` : ''}: ${report.broken?.reason}\n`)
    process.exitCode = report.ok ? 0 : 1
  })

await program.parseAsync(process.argv)
