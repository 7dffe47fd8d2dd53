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

/** Load-test seconds for this scale: 10 s at scale 1, never under 2 s. */
export function loadSeconds(scale: number, full = 10): number {
  return Math.max(2, Math.round(full * Math.min(1, scale * 10)))
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
