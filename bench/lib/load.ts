import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
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

/** What a load runner answers to one spec. */
interface RunnerReply {
  id: number
  output?: AutocannonOutput
  error?: string
}

/**
 * Load runners kept between runs: each is a process of its own (autocannon must not share the
 * measuring process's CPU), forked once and sent one spec at a time. Spawning one per run
 * (tsx, then autocannon) took about 0.6 s of the machine per run, some 35 runs per bench, and
 * started every measured segment in a load generator not yet compiled by V8.
 */
const idle: ChildProcess[] = []
let nextId = 0

function forkRunner(): ChildProcess {
  const runner = fork(RUNNER, [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  })
  // An idle runner never keeps the bench alive; it exits when the bench does (disconnect).
  runner.unref()
  runner.channel?.unref()
  return runner
}

/**
 * Runs autocannon with `spec` (a LoadSpec, whose `url` may be several) in an idle runner (a new
 * one when all are busy, so concurrent loads still get a process each) and returns its result.
 */
export async function runAutocannon(
  spec: Omit<LoadSpec, 'url'> & { url: string | string[] },
): Promise<AutocannonOutput> {
  const runner = idle.pop() ?? forkRunner()
  const id = (nextId += 1)
  runner.channel?.ref()
  try {
    const output = await new Promise<AutocannonOutput>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          fail(
            new Error(`load runner: no result ${spec.durationSeconds + 60} s after a ${spec.durationSeconds} s run`),
          ),
        (spec.durationSeconds + 60) * 1000,
      )
      const onMessage = (reply: RunnerReply) => {
        if (reply.id !== id) return
        done()
        if (reply.output) resolve(reply.output)
        else reject(new Error(`load runner: ${reply.error ?? 'no output'}`))
      }
      const onExit = (code: number | null) => fail(new Error(`load runner exited with ${code} during a run`))
      function done() {
        clearTimeout(timer)
        runner.off('message', onMessage)
        runner.off('exit', onExit)
      }
      function fail(error: Error) {
        done()
        runner.kill()
        reject(error)
      }
      runner.on('message', onMessage)
      runner.once('exit', onExit)
      runner.send({ id, spec })
    })
    runner.channel?.unref()
    idle.push(runner)
    return output
  } catch (error) {
    runner.kill()
    throw error
  }
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
    throw new Error(
      `${label}: ${bad} of ${result.total} requests failed (non-2xx ${result.non2xx}, errors ${result.errors})`,
    )
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
export async function alternate(
  label: string,
  seconds: number,
  floor: (seconds: number) => Promise<LoadResult>,
  oeuvre: (seconds: number) => Promise<LoadResult>,
): Promise<Alternated> {
  const half = Math.max(1, Math.round(seconds / 2))
  const runs: LoadResult[] = []
  for (const [side, load] of [
    ['floor', floor],
    ['oeuvre', oeuvre],
    ['oeuvre', oeuvre],
    ['floor', floor],
  ] as const) {
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
export function throughput(
  name: string,
  floor: LoadResult,
  oeuvre: LoadResult,
  target: number,
  extra: Record<string, number | string>,
): Measurement {
  return {
    name,
    unit: 'req/s',
    floor: floor.requestsPerSecond,
    oeuvre: oeuvre.requestsPerSecond,
    ratio: oeuvre.requestsPerSecond / floor.requestsPerSecond,
    target,
    extra: {
      floorP99Ms: floor.p99Ms,
      oeuvreP99Ms: oeuvre.p99Ms,
      floorRequests: floor.total,
      oeuvreRequests: oeuvre.total,
      ...extra,
    },
  }
}
