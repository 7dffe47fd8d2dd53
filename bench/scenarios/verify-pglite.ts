import { canonicalChainBytes, sha256Rate, type StoredEventRecord } from '../lib/chain-floor.js'
import { runOeuvreCli } from '../lib/cli.js'
import { seedChainedEventsPglite, withPgliteOwner, withTemplateCopy } from '../lib/pglite.js'
import type { Measurement, ScenarioContext } from '../lib/scenario.js'

/**
 * A twentieth of the PostgreSQL chain (a tenth until stop 19, when the whole bench came within
 * 3 s of its 10 minutes): seeding PGlite runs at about 13,000 events/s, so 1,000,000 would cost
 * the bench some 75 s of seeding and 20 s of verifying.
 */
const FULL_EVENTS = 50_000

/**
 * `oeuvre audit verify` in embedded mode (DATABASE_URL unset, the chain in PGlite) against
 * SHA-256 over the same canonical bytes in one loop (the first `floorSample` events, read from PGlite).
 */
export async function verifyOnPglite(context: ScenarioContext, floorSample: number): Promise<Measurement> {
  const count = Math.max(10_000, Math.round(FULL_EVENTS * context.scale))
  return withTemplateCopy(context, 'verify', async (dataDir, { owner }) => {
    const env = { DATABASE_URL: '', DATA_DIR: dataDir, REDIS_URL: '' }
    // The command over the template's few events first: its start-up (PGlite's WASM, the database opened, the migrations checked) was about half the run at 100,000 events.
    const startup = await runOeuvreCli(['audit', 'verify', '--org', owner.orgId, '--json'], env)
    const seeded = Date.now()
    const { events, bytes, lastHash } = await withPgliteOwner(dataDir, async (db) => {
      const last = await seedChainedEventsPglite(db, owner.orgId, owner.userId, count)
      const { rows } = await db.query<StoredEventRecord>(
        'select * from org_events where org_id = $1 order by sequence limit $2',
        [owner.orgId, floorSample],
      )
      return { events: last, ...canonicalChainBytes(rows) }
    })
    context.log(
      `PGlite: ${events} chained events (1,000,000 on PostgreSQL at scale 1; fewer here to fit the bench's time), seeded in ${Date.now() - seeded} ms`,
    )
    const floorRate = sha256Rate(bytes, lastHash)

    const run = await runOeuvreCli(['audit', 'verify', '--org', owner.orgId, '--json'], env)
    const report = JSON.parse(run.stdout) as { ok: boolean; events: number }
    if (!report.ok || report.events !== events)
      throw new Error(`verify on PGlite did not pass over ${events} events: ${run.stdout}`)
    const oeuvreRate = events / (run.ms / 1000)
    return {
      name: 'verify events/s (PGlite)',
      unit: 'events/s',
      floor: floorRate,
      oeuvre: oeuvreRate,
      ratio: oeuvreRate / floorRate,
      target: 0.5,
      extra: {
        events,
        floorSample: bytes.length,
        oeuvreSeconds: (run.ms / 1000).toFixed(1),
        startupSeconds: (startup.ms / 1000).toFixed(1),
        // Start-up is timed by a run of its own: when that one took longer (a busy moment), there is no honest difference to report.
        eventsPerSecondAfterStartup:
          run.ms > startup.ms
            ? Math.round(events / ((run.ms - startup.ms) / 1000))
            : 'n/a (the start-up run took longer)',
        peakRssMiB: run.peakRssMiB,
      },
    }
  })
}
