import { memberSessions, post } from '../lib/accounts.js'
import { warmUpSeconds } from '../lib/load.js'
import {
  alternateServed,
  pgliteLoadSeconds,
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
 * Revenue create on PGlite (Oeuvre's embedded mode): the same requests, connections and
 * setup as on PostgreSQL (three creators and a work over HTTP, one member session per
 * connection), against a bare Fastify route inserting one row on PGlite in-process, over a
 * copy of Oeuvre's DATA_DIR.
 */
export async function createOnPglite(
  context: ScenarioContext,
  connections: number,
  revenueBody: (catalogId: string) => string,
): Promise<Measurement> {
  return withTemplateCopy(context, 'create', async (dataDir, { owner }) => {
    // One session per connection: the session tier (600/min, burst 1,200) is per user.
    const tokens = await withPgliteOwner(dataDir, (db) => memberSessions(db, owner.orgId, connections))
    const seconds = pgliteLoadSeconds(context.scale)
    const { floor, oeuvre, segments } = await withCopyOf(dataDir, 'create-floor', async (floorDir) => {
      const cleanup = new Cleanup()
      try {
        const [floorServer, oeuvreServer] = await startTogether(
          cleanup,
          startPgliteFloor('bench/floors/create-floor.ts', floorDir),
          startOeuvreOnPglite(dataDir),
        )
        const creators: string[] = []
        for (const name of ['A', 'B', 'C']) {
          const creator = await post<{ id: string }>(
            `${oeuvreServer!.ready}/api/creators`,
            { name, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' },
            { token: owner.token },
          )
          creators.push(creator.id)
        }
        const splits = creators.map((creatorId, i) => ({
          creatorId,
          role: 'composer',
          shareBps: i === 2 ? 3334 : 3333,
        }))
        const entry = await post<{ id: string }>(
          `${oeuvreServer!.ready}/api/catalog`,
          { kind: 'work', title: 'Bench Song', splits },
          { token: owner.token },
        )
        const floorSpec = {
          method: 'POST' as const,
          connections,
          headers: { 'content-type': 'application/json', 'idempotency-key': 'bench-{{n}}' },
          body: revenueBody(entry.id),
        }
        // Both warmed, then measured in alternation.
        return await alternateServed(
          'create (PGlite)',
          '/api/revenue',
          warmUpSeconds(context.scale),
          seconds,
          { server: floorServer!, spec: floorSpec },
          {
            server: oeuvreServer!,
            spec: { ...floorSpec, tokens },
          },
        )
      } finally {
        await cleanup.run()
      }
    })
    return servedThroughput('create requests/s (PGlite)', floor, oeuvre, 0.4, { connections, seconds, segments })
  })
}
