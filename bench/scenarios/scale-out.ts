import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { memberSessions, ownerWithOrg, post, type Owner } from '../lib/accounts.js'
import { Checks } from '../lib/checks.js'
import { runOeuvreCli } from '../lib/cli.js'
import { withScenarioDatabase, type ScenarioDatabase } from '../lib/database.js'
import { analyseDeliveries } from '../lib/delivery-overlaps.js'
import type { ReceivedRequest } from '../lib/delivery-receiver.js'
import { loadSeconds } from '../lib/load.js'
import { runSpreadLoad } from '../lib/load-spread.js'
import { answeredByStatus, answeredSince, formatStatuses } from '../lib/node-metrics.js'
import {
  measureWrites,
  WRITE_CONNECTIONS,
  WRITE_ROUTE,
  type WriteSide,
  type WriteTarget,
} from '../lib/scale-out-writes.js'
import type { Scenario, ScenarioContext } from '../lib/scenario.js'
import { Cleanup, startChild, startOeuvre, type Child } from '../lib/servers.js'

/** Members whose sessions the write load takes in turn, per connection. */
const MEMBERS_PER_CONNECTION = 4

/** The receiver holds each delivery this long: a real receiver's work, and a window in which a concurrent duplicate shows. */
const HOLD_MS = 20
const RATE_CONNECTIONS = 4
const FEED_ROUTE = '/v1/orgs/:orgId/events'

/** Everything the drill started: two API nodes, two workers, the receiver, and the org they all serve. */
interface Deployment extends WriteTarget {
  receiver: Child
  owner: Owner
  client: { id: string; token: string; perMinute: number; burst: number }
  env: Record<string, string>
}

/** Starts children side by side; every one that started is stopped at cleanup, even when another failed. */
async function startTogether(cleanup: Cleanup, starts: Promise<Child>[]): Promise<Child[]> {
  const settled = await Promise.allSettled(starts)
  for (const result of settled) if (result.status === 'fulfilled') cleanup.add(result.value.stop)
  const failed = settled.find((result) => result.status === 'rejected')
  if (failed) throw failed.reason
  return settled.map((result) => (result as PromiseFulfilledResult<Child>).value)
}

async function deploy(
  context: ScenarioContext,
  db: ScenarioDatabase,
  redisUrl: string,
  dataDir: string,
  cleanup: Cleanup,
): Promise<Deployment> {
  // One SECRETS_KEY for every node: a worker must open the signing secret another node sealed (README, SECRETS_KEY).
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    DATA_DIR: dataDir,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    SEAL_EVERY_EVENTS: '500',
  }
  const [receiver] = await startTogether(cleanup, [
    startChild(['bench/lib/delivery-receiver.ts', String(HOLD_MS)], { ready: /listening on (\S+)/ }),
  ])
  const started = await startTogether(cleanup, [
    startOeuvre(db.url, redisUrl, env),
    startOeuvre(db.url, redisUrl, env),
    ...['A', 'B'].map(() =>
      startChild(['src/main.ts', 'worker'], { env: { ...env, LOG_LEVEL: 'warn' }, ready: /(worker running)/ }),
    ),
  ])
  const [nodeA, nodeB, workerA, workerB] = started as [Child, Child, Child, Child]
  // Before any delivery exists, so the receiver can tell every connection's worker process.
  const named = await fetch(`${receiver!.ready}/workers`, {
    method: 'POST',
    body: JSON.stringify({ A: workerA.process.pid, B: workerB.process.pid }),
  })
  if (named.status !== 204) throw new Error(`receiver /workers: ${named.status}`)
  context.log(
    `nodes ${nodeA.ready} and ${nodeB.ready}, workers pid ${workerA.process.pid} (A) and ${workerB.process.pid} (B), receiver ${receiver!.ready} (holds ${HOLD_MS} ms)`,
  )

  // The org's setup goes through both nodes, as a load balancer would spread it.
  const owner = await ownerWithOrg(nodeA.ready, 'scaleout')
  const creators: string[] = []
  for (const [i, node] of [nodeA, nodeB, nodeA].entries()) {
    const creator = await post<{ id: string }>(
      `${node.ready}/api/creators`,
      { name: `Creator ${i}`, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' },
      { token: owner.token },
    )
    creators.push(creator.id)
  }
  const entry = await post<{ id: string }>(
    `${nodeB.ready}/api/catalog`,
    {
      kind: 'work',
      title: 'Drill Song',
      splits: creators.map((creatorId, i) => ({ creatorId, role: 'composer', shareBps: i === 2 ? 3334 : 3333 })),
    },
    { token: owner.token },
  )
  await post(
    `${nodeB.ready}/api/webhooks`,
    { url: `${receiver!.ready}/hook`, events: ['revenue.created'] },
    { token: owner.token },
  )
  // A sandbox client keeps its tier as the API grants it: 60/min, burst 120.
  const created = await post<{ id: string; secret: string; rateLimit: { perMinute: number; burst: number } }>(
    `${nodeA.ready}/api/clients`,
    { name: 'Drill partner', scopes: ['events:read'] },
    { token: owner.token },
  )
  const grant = await post<{ access_token: string }>(
    `${nodeB.ready}/oauth/token`,
    { grant_type: 'client_credentials', client_id: created.id, client_secret: created.secret, scope: 'events:read' },
    { form: true, status: 200 },
  )
  // Four finance members per connection, taken in turn by request: the session tier (600/min,
  // burst 1,200) is per user, and one member per connection writing 55-60 times a second
  // through both phases (about 24 s of load) ran out of its bucket once creates got faster.
  // The drill measures writes; the rate limit is checked by the probe, on its own client.
  const memberTokens = await memberSessions(db.owner, owner.orgId, WRITE_CONNECTIONS * MEMBERS_PER_CONNECTION)
  return {
    orgId: owner.orgId,
    nodes: [nodeA, nodeB],
    workers: [workerA, workerB],
    receiver: receiver!,
    owner,
    catalogId: entry.id,
    memberTokens,
    client: { id: created.id, token: grant.access_token, ...created.rateLimit },
    env,
  }
}

