import { raiseClientTier } from '../lib/accounts.js'
import { warmUpSeconds } from '../lib/load.js'
import {
  alternateServed,
  pgliteLoadSeconds,
  seedChainedEventsPglite,
  servedThroughput,
  startOeuvreOnPglite,
  startPgliteFloor,
  startTogether,
  withCopyOf,
  withPgliteOwner,
  withTemplateCopy,
} from '../lib/pglite.js'
import type { Measurement, ScenarioContext } from '../lib/scenario.js'
import { Cleanup } from '../lib/servers.js'

/**
 * The feed on PGlite (Oeuvre's embedded mode): the same request, connections and seed as on
 * PostgreSQL, against a bare Fastify route running the same keyset query on PGlite in-process.
 * The floor runs over a copy of Oeuvre's DATA_DIR, seeded first.
 */
export async function feedOnPglite(
  context: ScenarioContext,
  connections: number,
  fullEvents: number,
): Promise<Measurement> {
  return withTemplateCopy(context, 'feed', async (dataDir, { owner, client }) => {
    const events = Math.max(100, Math.round(fullEvents * context.scale))
    const seeded = Date.now()
    await withPgliteOwner(dataDir, async (db) => {
      await raiseClientTier(db, owner.orgId, client.id)
      await seedChainedEventsPglite(db, owner.orgId, owner.userId, events)
    })
    context.log(`PGlite: seeded ${events} chained events in ${Date.now() - seeded} ms`)
    const seconds = pgliteLoadSeconds(context.scale)
    const path = `/v1/orgs/${owner.orgId}/events?limit=50`
    const { floor, oeuvre, segments } = await withCopyOf(dataDir, 'feed-floor', async (floorDir) => {
      const cleanup = new Cleanup()
      try {
        const [floorServer, oeuvreServer] = await startTogether(
          cleanup,
          startPgliteFloor('bench/floors/feed-floor.ts', floorDir),
          startOeuvreOnPglite(dataDir),
        )
        // Both warmed (JIT, PGlite's caches), then measured in alternation.
        return await alternateServed(
          'feed (PGlite)',
          path,
          warmUpSeconds(context.scale),
          seconds,
          { server: floorServer!, spec: { connections } },
          {
            server: oeuvreServer!,
            spec: { connections, headers: { authorization: `Bearer ${client.token}` } },
          },
        )
      } finally {
        await cleanup.run()
      }
    })
    return servedThroughput('feed requests/s (PGlite)', floor, oeuvre, 0.8, { events, connections, seconds, segments })
  })
}
