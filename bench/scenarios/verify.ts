import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { provisionOrg } from '../lib/accounts.js'
import { canonicalChainBytes, sha256Rate, type StoredEventRecord } from '../lib/chain-floor.js'
import { runOeuvreCli } from '../lib/cli.js'
import { withScenarioDatabase, type ScenarioDatabase } from '../lib/database.js'
import { seedChainedEvents } from '../lib/events.js'
import { pgliteWanted } from '../lib/pglite.js'
import type { Measurement, Scenario } from '../lib/scenario.js'
import { verifyOnPglite } from './verify-pglite.js'

/** Events whose canonical bytes the floor hashes (held in memory): enough for a stable rate, bounded in size. */
const FLOOR_SAMPLE = 100_000

/** The exact bytes the chain hashes for the org's first `limit` events, and the last one's stored hash. */
async function canonicalBytes(
  db: ScenarioDatabase,
  orgId: string,
  limit: number,
): Promise<{ bytes: Buffer[]; lastHash: string }> {
  const { rows } = await db.owner.query<StoredEventRecord>(
    'select * from org_events where org_id = $1 order by sequence limit $2',
    [orgId, limit],
  )
  return canonicalChainBytes(rows)
}

/** `oeuvre audit verify` over a seeded chain against SHA-256 over the same canonical bytes in one loop. */
export const verifyScenario: Scenario = {
  name: 'verify',
  description: 'oeuvre audit verify over a valid hash chain vs SHA-256 over the same canonical bytes in one loop',
  async run(context) {
    const count = Math.max(10_000, Math.round(1_000_000 * context.scale))
    const dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-bench-verify-'))
    try {
      const measurements: Measurement[] = await withScenarioDatabase(context.databaseUrl, 'verify', async (db) => {
        const { orgId, userId } = await provisionOrg(db.url, context.redisUrl, 'verify')
        const seeded = Date.now()
        const events = await seedChainedEvents(db.owner, orgId, userId, count)
        context.log(`${events} chained events, seeded in ${Date.now() - seeded} ms`)

        const { bytes: sample, lastHash } = await canonicalBytes(db, orgId, FLOOR_SAMPLE)
        const floorRate = sha256Rate(sample, lastHash)

        const run = await runOeuvreCli(['audit', 'verify', '--org', orgId, '--json'], {
          DATABASE_URL: db.url,
          DATA_DIR: dir,
          REDIS_URL: '',
        })
        const report = JSON.parse(run.stdout) as { ok: boolean; events: number }
        if (!report.ok || report.events !== events)
          throw new Error(`verify did not pass over ${events} events: ${run.stdout}`)
        const oeuvreRate = events / (run.ms / 1000)
        return [
          {
            name: 'verify events/s',
            unit: 'events/s',
            floor: floorRate,
            oeuvre: oeuvreRate,
            ratio: oeuvreRate / floorRate,
            target: 0.5,
            extra: {
              events,
              floorSample: sample.length,
              oeuvreSeconds: (run.ms / 1000).toFixed(1),
              peakRssMiB: run.peakRssMiB,
            },
          },
        ]
      })
      if (pgliteWanted()) measurements.push(await verifyOnPglite(context, FLOOR_SAMPLE))
      return measurements
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  },
}
