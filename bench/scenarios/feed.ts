import { unthrottledClientToken, ownerWithOrg } from '../lib/accounts.js'
import { withScenarioDatabase } from '../lib/database.js'
import { seedChainedEvents } from '../lib/events.js'
import { alternate, loadSeconds, runLoad, throughput, warmUpSeconds } from '../lib/load.js'
import { pgliteWanted } from '../lib/pglite.js'
import type { Measurement, Scenario } from '../lib/scenario.js'
import { SideCpu } from '../lib/proc-cpu.js'
import { benchNodeArgs, Cleanup, startChild, startOeuvre } from '../lib/servers.js'
import { feedOnPglite } from './feed-pglite.js'

const CONNECTIONS = 20
const EVENTS = 10_000

/** Partners polling the org-event feed: Oeuvre's /v1 route against a bare Fastify route running the same keyset query. */
export const feedScenario: Scenario = {
  name: 'feed',
  description: `GET /v1/orgs/{orgId}/events?limit=50 with an OAuth token at ${CONNECTIONS} connections, vs a bare Fastify + pg route (same query, no auth)`,
  async run(context) {
    const measurements: Measurement[] = await withScenarioDatabase(context.databaseUrl, 'feed', async (db) => {
      const cleanup = new Cleanup()
      try {
        const oeuvre = await startOeuvre(db.url, context.redisUrl)
        cleanup.add(oeuvre.stop)
        const owner = await ownerWithOrg(oeuvre.ready, 'feed')
        const token = await unthrottledClientToken(oeuvre.ready, owner, db.owner, ['events:read'])
        const events = Math.max(100, Math.round(EVENTS * context.scale))
        const seeded = Date.now()
        await seedChainedEvents(db.owner, owner.orgId, owner.userId, events)
        await db.owner.query('analyze org_events')
        context.log(`seeded ${events} chained events in ${Date.now() - seeded} ms`)

        const floor = await startChild(['bench/floors/feed-floor.ts'], {
          nodeArgs: benchNodeArgs(),
          env: { DATABASE_URL: db.url },
          ready: /listening on (\S+)/,
        })
        cleanup.add(floor.stop)
        const seconds = loadSeconds(context.scale)
        const path = `/v1/orgs/${owner.orgId}/events?limit=50`
        // Warm both (JIT, pools, plan caches) before measuring.
        const warmUp = warmUpSeconds(context.scale)
        await runLoad({ url: floor.ready + path, connections: CONNECTIONS, durationSeconds: warmUp })
        await runLoad({
          url: oeuvre.ready + path,
          connections: CONNECTIONS,
          durationSeconds: warmUp,
          headers: { authorization: `Bearer ${token}` },
        })
        // CPU per request of each side: its server and the scenario database's backends.
        const backends = { lister: db.owner, database: db.name }
        const floorCpu = new SideCpu()
        const oeuvreCpu = new SideCpu()
        const {
          floor: floorResult,
          oeuvre: oeuvreResult,
          segments,
        } = await alternate(
          'feed',
          seconds,
          (durationSeconds) =>
            floorCpu.measure(floor.process.pid, backends, () =>
              runLoad({ url: floor.ready + path, connections: CONNECTIONS, durationSeconds }),
            ),
          (durationSeconds) =>
            oeuvreCpu.measure(oeuvre.process.pid, backends, () =>
              runLoad({
                url: oeuvre.ready + path,
                connections: CONNECTIONS,
                durationSeconds,
                headers: { authorization: `Bearer ${token}` },
              }),
            ),
        )
        const perRequest = (side: SideCpu) => side.figures.serverUsPerRequest + side.figures.postgresUsPerRequest
        return [
          {
            ...throughput('feed requests/s', floorResult, oeuvreResult, 0.8, {
              events,
              connections: CONNECTIONS,
              seconds,
              segments,
              floorServerCpuUs: floorCpu.figures.serverUsPerRequest,
              floorPostgresCpuUs: floorCpu.figures.postgresUsPerRequest,
              oeuvreServerCpuUs: oeuvreCpu.figures.serverUsPerRequest,
              oeuvrePostgresCpuUs: oeuvreCpu.figures.postgresUsPerRequest,
            }),
            cpuRatio: perRequest(floorCpu) / perRequest(oeuvreCpu),
          },
        ]
      } finally {
        await cleanup.run()
      }
    })
    if (pgliteWanted()) measurements.push(await feedOnPglite(context, CONNECTIONS, EVENTS))
    return measurements
  },
}
