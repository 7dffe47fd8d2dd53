import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../../src/config.js'
import { openDatabase } from '../../src/database.js'
import { ENDPOINT_CONCURRENCY } from '../../src/modules/webhooks/index.js'
import { createServices } from '../../src/services.js'
import { ownerWithOrg, post, type Owner } from '../lib/accounts.js'
import { withScenarioDatabase, type ScenarioDatabase } from '../lib/database.js'
import { processCpuMs } from '../lib/proc-cpu.js'
import type { Scenario } from '../lib/scenario.js'
import { runFloorCli } from '../lib/cli.js'
import { benchNodeArgs, Cleanup, startChild, startOeuvre } from '../lib/servers.js'

const DELIVERIES = 10_000
/** The worker's attempts under way at once to one endpoint (webhooks.worker.ts); the floor sends at the same concurrency. */
const CONCURRENCY = ENDPOINT_CONCURRENCY
const EVENTS_PER_TX = 500

/** Appends `count` org events through the audit service in large transactions; the webhooks module's listener queues one delivery each. */
async function generateEvents(env: Record<string, string>, owner: Owner, count: number): Promise<void> {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent', SEED_DEMO: 'false' })
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 })
  try {
    const { audit } = createServices({ config, db })
    const ctx = { orgId: owner.orgId, actor: { userId: owner.userId } }
    for (let done = 0; done < count; done += EVENTS_PER_TX) {
      await db.tx({ orgId: owner.orgId }, async (tx) => {
        for (let i = done; i < Math.min(count, done + EVENTS_PER_TX); i += 1) {
          const id = `crt_bench${String(i).padStart(10, '0')}`
          await audit.append(
            tx,
            ctx,
            'creator.created',
            { type: 'creator', id },
            { id, name: `Creator ${i}`, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' },
          )
        }
      })
    }
  } finally {
    await db.close()
  }
}

/** CPU ms of the scenario database's server processes that started since `since` (the worker's connections). */
async function backendCpuMs(db: ScenarioDatabase, since: Date): Promise<number> {
  const { rows } = await db.owner.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = $1 and backend_start >= $2 and pid <> pg_backend_pid()',
    [db.name, since],
  )
  return rows.reduce((sum, row) => sum + processCpuMs(row.pid), 0)
}

