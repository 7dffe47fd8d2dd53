import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { provisionOrg } from '../lib/accounts.js'
import { runOeuvreCli } from '../lib/cli.js'
import { withScenarioDatabase } from '../lib/database.js'
import { seedCreators, seedRecordings } from '../lib/records-seed.js'
import type { Scenario } from '../lib/scenario.js'

const PER_ENTRY = 4

/** `oeuvre payouts run` over seeded allocations against one SQL aggregate of the same table. */
export const payoutRunScenario: Scenario = {
  name: 'payout-run',
  description: 'oeuvre payouts run (one locked transaction per creator) vs one SQL aggregate over the same allocations',
  async run(context) {
    const creators = Math.max(100, Math.round(10_000 * context.scale))
    const allocations = Math.max(10_000, Math.round(1_000_000 * context.scale))
    const revenues = Math.ceil(allocations / PER_ENTRY)
    const dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-bench-payouts-'))
    try {
      return await withScenarioDatabase(context.databaseUrl, 'payout_run', async (db) => {
        const { orgId, userId } = await provisionOrg(db.url, context.redisUrl, 'payouts')
        await seedCreators(db.owner, orgId, userId, creators)
        await seedRecordings(db.owner, orgId, userId, 1, creators)
        // Each revenue line allocated to PER_ENTRY creators round-robin, 2.5 EUR each.
        await db.owner.query(
          `insert into revenue_entries (org_id, id, catalog_id, source, type, period_start, period_end, territory, units, amount_micros, currency, statement_ref, line_ref, created_at, created_by)
           select $1, 'rev_bench' || lpad(r::text, 10, '0'), 'cat_bench0000000000', 'Bench', 'stream', '2026-09-01', '2026-09-30', 'DE', 100, $4::bigint * 2500000, 'EUR', 'BENCH', r::text, now(), $2
           from generate_series(0, $3::int - 1) as r`,
          [orgId, userId, revenues, PER_ENTRY],
        )
        await db.owner.query(
          `insert into revenue_allocations (org_id, revenue_id, creator_id, currency, amount_micros)
           select $1, 'rev_bench' || lpad(r::text, 10, '0'), 'crt_bench' || lpad(((r * $3::int + k) % $4::int)::text, 10, '0'), 'EUR', 2500000
           from generate_series(0, $2::int - 1) as r, generate_series(0, $3::int - 1) as k`,
          [orgId, revenues, PER_ENTRY, creators],
        )
        await db.owner.query('analyze')
        const total = revenues * PER_ENTRY
        context.log(`${total} allocations of ${revenues} revenue lines to ${creators} creators`)

        const started = performance.now()
        const aggregate = await db.owner.query('select creator_id, currency, sum(amount_micros) from revenue_allocations where org_id = $1 group by creator_id, currency', [orgId])
        const floorMs = performance.now() - started
        if (aggregate.rowCount !== creators) throw new Error(`the aggregate found ${aggregate.rowCount} creators of ${creators}`)

        const run = await runOeuvreCli(['payouts', 'run', '--org', orgId], { DATABASE_URL: db.url, DATA_DIR: dir, REDIS_URL: '' })
        const created = Number(/created (\d+) payouts/.exec(run.stdout)?.[1] ?? -1)
        if (created !== creators) throw new Error(`payouts run created ${created} payouts for ${creators} creators:\n${run.stdout}${run.stderr}`)
        const floorRate = total / (floorMs / 1000)
        const oeuvreRate = total / (run.ms / 1000)
        return [
          {
            name: 'payout-run allocations/s',
            unit: 'allocations/s',
            floor: floorRate,
            oeuvre: oeuvreRate,
            ratio: oeuvreRate / floorRate,
            target: 0.5,
            extra: { creators, allocations: total, oeuvreSeconds: (run.ms / 1000).toFixed(1), floorSeconds: (floorMs / 1000).toFixed(2), peakRssMiB: run.peakRssMiB },
          },
        ]
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  },
}
