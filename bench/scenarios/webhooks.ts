import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { loadConfig } from '../../src/config.js'
import { openDatabase } from '../../src/db/database.js'
import { createServices } from '../../src/services.js'
import { ownerWithOrg, post, type Owner } from '../lib/accounts.js'
import { withScenarioDatabase, type ScenarioDatabase } from '../lib/database.js'
import type { Scenario } from '../lib/scenario.js'
import { Cleanup, ROOT, startChild, startOeuvre } from '../lib/servers.js'

const DELIVERIES = 10_000
/** The delivery job's batch size: deliveries sent at once (webhooks.worker.ts). */
const CONCURRENCY = 8
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
          await audit.append(tx, ctx, 'creator.created', { type: 'creator', id }, { id, name: `Creator ${i}`, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' })
        }
      })
    }
  } finally {
    await db.close()
  }
}

/** Waits until no delivery is pending; returns the span from the first attempt to the last recorded outcome. */
async function awaitDeliveries(db: ScenarioDatabase, orgId: string, timeoutMs: number): Promise<{ ms: number; succeeded: number; failed: number }> {
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
    if (Date.now() > deadline) throw new Error(`webhooks: ${row.pending} deliveries still pending after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Webhook fan-out: the worker delivering queued deliveries to a local receiver, against a bare undici loop sending the same POSTs. */
export const webhooksScenario: Scenario = {
  name: 'webhooks',
  description: `${DELIVERIES} webhook deliveries by \`oeuvre worker\` to a local receiver, vs a bare undici loop of the same POSTs at ${CONCURRENCY} concurrent`,
  async run(context) {
    return withScenarioDatabase(context.databaseUrl, 'webhooks', async (db) => {
      const cleanup = new Cleanup()
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-bench-'))
      cleanup.add(() => rm(dataDir, { recursive: true, force: true }))
      try {
        const env = { DATABASE_URL: db.url, DATA_DIR: dataDir, SECRETS_KEY: randomBytes(32).toString('hex'), WEBHOOKS_ALLOW_LOOPBACK: 'true' }
        const receiver = await startChild(['bench/floors/receiver.ts'], { ready: /listening on (\S+)/ })
        cleanup.add(receiver.stop)
        const oeuvre = await startOeuvre(db.url, context.redisUrl, env)
        const owner = await ownerWithOrg(oeuvre.ready, 'webhooks')
        await post(`${oeuvre.ready}/api/webhooks`, { url: `${receiver.ready}/hook`, events: ['creator.created'] }, { token: owner.token })
        await oeuvre.stop()

        const count = Math.max(100, Math.round(DELIVERIES * context.scale))
        const seeded = Date.now()
        await generateEvents(env, owner, count)
        const payload = await db.owner.query<{ n: string; bytes: string }>(
          'select count(*) as n, round(avg(octet_length(payload))) as bytes from webhook_deliveries where org_id = $1',
          [owner.orgId],
        )
        const bodyBytes = Number(payload.rows[0]!.bytes)
        context.log(`queued ${payload.rows[0]!.n} deliveries (${bodyBytes} bytes each) through the audit service in ${Date.now() - seeded} ms`)

        const floorRun = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/floors/webhook-floor.ts', `${receiver.ready}/hook`, String(count), String(CONCURRENCY), String(bodyBytes)], { cwd: ROOT })
        const floor = JSON.parse(floorRun.stdout.trim().split('\n').pop()!) as { ms: number; failed: number }
        if (floor.failed > 0) throw new Error(`webhooks floor: ${floor.failed} POSTs failed`)

        const worker = await startChild(['src/main.ts', 'worker'], { env: { ...env, LOG_LEVEL: 'warn', REDIS_URL: context.redisUrl ?? '' }, ready: /(worker running)/ })
        cleanup.add(worker.stop)
        const done = await awaitDeliveries(db, owner.orgId, 60_000 + count * 50)
        if (done.failed > 0) throw new Error(`webhooks: ${done.failed} deliveries did not succeed:\n${worker.output()}`)

        const floorRate = (count * 1000) / floor.ms
        const oeuvreRate = (count * 1000) / done.ms
        return [
          {
            name: 'webhook deliveries/s',
            unit: 'deliveries/s',
            floor: floorRate,
            oeuvre: oeuvreRate,
            ratio: oeuvreRate / floorRate,
            target: 0.5,
            extra: { deliveries: count, concurrency: CONCURRENCY, bodyBytes, floorMs: Math.round(floor.ms), oeuvreMs: Math.round(done.ms) },
          },
        ]
      } finally {
        await cleanup.run()
      }
    })
  },
}
