import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { loadConfig } from '../../src/config.js'
import { openDatabase } from '../../src/database.js'
import type { RequestContext } from '../../src/platform/context.js'
import { createServices } from '../../src/services.js'
import { ownerWithOrg, post, type Owner } from '../lib/accounts.js'
import { withScenarioDatabase, type ScenarioDatabase } from '../lib/database.js'
import type { Scenario } from '../lib/scenario.js'
import { Cleanup, startChild, startOeuvre } from '../lib/servers.js'

/**
 * The webhooks scenario's hanging-receiver variant: healthy orgs' deliveries (event to
 * recorded success) while one other org's receiver accepts connections and never answers,
 * against the same stream without it. Each phase lasts longer than an attempt's timeout
 * (15 s), so the hanging attempts time out and the endpoint's circuit opens within it.
 */
const PHASE_MS = 20_000
const HEALTHY_ORGS = 4
/** Events per second in each org at full scale (each one delivery per endpoint). */
const EVENTS_PER_SECOND = 20

/** A receiver that accepts connections, reads what comes and never answers. */
async function startHangingReceiver(): Promise<{ url: string; stop(): Promise<void> }> {
  const sockets = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('data', () => undefined)
    socket.on('error', () => undefined)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

interface Latencies {
  count: number
  p50: number
  p95: number
  max: number
}

function summarise(ms: number[]): Latencies {
  const sorted = [...ms].sort((a, b) => a - b)
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0)
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), max: Math.round(sorted.at(-1) ?? 0) }
}

/** Event to recorded success, in ms, of the deliveries to `endpoints` created in [from, to); waits for them to finish. */
async function deliveryLatencies(db: ScenarioDatabase, endpoints: string[], from: Date, to: Date): Promise<number[]> {
  const deadline = Date.now() + 120_000
  for (;;) {
    const { rows } = await db.owner.query<{ pending: string }>(
      `select count(*) as pending from webhook_deliveries
       where endpoint_id = any($1) and created_at >= $2 and created_at < $3 and status = 'pending'`,
      [endpoints, from, to],
    )
    if (Number(rows[0]!.pending) === 0) break
    if (Date.now() > deadline) throw new Error(`webhooks-hanging: ${rows[0]!.pending} healthy deliveries still pending`)
    await sleep(200)
  }
  const { rows } = await db.owner.query<{ ms: string; status: string }>(
    `select extract(epoch from finished_at - created_at) * 1000 as ms, status from webhook_deliveries
     where endpoint_id = any($1) and created_at >= $2 and created_at < $3`,
    [endpoints, from, to],
  )
  const failed = rows.filter((row) => row.status !== 'succeeded').length
  if (failed > 0) throw new Error(`webhooks-hanging: ${failed} healthy deliveries did not succeed`)
  return rows.map((row) => Number(row.ms))
}

