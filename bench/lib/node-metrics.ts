/** Reading a node's own count of what it answered, from its Prometheus text at /metrics. */

/** Answers of one route on one node, by status: `oeuvre_http_requests_total{method, route, status}`. */
export async function answeredByStatus(
  baseUrl: string,
  method: string,
  route: string,
): Promise<Record<number, number>> {
  const response = await fetch(`${baseUrl}/metrics`)
  if (!response.ok) throw new Error(`GET ${baseUrl}/metrics: ${response.status}`)
  const counts: Record<number, number> = {}
  for (const line of (await response.text()).split('\n')) {
    if (!line.startsWith('oeuvre_http_requests_total{')) continue
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]))
    if (labels.method !== method || labels.route !== route) continue
    const status = Number(labels.status)
    counts[status] = (counts[status] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1))
  }
  return counts
}

/** What a node answered between two readings, by status. */
export function answeredSince(before: Record<number, number>, after: Record<number, number>): Record<number, number> {
  const delta: Record<number, number> = {}
  for (const [status, count] of Object.entries(after)) {
    const grown = count - (before[Number(status)] ?? 0)
    if (grown > 0) delta[Number(status)] = grown
  }
  return delta
}

/** `{201: 10, 429: 3}` as `201x10 429x3` for a log line. */
export function formatStatuses(counts: Record<number, number>): string {
  const entries = Object.entries(counts)
  return entries.length ? entries.map(([status, count]) => `${status}x${count}`).join(' ') : 'none'
}
