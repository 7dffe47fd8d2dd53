import { runFloorCli, runOeuvreCli } from '../lib/cli.js'
import { seedChainedEventsPglite, withPgliteOwner, withTemplateCopy } from '../lib/pglite.js'
import type { Measurement, ScenarioContext } from '../lib/scenario.js'

/**
 * A twentieth of the PostgreSQL chain: seeding PGlite runs at about 13,000 events/s, so
 * 1,000,000 would cost the bench some 75 s of seeding and 20 s of verifying.
 */
const FULL_EVENTS = 50_000

/**
 * `oeuvre audit verify` in embedded mode (DATABASE_URL unset, the chain in PGlite) against the
 * verify floor on the same DATA_DIR (PGlite's binary COPY, hashed): both commands start PGlite.
 */
export async function verifyOnPglite(context: ScenarioContext): Promise<Measurement> {
  const count = Math.max(10_000, Math.round(FULL_EVENTS * context.scale))
  return withTemplateCopy(context, 'verify', async (dataDir, { owner }) => {
    const env = { DATABASE_URL: '', DATA_DIR: dataDir, REDIS_URL: '' }
    const seeded = Date.now()
    const events = await withPgliteOwner(dataDir, (db) => seedChainedEventsPglite(db, owner.orgId, owner.userId, count))
    context.log(
      `PGlite: ${events} chained events (1,000,000 on PostgreSQL at scale 1; fewer here to fit the bench's time), seeded in ${Date.now() - seeded} ms`,
    )
    const floor = await runFloorCli('verify-floor', [owner.orgId], env)
    const floorReport = JSON.parse(floor.stdout.trim().split('\n').pop()!) as { ok: boolean; events: number }
    if (!floorReport.ok || floorReport.events !== events)
      throw new Error(`the verify floor on PGlite did not pass over ${events} events: ${floor.stdout}`)
    const run = await runOeuvreCli(['audit', 'verify', '--org', owner.orgId, '--json'], env)
    const report = JSON.parse(run.stdout) as { ok: boolean; events: number }
    if (!report.ok || report.events !== events)
      throw new Error(`verify on PGlite did not pass over ${events} events: ${run.stdout}`)
    const floorRate = events / (floor.ms / 1000)
    const oeuvreRate = events / (run.ms / 1000)
    return {
      name: 'verify events/s (PGlite)',
      unit: 'events/s',
      floor: floorRate,
      oeuvre: oeuvreRate,
      ratio: oeuvreRate / floorRate,
      target: 0.7,
      cpuRatio: floor.cpuMs / run.cpuMs,
      extra: {
        events,
        floorSeconds: (floor.ms / 1000).toFixed(1),
        oeuvreSeconds: (run.ms / 1000).toFixed(1),
        peakRssMiB: run.peakRssMiB,
      },
    }
  })
}