export const webhooksHangingScenario: Scenario = {
  name: 'webhooks-hanging',
  description: `healthy orgs' webhook latency (event to delivered) with and without one org's receiver that never answers, ${PHASE_MS / 1000} s each, \`oeuvre worker\``,
  async run(context) {
    return withScenarioDatabase(context.databaseUrl, 'webhooks_hanging', async (db) => {
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
        const hanging = await startHangingReceiver()
        cleanup.add(hanging.stop)

        // Orgs and endpoints over the API: the healthy orgs', and the other org's healthy and hanging ones (disabled at first).
        const oeuvre = await startOeuvre(db.url, context.redisUrl, env)
        const subscribe = (owner: Owner, url: string) =>
          post<{ id: string }>(
            `${oeuvre.ready}/api/webhooks`,
            { url, events: ['creator.created'] },
            { token: owner.token },
          )
        const healthy: Owner[] = []
        const healthyEndpoints: string[] = []
        for (let i = 0; i < HEALTHY_ORGS; i += 1) {
          const owner = await ownerWithOrg(oeuvre.ready, `healthy${i}`)
          healthy.push(owner)
          healthyEndpoints.push((await subscribe(owner, `${receiver.ready}/hook/${i}`)).id)
        }
        const stuck = await ownerWithOrg(oeuvre.ready, 'stuck')
        const sameOrgEndpoint = (await subscribe(stuck, `${receiver.ready}/hook/same`)).id
        const hangingEndpoint = (await subscribe(stuck, hanging.url)).id
        await post(`${oeuvre.ready}/api/webhooks/${hangingEndpoint}/disable`, {}, { token: stuck.token, status: 200 })
        await oeuvre.stop()

        const worker = await startChild(['src/main.ts', 'worker'], {
          env: { ...env, LOG_LEVEL: 'warn', REDIS_URL: context.redisUrl ?? '' },
          ready: /(worker running)/,
        })
        cleanup.add(worker.stop)

        // The events, appended as the API would (one transaction each), at a steady rate in every org.
        const config = loadConfig({ ...env, LOG_LEVEL: 'silent', SEED_DEMO: 'false' })
        const app = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 4 })
        cleanup.add(() => app.close())
        const { audit, webhooks } = createServices({ config, db: app })
        const perSecond = Math.max(2, Math.round(EVENTS_PER_SECOND * context.scale))
        let sequence = 0
        const stream = async (): Promise<{ from: Date; to: Date }> => {
          const from = new Date()
          const started = Date.now()
          for (let tick = 0; Date.now() - started < PHASE_MS; tick += 1) {
            await Promise.all(
              [...healthy, stuck].map((owner) =>
                app.tx({ orgId: owner.orgId }, async (tx) => {
                  const id = `crt_hang${String((sequence += 1)).padStart(10, '0')}`
                  await audit.append(
                    tx,
                    { orgId: owner.orgId, actor: { userId: owner.userId } },
                    'creator.created',
                    { type: 'creator', id },
                    { id, name: `Creator ${sequence}`, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' },
                  )
                }),
              ),
            )
            const next = started + ((tick + 1) * 1000) / perSecond
            await sleep(Math.max(0, next - Date.now()))
          }
          return { from, to: new Date() }
        }
        const measure = async (): Promise<{ healthy: Latencies; sameOrg: Latencies; hangingAttempts: number }> => {
          const { from, to } = await stream()
          // Attempts still under way are not recorded yet: these are the ones that timed out.
          const attempts = await db.owner.query<{ n: string }>(
            'select count(*) as n from webhook_attempts where endpoint_id = $1 and started_at >= $2',
            [hangingEndpoint, from],
          )
          return {
            healthy: summarise(await deliveryLatencies(db, healthyEndpoints, from, to)),
            sameOrg: summarise(await deliveryLatencies(db, [sameOrgEndpoint], from, to)),
            hangingAttempts: Number(attempts.rows[0]!.n),
          }
        }

        const without = await measure()
        context.log(
          `without: healthy orgs p50 ${without.healthy.p50} ms, p95 ${without.healthy.p95} ms, max ${without.healthy.max} ms (${without.healthy.count} deliveries); same org p95 ${without.sameOrg.p95} ms`,
        )
        const stuckCtx: RequestContext = {
          orgId: stuck.orgId,
          requestId: 'req_bench',
          actor: { userId: stuck.userId, kind: 'person', role: 'owner' },
        }
        await webhooks.enable(stuckCtx, hangingEndpoint)
        const beside = await measure()
        const circuit = await db.owner.query<{ opened: number | null }>(
          'select opened from webhook_circuits where endpoint_id = $1',
          [hangingEndpoint],
        )
        context.log(
          `beside the hanging receiver: healthy orgs p50 ${beside.healthy.p50} ms, p95 ${beside.healthy.p95} ms, max ${beside.healthy.max} ms (${beside.healthy.count} deliveries); same org p95 ${beside.sameOrg.p95} ms; ${beside.hangingAttempts} attempts to the hanging receiver timed out, its circuit opened ${circuit.rows[0]?.opened ?? 0} time(s)`,
        )
        return [
          {
            name: 'healthy orgs’ webhook latency p95, without / beside a hanging receiver',
            unit: 'ms',
            floor: without.healthy.p95,
            oeuvre: beside.healthy.p95,
            ratio: without.healthy.p95 / Math.max(1, beside.healthy.p95),
            // Unchanged, within the noise of a one-second poll.
            target: 0.8,
            extra: {
              eventsPerSecondPerOrg: perSecond,
              withoutP50: without.healthy.p50,
              withoutMax: without.healthy.max,
              besideP50: beside.healthy.p50,
              besideMax: beside.healthy.max,
              sameOrgWithoutP95: without.sameOrg.p95,
              sameOrgBesideP95: beside.sameOrg.p95,
              hangingAttemptsTimedOut: beside.hangingAttempts,
            },
          },
        ]
      } finally {
        await cleanup.run()
      }
    })
  },
}
