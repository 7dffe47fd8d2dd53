import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Measurement } from './scenario.js'
import { ROOT } from './servers.js'

/** One load run: autocannon against `url`. `{{n}}` in headers and body becomes a value unique to each request. */
export interface LoadSpec {
  url: string
  connections: number
  durationSeconds: number
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  /** Bearer tokens taken in turn, one per request (several callers, several rate buckets). */
  tokens?: string[]
}

export interface LoadResult {
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  total: number
  non2xx: number
  errors: number
}

/** The part of autocannon's result the scenarios read. */
export interface AutocannonOutput {
  requests: { average: number; total: number; sent: number }
  latency: { p50: number; p99: number }
  '2xx': number
  non2xx: number
  errors: number
  timeouts: number
  statusCodeStats?: Record<string, { count: number }>
  start: string
  finish: string
}

const RUNNER = fileURLToPath(new URL('./load-runner.ts', import.meta.url))

/**
 * Runs load-runner.ts (autocannon in a separate process, so the load does not share the
 * measuring process's CPU) with `spec` (a LoadSpec, whose `url` may be several) and parses its JSON.
 */
export async function runAutocannon(spec: Omit<LoadSpec, 'url'> & { url: string | string[] }): Promise<AutocannonOutput> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', RUNNER, JSON.stringify(spec)], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    timeout: (spec.durationSeconds + 60) * 1000,
  })
  const lines = stdout.trim().split('\n')
  return JSON.parse(lines[lines.length - 1] ?? '{}') as AutocannonOutput
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const output = await runAutocannon(spec)
  return {
    requestsPerSecond: output.requests.average,
    p50Ms: output.latency.p50,
    p99Ms: output.latency.p99,
    total: output.requests.total,
    non2xx: output.non2xx,
    errors: output.errors + output.timeouts,
  }
}

/** Throughput counts only answered work: a run where errors or non-2xx answers are more than a trace is refused. */
export function assertClean(label: string, result: LoadResult): void {
  const bad = result.non2xx + result.errors
  if (result.total === 0 || bad > result.total * 0.001) {
    throw new Error(`${label}: ${bad} of ${result.total} requests failed (non-2xx ${result.non2xx}, errors ${result.errors})`)
  }
}

/**
 * Seconds of load each side gets before it is measured. One second was too short for Oeuvre:
 * its rate was still climbing through the first measured seconds (V8 tiering up the longer
 * request path, the heap growing to its working size), while the floor's was flat.
 */
export function warmUpSeconds(scale: number): number {
  return loadSeconds(scale, 3)
}

/**
 * Load-test seconds for this scale: `full` (8 s) at scale 1, never under 2 s. It was 10 s until
 * stop 19: in the guest's slowest hour the whole bench took 9 min 57 s of its 10 minutes.
 */
export function loadSeconds(scale: number, full = 8): number {
  return Math.max(2, Math.round(full * Math.min(1, scale * 10)))
}

/** Both sides' load, measured in alternation: what `alternate` returns. */
export interface Alternated {
  floor: LoadResult
  oeuvre: LoadResult
  /** Each segment's requests/s, in the order run: floor, Oeuvre, Oeuvre, floor. */
  segments: string
}

/**
 * Floor and Oeuvre measured in alternation, floor–Oeuvre–Oeuvre–floor, each segment half the
 * seconds (so each side still gets `seconds` in all). A machine whose speed drifts during the
 * run (another tenant of the host, a cache warming, autovacuum) then weighs on both sides
 * alike, where one block of floor followed by one block of Oeuvre hands the drift to the ratio.
 * Each side's rate is the mean of its two segments; its p99 the worse of the two. Every
 * segment must be clean.
 */
export async function alternate(label: string, seconds: number, floor: (seconds: number) => Promise<LoadResult>, oeuvre: (seconds: number) => Promise<LoadResult>): Promise<Alternated> {
  const half = Math.max(1, Math.round(seconds / 2))
  const runs: LoadResult[] = []
  for (const [side, load] of [['floor', floor], ['oeuvre', oeuvre], ['oeuvre', oeuvre], ['floor', floor]] as const) {
    const result = await load(half)
    assertClean(`${label} ${side}`, result)
    runs.push(result)
  }
  const [floorA, oeuvreA, oeuvreB, floorB] = runs as [LoadResult, LoadResult, LoadResult, LoadResult]
  const merge = (a: LoadResult, b: LoadResult): LoadResult => ({
    requestsPerSecond: (a.requestsPerSecond + b.requestsPerSecond) / 2,
    p50Ms: Math.max(a.p50Ms, b.p50Ms),
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
    total: a.total + b.total,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
  })
  return {
    floor: merge(floorA, floorB),
    oeuvre: merge(oeuvreA, oeuvreB),
    segments: runs.map((run) => run.requestsPerSecond.toFixed(0)).join(' / '),
  }
}

/** A requests/s measurement with both sides' p99 latency alongside. */
export function throughput(name: string, floor: LoadResult, oeuvre: LoadResult, target: number, extra: Record<string, number | string>): Measurement {
  return {
    name,
    unit: 'req/s',
    floor: floor.requestsPerSecond,
    oeuvre: oeuvre.requestsPerSecond,
    ratio: oeuvre.requestsPerSecond / floor.requestsPerSecond,
    target,
    extra: { floorP99Ms: floor.p99Ms, oeuvreP99Ms: oeuvre.p99Ms, floorRequests: floor.total, oeuvreRequests: oeuvre.total, ...extra },
  }
}
