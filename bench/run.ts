import { mkdir, writeFile } from 'node:fs/promises'
import os from 'node:os'
import type { Measurement, Scenario } from './lib/scenario.js'
import { createScenario } from './scenarios/create.js'
import { feedScenario } from './scenarios/feed.js'
import { webhooksScenario } from './scenarios/webhooks.js'
import { webhooksHangingScenario } from './scenarios/webhooks-hanging.js'
import { importScenario } from './scenarios/import.js'
import { payoutRunScenario } from './scenarios/payout-run.js'
import { verifyScenario } from './scenarios/verify.js'
import { scaleOutScenario } from './scenarios/scale-out.js'
import { regionsScenario } from './scenarios/regions.js'
import { webScenario } from './scenarios/web.js'
import { journeysScenario } from './scenarios/journeys.js'

/**
 * `npm run bench [-- <scenario> ...]`: each scenario measures Oeuvre against a floor
 * doing the same work with the bare minimum, in the same run, and prints the ratio.
 * Scenarios register in this list.
 */
const scenarios: Scenario[] = [
  feedScenario,
  createScenario,
  webhooksScenario,
  webhooksHangingScenario,
  importScenario,
  payoutRunScenario,
  verifyScenario,
  scaleOutScenario,
  regionsScenario,
  webScenario,
  journeysScenario,
]

// The local servers by default, as on the reference machine; REDIS_URL= (empty) runs without Redis.
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const redisUrl = process.env.REDIS_URL === undefined ? 'redis://127.0.0.1:6379' : process.env.REDIS_URL || null
const scale = Number(process.env.BENCH_SCALE ?? '1')

const wanted = process.argv.slice(2).filter((arg) => arg !== '--')
const selected = wanted.length ? wanted.map((name) => scenarios.find((s) => s.name === name) ?? name) : scenarios
const unknown = selected.filter((s): s is string => typeof s === 'string')
if (unknown.length) {
  process.stderr.write(
    `unknown scenario(s) ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ') || '(none yet)'}\n`,
  )
  process.exit(1)
}
if (selected.length === 0) {
  process.stderr.write('No benchmark scenarios are implemented yet (see the Performance issue).\n')
  process.exit(1)
}

const results: Record<string, Measurement[]> = {}
const failed: Record<string, string> = {}
/** Each scenario's wall time, seeding and start-up included, and the run's: the issue bounds a full run at 10 minutes. */
const seconds: Record<string, number> = {}
const FULL_RUN_BOUND_SECONDS = 600
const runStarted = Date.now()
const secondsSince = (at: number): number => Math.round((Date.now() - at) / 1000)
for (const scenario of selected as Scenario[]) {
  process.stdout.write(`\n## ${scenario.name}: ${scenario.description}\n`)
  const started = Date.now()
  let measurements: Measurement[]
  try {
    measurements = await scenario.run({
      databaseUrl,
      redisUrl,
      scale,
      log: (message) => process.stdout.write(`   ${message}\n`),
    })
  } catch (error) {
    // One scenario's failure is reported, and the others still run and are written.
    failed[scenario.name] = error instanceof Error ? error.message : String(error)
    seconds[scenario.name] = secondsSince(started)
    process.stdout.write(`   FAILED: ${failed[scenario.name]}\n   (${seconds[scenario.name]} s)\n`)
    continue
  }
  for (const m of measurements) {
    const verdict = m.ratio >= m.target ? 'meets' : 'BELOW'
    const extra = m.extra
      ? `  ${Object.entries(m.extra)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}`
      : ''
    process.stdout.write(
      `   ${m.name}: floor ${m.floor.toFixed(1)} ${m.unit}, oeuvre ${m.oeuvre.toFixed(1)} ${m.unit}, ratio ${m.ratio.toFixed(2)} (target ${m.target}: ${verdict}), cpu ratio ${m.cpuRatio === undefined ? 'n/a' : m.cpuRatio.toFixed(2)}${extra}\n`,
    )
    if (m.checks?.length) {
      const passed = m.checks.filter((c) => c.passed).length
      process.stdout.write(
        `   checks: ${passed} of ${m.checks.length} passed (${m.checks.map((c) => c.name).join('; ')})\n`,
      )
    }
  }
  seconds[scenario.name] = secondsSince(started)
  process.stdout.write(`   (${seconds[scenario.name]} s)\n`)
  results[scenario.name] = measurements
}

const totalSeconds = secondsSince(runStarted)
const fullRun = selected.length === scenarios.length
const clock = `${Math.floor(totalSeconds / 60)} min ${totalSeconds % 60} s`
process.stdout.write(
  fullRun
    ? `\nwhole run: ${clock} (${totalSeconds} s; bound ${FULL_RUN_BOUND_SECONDS / 60} min: ${totalSeconds < FULL_RUN_BOUND_SECONDS ? 'within' : 'OVER'}) at BENCH_SCALE=${scale}\n`
    : `\n${selected.length === 1 ? 'scenario' : 'scenarios'} run: ${clock}\n`,
)

const machine = {
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
}
await mkdir(new URL('./results/', import.meta.url), { recursive: true })
await writeFile(
  new URL('./results/latest.json', import.meta.url),
  `${JSON.stringify({ at: new Date().toISOString(), scale, machine, totalSeconds, seconds, results, failed }, null, 2)}\n`,
)
process.stdout.write('\nwritten to bench/results/latest.json\n')
if (Object.keys(failed).length > 0) {
  process.stderr.write(`failed: ${Object.keys(failed).join(', ')}\n`)
  process.exitCode = 1
}
