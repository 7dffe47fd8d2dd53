import { memberSessions, ownerWithOrg, revenueFixture } from '../lib/accounts.js'
import { withScenarioDatabase } from '../lib/database.js'
import { alternate, loadSeconds, runLoad, throughput, warmUpSeconds } from '../lib/load.js'
import { pgliteWanted } from '../lib/pglite.js'
import type { Measurement, Scenario } from '../lib/scenario.js'
import { SideCpu } from '../lib/proc-cpu.js'
import { SERVER_NODE_FLAGS } from '../../src/platform/node-flags.js'
import { benchNodeArgs, Cleanup, startChild, startOeuvre } from '../lib/servers.js'
import { createOnPglite } from './create-pglite.js'

const CONNECTIONS = 10

/** A revenue line as a DSP statement would send it; `{{n}}` makes each request's line (and key) unique. */
function revenueBody(catalogId: string): string {
  return JSON.stringify({
    catalogId,
    source: 'Spotify',
    type: 'stream',
    periodStart: '2026-09-01',
    periodEnd: '2026-09-30',
    territory: 'DE',
    units: 1000,
    amount: '10.000001',
    currency: 'EUR',
    statementRef: 'BENCH-2026-09',
    lineRef: '{{n}}',
  })
}

/** Recording revenue through the session API (transaction, allocations, chained org event, outbox, idempotency) against the same writes sent bare. */
export const createScenario: Scenario = {
  name: 'create',
  description: `POST /api/revenue with session tokens and a unique Idempotency-Key at ${CONNECTIONS} connections, vs a bare route writing the entry, allocations, chain head, event and key in one message`,
  async run(context) {
    const measurements: Measurement[] = await withScenarioDatabase(context.databaseUrl, 'create', async (db) => {
      const cleanup = new Cleanup()
      try {
        const oeuvre = await startOeuvre(db.url, context.redisUrl)
        cleanup.add(oeuvre.stop)
        const owner = await ownerWithOrg(oeuvre.ready, 'create')
        const entry = await revenueFixture(oeuvre.ready, owner.token)
        // The floor writes to an org of its own: it keeps that org's chain head in memory.
        const floorOwner = await ownerWithOrg(oeuvre.ready, 'create-floor')
        const floorEntry = await revenueFixture(oeuvre.ready, floorOwner.token)
        // Sessions taken in turn, three per connection: the session tier (600/min, burst 1,200) is
        // per user, and ten users' bursts would run out within the warm-up and the two segments
        // at about 1,200 creates/s (a faster machine's rate), failing the run with 429s.
        const tokens = await memberSessions(db.owner, owner.orgId, CONNECTIONS * 3)

        const floor = await startChild(['bench/floors/create-floor.ts'], {
          env: { DATABASE_URL: db.url },
          ready: /listening on (\S+)/,
          // The same node flags as Oeuvre's server (its young generation's size among them).
          nodeArgs: [...SERVER_NODE_FLAGS, ...benchNodeArgs()],
        })
        cleanup.add(floor.stop)
        const seconds = loadSeconds(context.scale)
        const load = (url: string, durationSeconds: number, withTokens: boolean) =>
          runLoad({
            url: `${url}/api/revenue`,
            method: 'POST',
            connections: CONNECTIONS,
            durationSeconds,
            headers: { 'content-type': 'application/json', 'idempotency-key': 'bench-{{n}}' },
            body: revenueBody(withTokens ? entry.id : floorEntry.id),
            ...(withTokens ? { tokens } : {}),
          })
        const warmUp = warmUpSeconds(context.scale)
        await load(floor.ready, warmUp, false)
        await load(oeuvre.ready, warmUp, true)
        // Statistics, as a database that has run for a minute has them (autovacuum analyses a table
        // once it has grown). A new database has none, and PostgreSQL then plans the allocations'
        // foreign-key check on an index that leads with org_id only, reading every entry of the org.
        await db.owner.query('analyze')
        // CPU per request of each side: its server and the scenario database's backends (both
        // servers' connections; the idle side's use next to nothing), and how busy the machine was.
        const backends = { lister: db.owner, database: db.name }
        const floorCpu = new SideCpu()
        const oeuvreCpu = new SideCpu()
        const {
          floor: floorResult,
          oeuvre: oeuvreResult,
          segments,
        } = await alternate(
          'create',
          seconds,
          (durationSeconds) =>
            floorCpu.measure(floor.process.pid, backends, () => load(floor.ready, durationSeconds, false)),
          (durationSeconds) =>
            oeuvreCpu.measure(oeuvre.process.pid, backends, () => load(oeuvre.ready, durationSeconds, true)),
        )
        const written = await db.owner.query<{ n: string }>(
          `select count(*) as n from revenue_entries where org_id = $1`,
          [owner.orgId],
        )
        const cpu = { floor: floorCpu.figures, oeuvre: oeuvreCpu.figures }
        const perRequest = (side: typeof cpu.floor) => side.serverUsPerRequest + side.postgresUsPerRequest
        return [
          {
            ...throughput('create requests/s', floorResult, oeuvreResult, 0.7, {
              connections: CONNECTIONS,
              seconds,
              segments,
              revenueEntries: Number(written.rows[0]!.n),
              floorServerCpuUs: cpu.floor.serverUsPerRequest,
              floorPostgresCpuUs: cpu.floor.postgresUsPerRequest,
              oeuvreServerCpuUs: cpu.oeuvre.serverUsPerRequest,
              oeuvrePostgresCpuUs: cpu.oeuvre.postgresUsPerRequest,
              floorMachineBusy: cpu.floor.machineBusy.toFixed(2),
              oeuvreMachineBusy: cpu.oeuvre.machineBusy.toFixed(2),
            }),
            cpuRatio: perRequest(cpu.floor) / perRequest(cpu.oeuvre),
          },
        ]
      } finally {
        await cleanup.run()
      }
    })
    if (pgliteWanted()) measurements.push(await createOnPglite(context, CONNECTIONS, revenueBody))
    return measurements
  },
}