/** Waits until no delivery is pending; returns the span from the first attempt to the last recorded outcome. */
async function awaitDeliveries(
  db: ScenarioDatabase,
  orgId: string,
  timeoutMs: number,
): Promise<{ ms: number; succeeded: number; failed: number }> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { rows } = await db.owner.query<{ pending: string; succeeded: string; failed: string }>(
      `select count(*) filter (where status = 'pending') as pending, count(*) filter (where status = 'succeeded') as succeeded,
              count(*) filter (where status not in ('pending', 'succeeded')) as failed
       from webhook_deliveries where org_id = $1`,
      [orgId],
    )
    const row = rows[0]!
    if (Number(row.pending) === 0) {
      const span = await db.owner.query<{ ms: string }>(
        `select extract(epoch from (select max(finished_at) from webhook_deliveries where org_id = $1)
                                 - (select min(started_at) from webhook_attempts where org_id = $1)) * 1000 as ms`,
        [orgId],
      )
      return { ms: Number(span.rows[0]!.ms), succeeded: Number(row.succeeded), failed: Number(row.failed) }
    }
    if (Date.now() > deadline)
      throw new Error(`webhooks: ${row.pending} deliveries still pending after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Webhook fan-out: the worker delivering queued deliveries to a local receiver, against the webhooks floor delivering copies of them. */
export const webhooksScenario: Scenario = {
  name: 'webhooks',
  description: `${DELIVERIES} webhook deliveries by \`oeuvre worker\` to a local receiver, vs a minimal loop claiming due rows, signing, POSTing at ${CONCURRENCY} concurrent and recording the attempts`,
  async run(context) {
    return withScenarioDatabase(context.databaseUrl, 'webhooks', async (db) => {
      const cleanup = new Cleanup()
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-bench-'))
      cleanup.add(() => rm(dataDir, { recursive: true, force: true }))
      try {
        const env = {
          DATABASE_URL: db.url,
          DATA_DIR: dataDir,
          SECRETS_KEY: randomBytes(32).toString('hex'),
          WEBHOOKS_ALLOW_LOOPBACK: 'true',
        }
        const receiver = await startChild(['bench/floors/receiver.ts'], { ready: /listening on (\S+)/ })
        cleanup.add(receiver.stop)
        const oeuvre = await startOeuvre(db.url, context.redisUrl, env)
        const owner = await ownerWithOrg(oeuvre.ready, 'webhooks')
        await post(
          `${oeuvre.ready}/api/webhooks`,
          { url: `${receiver.ready}/hook`, events: ['creator.created'] },
          { token: owner.token },
        )
        await oeuvre.stop()

        const count = Math.max(100, Math.round(DELIVERIES * context.scale))
        const seeded = Date.now()
        await generateEvents(env, owner, count)
        const payload = await db.owner.query<{ n: string; bytes: string }>(
          'select count(*) as n, round(avg(octet_length(payload))) as bytes from webhook_deliveries where org_id = $1',
          [owner.orgId],
        )
        const bodyBytes = Number(payload.rows[0]!.bytes)
        context.log(
          `queued ${payload.rows[0]!.n} deliveries (${bodyBytes} bytes each) through the audit service in ${Date.now() - seeded} ms`,
        )

        // The floor's own copy of the queued deliveries: the same bodies, due now.
        await db.owner.query(
          `create table floor_deliveries as
             select id, payload, 'pending'::text as status, 0 as attempt_count, now() as next_attempt_at, now() as updated_at,
                    null::timestamptz as finished_at, null::int as last_http_status
             from webhook_deliveries where org_id = $1`,
          [owner.orgId],
        )
        await db.owner.query(`alter table floor_deliveries add primary key (id)`)
        await db.owner.query(
          `create index floor_deliveries_due on floor_deliveries (next_attempt_at) where status = 'pending'`,
        )
        await db.owner.query(
          `create table floor_attempts (delivery_id text not null references floor_deliveries (id), attempt int not null,
             started_at timestamptz not null, status text not null, http_status int, latency_ms int not null, response_body text,
             primary key (delivery_id, attempt))`,
        )
        await db.owner.query('analyze floor_deliveries')
        const counted = async () =>
          (await (await fetch(`${receiver.ready}/count`)).json()) as { received: number; connections: number }
        let receiverCount = await counted()
        let receiverCpu = processCpuMs(receiver.process.pid)
        const floorRun = await runFloorCli(
          'webhook-floor',
          [`${receiver.ready}/hook`, String(CONCURRENCY), randomBytes(32).toString('hex')],
          { DATABASE_URL: db.url },
          { lister: db.owner, database: db.name },
        )
        const floor = JSON.parse(floorRun.stdout.trim().split('\n').pop()!) as {
          ms: number
          delivered: number
          failed: number
          cpuMs: number
        }
        if (floor.failed > 0 || floor.delivered !== count)
          throw new Error(`webhooks floor: ${floor.delivered} delivered, ${floor.failed} failed of ${count}`)
        const receiverFloorCpu = processCpuMs(receiver.process.pid) - receiverCpu
        const floorConnections = (await counted()).connections - receiverCount.connections
        receiverCount = await counted()

        const workerStarted = new Date()
        receiverCpu = processCpuMs(receiver.process.pid)
        const worker = await startChild(['src/main.ts', 'worker'], {
          env: { ...env, LOG_LEVEL: 'warn', REDIS_URL: context.redisUrl ?? '' },
          ready: /(worker running)/,
          // BENCH_NODE_ARGS (e.g. --cpu-prof) applies to the worker as to the servers.
          nodeArgs: benchNodeArgs(),
        })
        cleanup.add(worker.stop)
        // Start-up (module loading) is not part of the sending.
        const workerCpu = processCpuMs(worker.process.pid)
        const done = await awaitDeliveries(db, owner.orgId, 60_000 + count * 50)
        if (done.failed > 0) throw new Error(`webhooks: ${done.failed} deliveries did not succeed:\n${worker.output()}`)
        const cpu = {
          worker: processCpuMs(worker.process.pid) - workerCpu,
          receiver: processCpuMs(receiver.process.pid) - receiverCpu,
          postgres: await backendCpuMs(db, workerStarted),
        }
        const receiverNow = await counted()
        if (receiverNow.received - receiverCount.received < count)
          throw new Error(
            `webhooks: the receiver got ${receiverNow.received - receiverCount.received} of ${count} deliveries`,
          )

        const floorRate = (count * 1000) / floor.ms
        const oeuvreRate = (count * 1000) / done.ms
        const perItemUs = (ms: number, items: number) => Math.round((ms * 1000) / items)
        const floorCpu = floor.cpuMs + floorRun.postgresCpuMs + receiverFloorCpu
        context.log(
          `CPU µs per delivery: floor ${perItemUs(floor.cpuMs, count)} + postgres ${perItemUs(floorRun.postgresCpuMs, count)} + receiver ${perItemUs(receiverFloorCpu, count)}; ` +
            `per delivery: worker ${perItemUs(cpu.worker, count)} + postgres ${perItemUs(cpu.postgres, count)} + receiver ${perItemUs(cpu.receiver, count)}; ` +
            `connections: floor ${floorConnections}, worker ${receiverNow.connections - receiverCount.connections}`,
        )
        return [
          {
            name: 'webhook deliveries/s',
            unit: 'deliveries/s',
            floor: floorRate,
            oeuvre: oeuvreRate,
            ratio: oeuvreRate / floorRate,
            target: 0.6,
            cpuRatio: floorCpu / (cpu.worker + cpu.postgres + cpu.receiver),
            extra: {
              deliveries: count,
              concurrency: CONCURRENCY,
              bodyBytes,
              floorMs: Math.round(floor.ms),
              oeuvreMs: Math.round(done.ms),
              floorSeconds: (floorRun.ms / 1000).toFixed(1),
            },
          },
        ]
      } finally {
        await cleanup.run()
      }
    })
  },
}