/** A side's figures and where its CPU went, for the log. */
const round2 = (value: number) => Math.round(value * 100) / 100

function describe(side: WriteSide): string {
  const cpu = side.cpuPerWriteMs
  return (
    `${side.perSecond.toFixed(1)}/s (${side.ok} in ${side.seconds.toFixed(1)} s, p99 ${side.p99Ms} ms); CPU per write: API nodes ${cpu.nodes.toFixed(2)} ms, workers ${cpu.workers.toFixed(2)} ms, the database's postgres backends ${cpu.postgres.toFixed(2)} ms; machine ${(side.machineBusy * 100).toFixed(0)}% busy; ` +
    `backends running a statement ${side.backends.active.toFixed(1)} on average, ${side.backends.lockWaiting.toFixed(1)} of them waiting for a lock`
  )
}

async function countRows<T extends Record<string, string | null>>(
  db: ScenarioDatabase,
  sql: string,
  orgId: string,
): Promise<T[]> {
  return (await db.owner.query<T>(sql, [orgId])).rows
}

/** Two API nodes and two workers on one PostgreSQL and one Redis, under load, checked for what scale-out must never break. */
export const scaleOutScenario: Scenario = {
  name: 'scale-out',
  description: `two \`oeuvre serve\` + two \`oeuvre worker\` on one PostgreSQL and one Redis: POST ${WRITE_ROUTE} at ${WRITE_CONNECTIONS} connections through both nodes vs through one (the floor), with sequence, chain, delivery and global rate-limit checks`,
  async run(context) {
    const redisUrl = context.redisUrl
    if (!redisUrl)
      throw new Error(
        'scale-out needs REDIS_URL (e.g. redis://127.0.0.1:6379): rate-limit buckets are shared between nodes only through Redis',
      )
    return withScenarioDatabase(context.databaseUrl, 'scaleout', async (db) => {
      const cleanup = new Cleanup()
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-bench-'))
      cleanup.add(() => rm(dataDir, { recursive: true, force: true }))
      const checks = new Checks(context.log)
      const began = Date.now()
      const at = () => `${((Date.now() - began) / 1000).toFixed(1)} s`
      try {
        const d = await deploy(context, db, redisUrl, dataDir, cleanup)
        context.log(`deployed and set up at ${at()}`)
        const orgId = d.owner.orgId
        const setup = await countRows<{ n: string }>(
          db,
          'select count(*) as n from org_events where org_id = $1',
          orgId,
        )
        const setupEvents = Number(setup[0]!.n)

        const seconds = loadSeconds(context.scale)
        const w = await measureWrites(d, db, seconds)
        // The workers seal (an org event) on their own schedule: stopped, the log holds still while it is counted and verified.
        await Promise.all(d.workers.map((worker) => worker.stop()))
        const {
          one,
          two,
          runs,
          split: [splitA, splitB],
          lagMs,
          phases,
        } = w
        context.log(
          `phases in order (2xx/s, 201s by node): ${phases.map((p) => `${p.through} ${p.perSecond.toFixed(0)}/s (A ${p.answered[0]}, B ${p.answered[1]})`).join(', ')}`,
        )
        context.log(`[${at()}] writes through one node: ${describe(one)}`)
        context.log(
          `[${at()}] writes through two nodes: ${describe(two)}; A answered ${formatStatuses(splitA)} and B ${formatStatuses(splitB)} in the two-node phases; deliveries drained ${lagMs} ms after the last load`,
        )
        checks.check(
          'load through both nodes',
          (splitA[201] ?? 0) > 0 && (splitB[201] ?? 0) > 0,
          `two-node phases answered 201 on A ${splitA[201] ?? 0} times and on B ${splitB[201] ?? 0} times`,
        )
        const written = runs.reduce((sum, run) => sum + run.ok2xx, 0)
        const refused = runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0)
        checks.check(
          'every write answered 2xx',
          refused === 0,
          `${written} answered 2xx, ${refused} non-2xx or errors over ${runs.length} runs`,
        )

        // Sequence and chain: 1..N with no gap or repeat, verified by the CLI, and one event per answered write.
        const seq = await countRows<{
          n: string
          lo: string | null
          hi: string | null
          distinct: string
          head: string | null
        }>(
          db,
          `select count(*) as n, min(sequence) as lo, max(sequence) as hi, count(distinct sequence) as distinct,
                  (select sequence from org_event_heads where org_id = $1) as head
           from org_events where org_id = $1`,
          orgId,
        )
        const { n, lo, hi, distinct, head } = seq[0]!
        const events = Number(n)
        checks.check(
          'no sequence gap',
          lo === '1' && Number(hi) === events && Number(distinct) === events && Number(head) === events,
          `${events} events, sequences ${lo}..${hi}, ${distinct} distinct, chain head at ${head}`,
        )
        const actions = await countRows<{ action: string; n: string }>(
          db,
          `select action, count(*) as n from org_events where org_id = $1 and sequence > ${setupEvents} group by action order by action`,
          orgId,
        )
        const byAction = Object.fromEntries(actions.map((row) => [row.action, Number(row.n)]))
        const seals = byAction['evidence.sealed'] ?? 0
        const entries = Number(
          (await countRows<{ n: string }>(db, 'select count(*) as n from revenue_entries where org_id = $1', orgId))[0]!
            .n,
        )
        const created = byAction['revenue.created'] ?? 0
        // autocannon drops the requests still in flight when its time is up; the server may commit them all the same.
        const unanswered = runs.reduce((sum, run) => sum + Math.max(0, run.sent - run.total), 0)
        const nodeCount = (
          await Promise.all(d.nodes.map((node) => answeredByStatus(node.ready, 'POST', WRITE_ROUTE)))
        ).reduce((sum, counts) => sum + (counts[201] ?? 0), 0)
        checks.check(
          'one event per write',
          created === entries &&
            events === setupEvents + created + seals &&
            Object.keys(byAction).every((a) => a === 'revenue.created' || a === 'evidence.sealed') &&
            written <= created &&
            created <= written + unanswered &&
            nodeCount <= created,
          `${events} events = ${setupEvents} setup + ${created} revenue.created (${entries} revenue entries) + ${seals} evidence.sealed (by the workers); ` +
            `answered 2xx ${written} (nodes' own count of 201 sent: ${nodeCount}), plus ${created - written} committed whose answer the load generator dropped at its stop (at most ${unanswered} were in flight then)`,
        )
        context.log(`[${at()}] oeuvre audit verify (the CLI is built once per bench run)`)
        const verify = await runOeuvreCli(['audit', 'verify', '--org', orgId, '--json'], {
          ...d.env,
          LOG_LEVEL: 'warn',
        })
        const report = JSON.parse(verify.stdout.trim().split('\n').pop() ?? '{}') as {
          ok?: boolean
          events?: number
          seals?: { seals?: number }
          broken?: unknown
        }
        checks.check(
          'oeuvre audit verify ok',
          report.ok === true && report.events === events,
          `ok=${report.ok}, ${report.events} events, ${report.seals?.seals ?? 0} seals verified${report.broken ? `, broken ${JSON.stringify(report.broken)}` : ''}`,
        )

        // Deliveries: all succeeded, every one received, none sent twice at once, both workers sending.
        const states = await countRows<{ status: string; n: string }>(
          db,
          'select status, count(*) as n from webhook_deliveries where org_id = $1 group by status',
          orgId,
        )
        const byState = Object.fromEntries(states.map((row) => [row.status, Number(row.n)]))
        const deliveries = Object.values(byState).reduce((sum, count) => sum + count, 0)
        const attempts = Number(
          (
            await countRows<{ n: string }>(db, 'select count(*) as n from webhook_attempts where org_id = $1', orgId)
          )[0]!.n,
        )
        checks.check(
          'every delivery succeeded',
          deliveries === created && byState.succeeded === deliveries,
          `${deliveries} deliveries for ${created} revenue.created events: ${JSON.stringify(byState)}; ${attempts} attempts recorded`,
        )
        const received = (await (await fetch(`${d.receiver.ready}/report`)).json()) as ReceivedRequest[]
        const dup = analyseDeliveries(received)
        checks.check(
          'every delivery received',
          dup.received === deliveries,
          `${dup.received} distinct delivery ids in ${dup.requests} requests`,
        )
        checks.check(
          'no delivery sent concurrently',
          dup.overlapping === 0,
          `${dup.overlapping} ids with overlapping requests${dup.examples.length ? ` (${dup.examples.join(', ')})` : ''}; ${dup.repeated} ids received more than once (at-least-once allows a later retry)`,
        )
        const split = Object.entries(dup.byWorker)
          .map(([worker, count]) => `${worker} ${count}`)
          .join(', ')
        checks.check(
          'both workers delivered',
          (dup.byWorker.A ?? 0) > 0 && (dup.byWorker.B ?? 0) > 0,
          `requests by worker process (observed through /proc): ${split}`,
        )

        // Rate limits: one sandbox client against both nodes at once; the shared bucket admits at most burst + refill.
        const rateSeconds = Math.max(3, loadSeconds(context.scale, 5))
        const feedBefore = await Promise.all(d.nodes.map((node) => answeredByStatus(node.ready, 'GET', FEED_ROUTE)))
        const probe = await runSpreadLoad({
          urls: d.nodes.map((node) => `${node.ready}/v1/orgs/${orgId}/events?limit=1`),
          connections: RATE_CONNECTIONS,
          durationSeconds: rateSeconds,
          headers: { authorization: `Bearer ${d.client.token}` },
        })
        const feedAfter = await Promise.all(d.nodes.map((node) => answeredByStatus(node.ready, 'GET', FEED_ROUTE)))
        const [feedA, feedB] = feedBefore.map((counts, i) => answeredSince(counts, feedAfter[i]!))
        const windowS = (probe.finishMs - probe.startMs) / 1000
        const refillPerS = d.client.perMinute / 60
        // Each node stamps a take with its own clock read before the Redis round trip; a take stamped earlier that lands
        // later can make the span between them refill twice: at most ~1 s of refill, so one second's worth is the tolerance.
        const tolerance = Math.max(1, Math.ceil(refillPerS))
        const bound = Math.floor(d.client.burst + refillPerS * windowS) + tolerance
        const admitted = probe.statuses[200] ?? 0
        const limited = probe.statuses[429] ?? 0
        context.log(
          `[${at()}] rate probe: ${probe.total} requests in ${windowS.toFixed(2)} s through both nodes (A ${formatStatuses(feedA!)}, B ${formatStatuses(feedB!)}); per-node buckets would have admitted up to ${2 * d.client.burst + Math.ceil(2 * refillPerS * windowS)}`,
        )
        checks.check(
          'rate limit held globally',
          admitted <= bound && admitted >= d.client.burst && probe.total === admitted + limited && probe.errors === 0,
          `admitted ${admitted} over both nodes, bound ${bound} = burst ${d.client.burst} + ${refillPerS}/s x ${windowS.toFixed(2)} s + ${tolerance}; ${limited} answered 429; statuses ${formatStatuses(probe.statuses)}`,
        )
        checks.check(
          '429 once the shared bucket is empty, on both nodes',
          (feedA![429] ?? 0) > 0 && (feedB![429] ?? 0) > 0 && (feedA![200] ?? 0) > 0 && (feedB![200] ?? 0) > 0,
          `A ${formatStatuses(feedA!)}, B ${formatStatuses(feedB!)}`,
        )

        checks.assertAll('scale-out')
        return [
          {
            name: 'writes/s, two API nodes vs one',
            unit: 'req/s',
            floor: one.perSecond,
            oeuvre: two.perSecond,
            ratio: two.perSecond / one.perSecond,
            target: 0.9,
            extra: {
              oneNodeP99Ms: one.p99Ms,
              twoNodeP99Ms: two.p99Ms,
              oneNodeCpuMsPerWrite: round2(one.cpuPerWriteMs.nodes),
              twoNodeCpuMsPerWrite: round2(two.cpuPerWriteMs.nodes),
              writesA: splitA[201] ?? 0,
              writesB: splitB[201] ?? 0,
              events,
              seals,
              deliveries,
              attempts,
              deliveredByA: dup.byWorker.A ?? 0,
              deliveredByB: dup.byWorker.B ?? 0,
              repeated: dup.repeated,
              overlapping: dup.overlapping,
              drainLagMs: lagMs,
              rateAdmitted: admitted,
              rateBound: bound,
              rate429: limited,
              connections: WRITE_CONNECTIONS,
              phaseSeconds: w.phaseSeconds,
            },
            checks: checks.results,
          },
        ]
      } catch (error) {
        if (checks.results.length)
          context.log(
            `checks so far: ${checks.results.map((c) => `${c.passed ? 'PASS' : 'FAIL'} ${c.name}`).join(', ')}`,
          )
        throw error
      } finally {
        await cleanup.run()
      }
    })
  },
}
