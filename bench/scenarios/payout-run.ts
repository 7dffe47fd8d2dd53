import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { memberSessions, ownerWithOrg, provisionOrgs } from '../lib/accounts.js'
import { runFloorCli, runOeuvreCli } from '../lib/cli.js'
import { withScenarioDatabase } from '../lib/database.js'
import { creatorId, seedAllocations } from '../lib/records-seed.js'
import type { Measurement, Scenario } from '../lib/scenario.js'
import { Cleanup, startOeuvre } from '../lib/servers.js'

const PER_ENTRY = 4
/** Payout requests in flight at once in the API variant (the server's pool has 10 connections). */
const API_CONCURRENCY = 8
/**
 * Creators paid through the API at scale 1: a twentieth of the run's, with the same 100
 * allocations each (the rate is per allocation), so the scenario stays inside the bench's time
 * budget (a tenth until stop 19).
 */
const API_CREATORS = 500
/** Session requests per member before its bucket (burst 1,200) could run dry. */
const REQUESTS_PER_MEMBER = 1000

/** Every allocation of the org is held by exactly one live payout, one payout per creator. */
async function checkPaid(owner: pg.Pool, orgId: string, creators: number, allocations: number): Promise<void> {
  const { rows } = await owner.query<{ payouts: string; items: string; allocations: string }>(
    `select (select count(*) from payouts where org_id = $1) as payouts,
            (select count(*) from payout_items where org_id = $1 and released_at is null) as items,
            (select count(*) from revenue_allocations where org_id = $1) as allocations`,
    [orgId],
  )
  const counts = rows[0]!
  if (
    Number(counts.payouts) !== creators ||
    Number(counts.items) !== allocations ||
    Number(counts.allocations) !== allocations
  ) {
    throw new Error(`expected ${creators} payouts holding ${allocations} allocations, found ${JSON.stringify(counts)}`)
  }
}

/** POST /api/payouts once per creator, API_CONCURRENCY at a time, session tokens taken in turn; every answer must be 201. */
async function payThroughApi(baseUrl: string, tokens: string[], creators: number): Promise<number> {
  let next = 0
  const started = performance.now()
  const worker = async () => {
    for (let i = next++; i < creators; i = next++) {
      const response = await fetch(`${baseUrl}/api/payouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i % tokens.length]!}` },
        body: JSON.stringify({ creatorId: creatorId(i) }),
      })
      const text = await response.text()
      if (response.status !== 201) throw new Error(`POST /api/payouts for ${creatorId(i)}: ${response.status} ${text}`)
    }
  }
  await Promise.all(Array.from({ length: API_CONCURRENCY }, worker))
  return performance.now() - started
}

/**
 * `oeuvre payouts run` over seeded allocations, and the same work through POST /api/payouts
 * per creator against an `oeuvre serve` child (on a second org seeded alike), both against the
 * same floor: the aggregate and set-based writes of the payouts, their items and batch events on
 * an org seeded alike.
 */
export const payoutRunScenario: Scenario = {
  name: 'payout-run',
  description:
    'oeuvre payouts run (set-based pages, batch events) and POST /api/payouts per creator vs the aggregate and set-based writes of payouts, coverage and batch events',
  async run(context) {
    const creators = Math.max(100, Math.round(10_000 * context.scale))
    const revenues = Math.ceil(Math.max(10_000, Math.round(1_000_000 * context.scale)) / PER_ENTRY)
    const dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-bench-payouts-'))
    try {
      return await withScenarioDatabase(context.databaseUrl, 'payout_run', async (db) => {
        const [oeuvreOrg, floorOrg] = await provisionOrgs(db.url, context.redisUrl, ['payouts', 'payouts-floor'])
        const { orgId, userId } = oeuvreOrg!
        const seeded = Date.now()
        const total = await seedAllocations(db.owner, orgId, userId, creators, revenues, PER_ENTRY)
        await seedAllocations(db.owner, floorOrg!.orgId, floorOrg!.userId, creators, revenues, PER_ENTRY)
        context.log(
          `${total} allocations of ${revenues} revenue lines to ${creators} creators (twice: Oeuvre's org and the floor's), seeded in ${Date.now() - seeded} ms`,
        )
        const backends = { lister: db.owner, database: db.name }

        const floor = await runFloorCli('payout-floor', [floorOrg!.orgId], { DATABASE_URL: db.url }, backends)
        const floorReport = JSON.parse(floor.stdout.trim().split('\n').pop()!) as { payouts: number; batches: number }
        if (floorReport.payouts !== creators)
          throw new Error(`the floor paid ${floorReport.payouts} of ${creators} creators`)
        await checkPaid(db.owner, floorOrg!.orgId, creators, total)
        const floorMs = floor.ms
        const floorRate = total / (floorMs / 1000)

        const run = await runOeuvreCli(
          ['payouts', 'run', '--org', orgId],
          { DATABASE_URL: db.url, DATA_DIR: dir, REDIS_URL: '' },
          backends,
        )
        const created = Number(/created (\d+) payouts/.exec(run.stdout)?.[1] ?? -1)
        if (created !== creators)
          throw new Error(
            `payouts run created ${created} payouts for ${creators} creators:\n${run.stdout}${run.stderr}`,
          )
        await checkPaid(db.owner, orgId, creators, total)
        const runRate = total / (run.ms / 1000)
        const measurements: Measurement[] = [
          {
            name: 'payout-run allocations/s',
            unit: 'allocations/s',
            floor: floorRate,
            oeuvre: runRate,
            ratio: runRate / floorRate,
            target: 0.5,
            cpuRatio: (floor.cpuMs + floor.postgresCpuMs) / (run.cpuMs + run.postgresCpuMs),
            extra: {
              creators,
              allocations: total,
              oeuvreSeconds: (run.ms / 1000).toFixed(1),
              floorSeconds: (floorMs / 1000).toFixed(1),
              floorBatches: floorReport.batches,
              peakRssMiB: run.peakRssMiB,
            },
          },
        ]

        // The same work through the API, one payout per creator, on a second org seeded alike (fewer creators, as many allocations each).
        const apiCreators = Math.min(creators, Math.max(100, Math.round(API_CREATORS * context.scale)))
        const cleanup = new Cleanup()
        try {
          const oeuvre = await startOeuvre(db.url, context.redisUrl)
          cleanup.add(oeuvre.stop)
          const owner = await ownerWithOrg(oeuvre.ready, 'payouts-api')
          const apiTotal = await seedAllocations(
            db.owner,
            owner.orgId,
            owner.userId,
            apiCreators,
            Math.ceil((revenues * apiCreators) / creators),
            PER_ENTRY,
          )
          const tokens = await memberSessions(db.owner, owner.orgId, Math.ceil(apiCreators / REQUESTS_PER_MEMBER))
          const apiMs = await payThroughApi(oeuvre.ready, tokens, apiCreators)
          await checkPaid(db.owner, owner.orgId, apiCreators, apiTotal)
          const apiRate = apiTotal / (apiMs / 1000)
          measurements.push({
            name: 'payout-run via API allocations/s',
            unit: 'allocations/s',
            floor: floorRate,
            oeuvre: apiRate,
            ratio: apiRate / floorRate,
            target: 0.5,
            extra: {
              creators: apiCreators,
              allocations: apiTotal,
              concurrency: API_CONCURRENCY,
              oeuvreSeconds: (apiMs / 1000).toFixed(1),
              floorSeconds: (floorMs / 1000).toFixed(1),
            },
          })
        } finally {
          await cleanup.run()
        }
        return measurements
      })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  },
}
