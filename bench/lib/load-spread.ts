import { runAutocannon, type LoadSpec } from './load.js'

/** A load run spread over several servers at once: autocannon shares the connections among the URLs. */
export interface SpreadSpec extends Omit<LoadSpec, 'url'> {
  urls: string[]
}

/** What a spread run answered, by status, and when it ran (the span every request fell in). */
export interface SpreadResult {
  requestsPerSecond: number
  p99Ms: number
  total: number
  /** Requests written; `sent - total` were still unanswered when the run ended (autocannon drops them, the server may still commit them). */
  sent: number
  /** Answers by HTTP status, e.g. { 201: 1500 } or { 200: 125, 429: 9000 }. */
  statuses: Record<number, number>
  ok2xx: number
  non2xx: number
  errors: number
  /** Epoch ms: autocannon's start (before the first request) and finish (after the last answer). */
  startMs: number
  finishMs: number
}

/** Runs autocannon (in its own process) against all `urls` at once and keeps the status breakdown. */
export async function runSpreadLoad(spec: SpreadSpec): Promise<SpreadResult> {
  const { urls, ...rest } = spec
  // autocannon takes an array of URLs and deals the connections among them.
  const output = await runAutocannon({ ...rest, url: urls.length === 1 ? urls[0]! : urls })
  const statuses: Record<number, number> = {}
  for (const [status, stat] of Object.entries(output.statusCodeStats ?? {})) statuses[Number(status)] = stat.count
  return {
    requestsPerSecond: output.requests.average,
    p99Ms: output.latency.p99,
    total: output.requests.total,
    sent: output.requests.sent,
    statuses,
    ok2xx: output['2xx'],
    non2xx: output.non2xx,
    errors: output.errors + output.timeouts,
    startMs: Date.parse(output.start),
    finishMs: Date.parse(output.finish),
  }
}
