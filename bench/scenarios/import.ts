import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { provisionOrgs } from '../lib/accounts.js'
import { runFloorCli, runOeuvreCli, type CliRun } from '../lib/cli.js'
import { withScenarioDatabase } from '../lib/database.js'
import { entryIsrc, seedCreators, seedRecordings } from '../lib/records-seed.js'
import type { Measurement, Scenario } from '../lib/scenario.js'

const TERRITORIES = ['DE', 'FR', 'GB', 'US', 'SE', 'WORLD']
const MEMORY_BUDGET_MIB = 256
const SOURCE = 'Bench DSP'

/** A DSP-style statement of `lines` lines over `entries` recordings, written with backpressure. */
async function writeStatement(file: string, lines: number, entries: number): Promise<void> {
  const out = createWriteStream(file)
  out.write('isrc,territory,period_start,period_end,units,amount,currency,statement_ref,line_ref\n')
  for (let i = 0; i < lines; i += 1) {
    // Deterministic amounts with six decimals, never zero.
    const micros = ((i * 7919) % 9_999_999) + 1
    const amount = `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`
    const line = `${entryIsrc(i % entries)},${TERRITORIES[i % TERRITORIES.length]},2026-09-01,2026-09-30,${(i % 5000) + 1},${amount},EUR,BENCH-2026-09,${i + 1}\n`
    if (!out.write(line)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
}

function summary(stdout: string): { imported: number; skipped: number; rejected: number } {
  const match = /imported (\d+), skipped (\d+) \(already present\), rejected (\d+)/.exec(stdout)
  if (!match) throw new Error(`no summary line in: ${stdout}`)
  return { imported: Number(match[1]), skipped: Number(match[2]), rejected: Number(match[3]) }
}

/** CPU ms of a command and of the database's backends serving it. */
const cpuOf = (run: CliRun): number => run.cpuMs + run.postgresCpuMs

/** `oeuvre revenue import` of a generated statement against the import floor (COPY, set-based inserts, batch events) on an org seeded alike. */
export const importScenario: Scenario = {
  name: 'import',
  description:
    'oeuvre revenue import of a DSP statement (matched by ISRC, allocated, batch events) vs COPY into staging and set-based INSERT ... SELECT with the same batch events',
  async run(context) {
    const lines = Math.max(1000, Math.round(1_000_000 * context.scale))
    const entries = Math.max(100, Math.round(20_000 * context.scale))
    const creators = Math.max(10, Math.round(2_000 * context.scale))
    const dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-bench-import-'))
    try {
      return await withScenarioDatabase(context.databaseUrl, 'import', async (db) => {
        const [oeuvreOrg, floorOrg] = await provisionOrgs(db.url, context.redisUrl, ['import', 'import-floor'])
        const seeded = Date.now()
        for (const { orgId, userId } of [oeuvreOrg!, floorOrg!]) {
          await seedCreators(db.owner, orgId, userId, creators)
          await seedRecordings(db.owner, orgId, userId, entries, creators)
        }
        // Statistics, as autovacuum keeps them for an org whose catalog came in over time.
        await db.owner.query('analyze')
        const file = path.join(dir, 'statement.csv')
        const written = Date.now()
        await writeStatement(file, lines, entries)
        context.log(
          `${lines} lines over ${entries} recordings and ${creators} creators (catalogs seeded in ${written - seeded} ms, statement written in ${Date.now() - written} ms)`,
        )
        const backends = { lister: db.owner, database: db.name }

        const floor = await runFloorCli(
          'import-floor',
          [file, floorOrg!.orgId, SOURCE],
          { DATABASE_URL: db.url },
          backends,
        )
        const floorReport = JSON.parse(floor.stdout.trim().split('\n').pop()!) as { imported: number; batches: number }
        if (floorReport.imported !== lines)
          throw new Error(`the floor imported ${floorReport.imported} of ${lines} lines`)

        const env = { DATABASE_URL: db.url, DATA_DIR: dir, REDIS_URL: '' }
        const args = ['revenue', 'import', file, '--org', oeuvreOrg!.orgId, '--source', SOURCE]
        const first = await runOeuvreCli(args, env, backends)
        const firstSummary = summary(first.stdout)
        if (firstSummary.imported !== lines)
          throw new Error(`imported ${firstSummary.imported} of ${lines} lines:\n${first.stdout}${first.stderr}`)
        const second = await runOeuvreCli(args, env)
        const secondSummary = summary(second.stdout)
        const counted = await db.owner.query<{ entries: string; events: string }>(
          `select (select count(*) from revenue_entries where org_id = $1) as entries,
                  (select count(*) from org_events where org_id = $1 and action like 'revenue.%') as events`,
          [oeuvreOrg!.orgId],
        )
        const stored = counted.rows[0]
        if (secondSummary.imported !== 0 || secondSummary.skipped !== lines || Number(stored?.entries) !== lines) {
          throw new Error(
            `a second run must add nothing: ${second.stdout.trim()}; ${stored?.entries} entries for ${lines} lines`,
          )
        }
        const floorRate = lines / (floor.ms / 1000)
        const oeuvreRate = lines / (first.ms / 1000)
        const peak = Math.max(first.peakRssMiB, second.peakRssMiB)
        const perLine = (ms: number) => Math.round((ms * 1000) / lines)
        const measurements: Measurement[] = [
          {
            name: 'import lines/s',
            unit: 'lines/s',
            floor: floorRate,
            oeuvre: oeuvreRate,
            ratio: oeuvreRate / floorRate,
            target: 0.5,
            cpuRatio: cpuOf(floor) / cpuOf(first),
            extra: {
              lines,
              oeuvreSeconds: (first.ms / 1000).toFixed(1),
              floorSeconds: (floor.ms / 1000).toFixed(1),
              oeuvreEvents: Number(stored?.events),
              floorEvents: floorReport.batches,
              // CPU µs per line of each command and of the database's backends serving it.
              oeuvreCommandCpuUs: perLine(first.cpuMs),
              oeuvrePostgresCpuUs: perLine(first.postgresCpuMs),
              floorCommandCpuUs: perLine(floor.cpuMs),
              floorPostgresCpuUs: perLine(floor.postgresCpuMs),
              machineBusy: first.machineBusy.toFixed(2),
              secondRun: second.stdout.trim(),
              secondRunSeconds: (second.ms / 1000).toFixed(1),
            },
          },
          {
            name: 'import peak RSS (budget as floor)',
            unit: 'MiB',
            floor: MEMORY_BUDGET_MIB,
            oeuvre: peak,
            ratio: peak > 0 ? MEMORY_BUDGET_MIB / peak : 0,
            target: 1,
            extra: { firstRunMiB: first.peakRssMiB, secondRunMiB: second.peakRssMiB, floorMiB: floor.peakRssMiB },
          },
        ]
        return measurements
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  },
}
