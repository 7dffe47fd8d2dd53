import { unthrottledClientToken, ownerWithOrg } from '../lib/accounts.js'
import { withScenarioDatabase } from '../lib/database.js'
import { seedChainedEvents } from '../lib/events.js'
import { assertClean, loadSeconds, runLoad, throughput } from '../lib/load.js'
import { pgliteWanted } from '../lib/pglite.js'
import type { Scenario } from '../lib/scenario.js'
import { Cleanup, startChild, startOeuvre } from '../lib/servers.js'
import { feedOnPglite } from './feed-pglite.js'

const CONNECTIONS = 20
const EVENTS = 10_000

/** Partners polling the org-event feed: Oeuvre's /v1 route against a bare Fastify route running the same keyset query. */
export const feedScenario: Scenario = {
  name: 'feed',
  description: `GET /v1/orgs/{orgId}/events?limit=50 with an OAuth token at ${CONNECTIONS} connections, vs a bare Fastify + pg route (same query, no auth)`,
  async run(context) {
    const measurements = await withScenarioDatabase(context.databaseUrl, 'feed', async (db) => {
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

        const floor = await startChild(['bench/floors/feed-floor.ts'], { env: { DATABASE_URL: db.url }, ready: /listening on (\S+)/ })
        cleanup.add(floor.stop)
        const seconds = loadSeconds(context.scale)
        const path = `/v1/orgs/${owner.orgId}/events?limit=50`
        // Warm both (JIT, pools, plan caches) before measuring.
        await runLoad({ url: floor.ready + path, connections: CONNECTIONS, durationSeconds: 1 })
        await runLoad({ url: oeuvre.ready + path, connections: CONNECTIONS, durationSeconds: 1, headers: { authorization: `Bearer ${token}` } })
        const floorResult = await runLoad({ url: floor.ready + path, connections: CONNECTIONS, durationSeconds: seconds })
        assertClean('feed floor', floorResult)
        const oeuvreResult = await runLoad({ url: oeuvre.ready + path, connections: CONNECTIONS, durationSeconds: seconds, headers: { authorization: `Bearer ${token}` } })
        assertClean('feed oeuvre', oeuvreResult)
        return [throughput('feed requests/s', floorResult, oeuvreResult, 0.7, { events, connections: CONNECTIONS, seconds })]
      } finally {
        await cleanup.run()
      }
    })
    if (pgliteWanted()) measurements.push(await feedOnPglite(context, CONNECTIONS, EVENTS))
    return measurements
  },
}
