import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { GENESIS_HASH } from '../../src/modules/audit/audit.chain.js'
import { canonicalJson } from '../../src/platform/canonical-json.js'
import { provisionOrg } from '../lib/accounts.js'
import { runOeuvreCli } from '../lib/cli.js'
import { withScenarioDatabase, type ScenarioDatabase } from '../lib/database.js'
import { seedChainedEvents } from '../lib/events.js'
import type { Scenario } from '../lib/scenario.js'

/** Events whose canonical bytes the floor hashes (held in memory): enough for a stable rate, bounded in size. */
const FLOOR_SAMPLE = 100_000

interface EventRecord {
  id: string
  org_id: string
  sequence: string
  action: string
  user_id: string
  created_at: Date
  resource_type: string | null
  resource_id: string | null
  data: unknown
  hash: string
}

/** The exact bytes the chain hashes for the org's first `limit` events (docs/audit.md's recipe). */
async function canonicalBytes(db: ScenarioDatabase, orgId: string, limit: number): Promise<Buffer[]> {
  const { rows } = await db.owner.query<EventRecord>('select * from org_events where org_id = $1 order by sequence limit $2', [orgId, limit])
  let previousHash = GENESIS_HASH
  return rows.map((row) => {
    const bytes = Buffer.from(
      canonicalJson({
        id: row.id,
        orgId: row.org_id,
        sequence: Number(row.sequence),
        action: row.action,
        userId: row.user_id,
        createdAt: row.created_at.toISOString(),
        resource: row.resource_type && row.resource_id ? { type: row.resource_type, id: row.resource_id } : null,
        data: row.data,
        previousHash,
      }),
    )
    previousHash = row.hash
    return bytes
  })
}

/** `oeuvre audit verify` over a seeded chain against SHA-256 over the same canonical bytes in one loop. */
export const verifyScenario: Scenario = {
  name: 'verify',
  description: 'oeuvre audit verify over a valid hash chain vs SHA-256 over the same canonical bytes in one loop',
  async run(context) {
    const count = Math.max(10_000, Math.round(1_000_000 * context.scale))
    const dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-bench-verify-'))
    try {
      return await withScenarioDatabase(context.databaseUrl, 'verify', async (db) => {
        const { orgId, userId } = await provisionOrg(db.url, context.redisUrl, 'verify')
        const events = await seedChainedEvents(db.owner, orgId, userId, count)
        context.log(`${events} chained events`)

        const sample = await canonicalBytes(db, orgId, FLOOR_SAMPLE)
        const started = performance.now()
        let last = ''
        for (const bytes of sample) last = createHash('sha256').update(bytes).digest('hex')
        const floorMs = performance.now() - started
        if (!last) throw new Error('no events to hash')

        const run = await runOeuvreCli(['audit', 'verify', '--org', orgId, '--json'], { DATABASE_URL: db.url, DATA_DIR: dir, REDIS_URL: '' })
        const report = JSON.parse(run.stdout) as { ok: boolean; events: number }
        if (!report.ok || report.events !== events) throw new Error(`verify did not pass over ${events} events: ${run.stdout}`)
        const floorRate = sample.length / (floorMs / 1000)
        const oeuvreRate = events / (run.ms / 1000)
        return [
          {
            name: 'verify events/s',
            unit: 'events/s',
            floor: floorRate,
            oeuvre: oeuvreRate,
            ratio: oeuvreRate / floorRate,
            target: 0.5,
            extra: { events, floorSample: sample.length, oeuvreSeconds: (run.ms / 1000).toFixed(1), peakRssMiB: run.peakRssMiB },
          },
        ]
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  },
}
