import { once } from 'node:events'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { from as copyFrom } from 'pg-copy-streams'
import { provisionOrg } from '../lib/accounts.js'
import { runOeuvreCli } from '../lib/cli.js'
import { withScenarioDatabase } from '../lib/database.js'
import { entryIsrc, seedCreators, seedRecordings } from '../lib/records-seed.js'
import type { Measurement, Scenario } from '../lib/scenario.js'

const TERRITORIES = ['DE', 'FR', 'GB', 'US', 'SE', 'WORLD']
const MEMORY_BUDGET_MIB = 256

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

/** `oeuvre revenue import` of a generated statement against a raw COPY of the same file into a bare table. */
export const importScenario: Scenario = {
  name: 'import',
  description:
    'oeuvre revenue import of a DSP statement (matched by ISRC, allocated, one org event per line) vs raw COPY of the same rows',
  async run(context) {
    const lines = Math.max(1000, Math.round(1_000_000 * context.scale))
    const entries = Math.max(100, Math.round(20_000 * context.scale))
    const creators = Math.max(10, Math.round(2_000 * context.scale))
    const dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-bench-import-'))
    try {
      return await withScenarioDatabase(context.databaseUrl, 'import', async (db) => {
        const { orgId, userId } = await provisionOrg(db.url, context.redisUrl, 'import')
        const seeded = Date.now()
        await seedCreators(db.owner, orgId, userId, creators)
        await seedRecordings(db.owner, orgId, userId, entries, creators)
        // Statistics, as autovacuum keeps them for an org whose catalog came in over time. Planned
        // on this new database's statistics, the allocations' foreign-key check on creators ran on
        // creators_newest (org_id, created_at, id) rather than the primary key, and 200,000 lines
        // took 27–31 s to import instead of 24–26 s on this guest (docs/performance.md).
        await db.owner.query('analyze')
        const file = path.join(dir, 'statement.csv')
        const written = Date.now()
        await writeStatement(file, lines, entries)
        context.log(
          `${lines} lines over ${entries} recordings and ${creators} creators (catalog seeded in ${written - seeded} ms, statement written in ${Date.now() - written} ms)`,
        )

        await db.owner.query(
          'create table statement_floor (isrc text, territory text, period_start date, period_end date, units bigint, amount numeric(20, 6), currency text, statement_ref text, line_ref text)',
        )
        const client = await db.owner.connect()
        let floorMs: number
        try {
          const started = performance.now()
          await pipeline(
            createReadStream(file),
            client.query(copyFrom('COPY statement_floor FROM STDIN WITH (FORMAT csv, HEADER true)')),
          )
          floorMs = performance.now() - started
        } finally {
          client.release()
        }
        const copied = await db.owner.query<{ n: string }>('select count(*) as n from statement_floor')
        if (Number(copied.rows[0]?.n) !== lines) throw new Error(`COPY loaded ${copied.rows[0]?.n} of ${lines} lines`)

        const env = { DATABASE_URL: db.url, DATA_DIR: dir, REDIS_URL: '' }
        const first = await runOeuvreCli(['revenue', 'import', file, '--org', orgId], env)
        const firstSummary = summary(first.stdout)
        if (firstSummary.imported !== lines)
          throw new Error(`imported ${firstSummary.imported} of ${lines} lines:\n${first.stdout}${first.stderr}`)
        const second = await runOeuvreCli(['revenue', 'import', file, '--org', orgId], env)
        const secondSummary = summary(second.stdout)
        const counted = await db.owner.query<{ entries: string; events: string }>(
          `select (select count(*) from revenue_entries where org_id = $1) as entries,
                  (select count(*) from org_events where org_id = $1 and action = 'revenue.created') as events`,
          [orgId],
        )
        const stored = counted.rows[0]
        if (
          secondSummary.imported !== 0 ||
          secondSummary.skipped !== lines ||
          Number(stored?.entries) !== lines ||
          Number(stored?.events) !== lines
        ) {
          throw new Error(
            `a second run must add nothing: ${second.stdout.trim()}; ${stored?.entries} entries, ${stored?.events} events for ${lines} lines`,
          )
        }
        const floorRate = lines / (floorMs / 1000)
        const oeuvreRate = lines / (first.ms / 1000)
        const peak = Math.max(first.peakRssMiB, second.peakRssMiB)
        const measurements: Measurement[] = [
          {
            name: 'import lines/s',
            unit: 'lines/s',
            floor: floorRate,
            oeuvre: oeuvreRate,
            ratio: oeuvreRate / floorRate,
            target: 0.5,
            extra: {
              lines,
              oeuvreSeconds: (first.ms / 1000).toFixed(1),
              floorSeconds: (floorMs / 1000).toFixed(1),
              // The command's own CPU per line, and how busy both cores were: the rest of the busy time is mostly PostgreSQL's.
              commandCpuUsPerLine: Math.round((first.cpuMs * 1000) / lines),
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
            extra: { firstRunMiB: first.peakRssMiB, secondRunMiB: second.peakRssMiB },
          },
        ]
        return measurements
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  },
}
