import { memberSessions, ownerWithOrg, revenueFixture } from '../lib/accounts.js'
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
 * connection), against the create floor on PGlite in-process, over a copy of Oeuvre's
 * DATA_DIR made once both orgs' fixtures are in it (the floor books on an org of its own).
 */
export async function createOnPglite(
  context: ScenarioContext,
  connections: number,
  revenueBody: (catalogId: string) => string,
): Promise<Measurement> {
  return withTemplateCopy(context, 'create', async (dataDir, { owner }) => {
    const setup = await startOeuvreOnPglite(dataDir)
    let entry: { id: string }
    let floorEntry: { id: string }
    try {
      entry = await revenueFixture(setup.ready, owner.token)
      const floorOwner = await ownerWithOrg(setup.ready, 'create-floor')
      floorEntry = await revenueFixture(setup.ready, floorOwner.token)
    } finally {
      await setup.stop()
    }
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
        const spec = (catalogId: string) => ({
          method: 'POST' as const,
          connections,
          headers: { 'content-type': 'application/json', 'idempotency-key': 'bench-{{n}}' },
          body: revenueBody(catalogId),
        })
        // Both warmed, then measured in alternation.
        return await alternateServed(
          'create (PGlite)',
          '/api/revenue',
          warmUpSeconds(context.scale),
          seconds,
          { server: floorServer!, spec: spec(floorEntry.id) },
          { server: oeuvreServer!, spec: { ...spec(entry.id), tokens } },
        )
      } finally {
        await cleanup.run()
      }
    })
    return servedThroughput('create requests/s (PGlite)', floor, oeuvre, 0.7, { connections, seconds, segments })
  })
}
