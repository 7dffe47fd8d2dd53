import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { provisionOrg } from '../lib/accounts.js'
import { runFloorCli, runOeuvreCli } from '../lib/cli.js'
import { withScenarioDatabase } from '../lib/database.js'
import { seedChainedEvents } from '../lib/events.js'
import { pgliteWanted } from '../lib/pglite.js'
import type { Measurement, Scenario } from '../lib/scenario.js'
import { verifyOnPglite } from './verify-pglite.js'

/** `oeuvre audit verify` over a seeded chain against the verify floor over the same rows. */
export const verifyScenario: Scenario = {
  name: 'verify',
  description:
    'oeuvre audit verify over a valid hash chain vs a command reading the same rows as binary COPY and hashing them',
  async run(context) {
    const count = Math.max(10_000, Math.round(1_000_000 * context.scale))
    const dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-bench-verify-'))
    try {
      const measurements: Measurement[] = await withScenarioDatabase(context.databaseUrl, 'verify', async (db) => {
        const { orgId, userId } = await provisionOrg(db.url, context.redisUrl, 'verify')
        const seeded = Date.now()
        const events = await seedChainedEvents(db.owner, orgId, userId, count)
        context.log(`${events} chained events, seeded in ${Date.now() - seeded} ms`)

        const backends = { lister: db.owner, database: db.name }
        const floor = await runFloorCli('verify-floor', [orgId], { DATABASE_URL: db.url }, backends)
        const floorReport = JSON.parse(floor.stdout.trim().split('\n').pop()!) as { ok: boolean; events: number }
        if (!floorReport.ok || floorReport.events !== events)
          throw new Error(`the verify floor did not pass over ${events} events: ${floor.stdout}`)
        const floorRate = events / (floor.ms / 1000)

        const run = await runOeuvreCli(
          ['audit', 'verify', '--org', orgId, '--json'],
          { DATABASE_URL: db.url, DATA_DIR: dir, REDIS_URL: '' },
          backends,
        )
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
            target: 0.7,
            cpuRatio: (floor.cpuMs + floor.postgresCpuMs) / (run.cpuMs + run.postgresCpuMs),
            extra: {
              events,
              floorSeconds: (floor.ms / 1000).toFixed(1),
              oeuvreSeconds: (run.ms / 1000).toFixed(1),
              peakRssMiB: run.peakRssMiB,
            },
          },
        ]
      })
      if (pgliteWanted()) measurements.push(await verifyOnPglite(context))
      return measurements
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  },
}
