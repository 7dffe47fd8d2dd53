import type { ReceivedRequest } from './delivery-receiver.js'

/** What the receiver's records say about duplicates: at-least-once allows a retry after an attempt ended, never two at once. */
export interface DuplicateReport {
  /** Distinct delivery ids received. */
  received: number
  /** Requests in all. */
  requests: number
  /** Ids received more than once. */
  repeated: number
  /** Ids with two requests whose [start, end] intervals overlap: a delivery sent concurrently. */
  overlapping: number
  /** A few overlapping ids, for the error message. */
  examples: string[]
  /** Requests by the worker whose process held the connection ("unknown" when it could not be observed). */
  byWorker: Record<string, number>
}

export function analyseDeliveries(requests: readonly ReceivedRequest[]): DuplicateReport {
  const byId = new Map<string, ReceivedRequest[]>()
  const byWorker: Record<string, number> = {}
  for (const request of requests) {
    const list = byId.get(request.deliveryId)
    if (list) list.push(request)
    else byId.set(request.deliveryId, [request])
    byWorker[request.worker] = (byWorker[request.worker] ?? 0) + 1
  }
  let repeated = 0
  const overlaps: string[] = []
  for (const [id, list] of byId) {
    if (list.length < 2) continue
    repeated += 1
    // Sorted by start, an interval overlaps an earlier one exactly when it starts before the latest end so far.
    list.sort((a, b) => a.startMs - b.startMs)
    let latestEnd = list[0]!.endMs
    for (const request of list.slice(1)) {
      if (request.startMs < latestEnd) {
        overlaps.push(id)
        break
      }
      latestEnd = Math.max(latestEnd, request.endMs)
    }
  }
  return {
    received: byId.size,
    requests: requests.length,
    repeated,
    overlapping: overlaps.length,
    examples: overlaps.slice(0, 5),
    byWorker,
  }
}
