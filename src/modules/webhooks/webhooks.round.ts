import { SECOND } from '../../platform/clock.js'
import type { Claim, ClaimedDelivery } from './webhooks.claims.js'
import type { AttemptResult, Outcome } from './webhooks.outcomes.js'

/** An attempt answered (with success) within this long lets the next claim grow. */
export const QUICK_ATTEMPT_MS = SECOND
/** Outcomes wait at most this long for others to share their recording. */
const RECORD_WAIT_MS = 20
/**
 * While attempts are under way and the last claim found nothing more it could take, the
 * round looks again this often: a delivery that falls due meanwhile waits no longer than it
 * would for an idle worker's next round.
 */
export const POLL_MS = SECOND

/** A claimed delivery ready to send. */
export interface Sendable {
  claim: Claim
  delivery: ClaimedDelivery
}

export interface RoundSizes {
  /** Attempts under way at once in this worker. */
  concurrency: number
  /** ... of which to one endpoint. */
  endpointConcurrency: number
  claimSize: number
  maxClaimSize: number
}

/** What a round does to the outside world: the database and the receivers. */
export interface RoundSteps {
  claim(size: number): Promise<{ claimed: number; sendable: Sendable[]; abandoned: Outcome[] }>
  /** One attempt; null when the lease could no longer cover it (the claim then stays until its lease ends or its owner goes). */
  attempt(item: Sendable): Promise<AttemptResult | null>
  /** Records outcomes; returns the endpoints whose circuit is now open. */
  record(outcomes: Outcome[]): Promise<Set<string>>
  /** Gives unattempted claims back to the queue. */
  release(claims: Claim[]): Promise<void>
  onClaim?(size: number): void
}

/** What the attempts finished since the last claim were: all quick successes, any other, or none finished. */
export type SinceLastClaim = 'quick' | 'slow' | 'none'

/** The next claim's size: doubled (up to the most) after quick successes only, back to the first after any other, kept when nothing finished. */
export function nextClaimSize(
  last: number,
  since: SinceLastClaim,
  sizes: { claimSize: number; maxClaimSize: number },
): number {
  if (since === 'none') return last
  return since === 'quick' ? Math.min(last * 2, sizes.maxClaimSize) : sizes.claimSize
}

/**
 * One round of a worker: attempts start as soon as a slot is free, `concurrency` at once
 * and `endpointConcurrency` of them to one endpoint, in the order of the claim (which is
 * fair across orgs and endpoints); a delivery whose endpoint has its share under way waits
 * without holding a slot, so a hanging endpoint holds its own share and nothing more. The
 * next claim is made ahead of the attempts and outcomes are recorded behind them in
 * batches. The round claims until a claim comes back short; it claims again after a
 * recording that freed leases of an endpoint running short of ready deliveries (its cap may
 * allow more) and, while attempts are under way, every POLL_MS. It ends when nothing is under way, ready or unrecorded and the last claim
 * found nothing more, or once `signal.stopped` (claims not yet attempted go back).
 * An endpoint's failed attempt holds its next one back until it is recorded (the circuit
 * counts it first); deliveries of an endpoint whose circuit opens go back to the queue
 * unattempted.
 */
export function runRound(sizes: RoundSizes, steps: RoundSteps, signal: { stopped: boolean }): Promise<number> {
  const { concurrency, endpointConcurrency } = sizes
  const ready: Sendable[] = []
  const underWay = new Map<string, number>()
  const finished: Outcome[] = []
  const errors: unknown[] = []
  let busy = 0
  let handled = 0
  let claiming: Promise<void> | null = null
  let recording: Promise<void> | null = null
  let releasing: Promise<void> | null = null
  let recordTimer: NodeJS.Timeout | undefined
  let pollTimer: NodeJS.Timeout | undefined
  // The last claim came back short: no claim until a recording frees leases, or the poll.
  let exhausted = false
  let failed = false
  // The size of the claim made last, and the attempts finished since: how many were quick successes, and whether any was not.
  let claimSize = sizes.claimSize
  let quickSince = 0
  let slowSince = false
  let first = true
  let ended = false

  let resolveRound!: (handled: number) => void
  let rejectRound!: (error: unknown) => void
  const result = new Promise<number>((resolve, reject) => {
    resolveRound = resolve
    rejectRound = reject
  })

  // Failed attempts not yet recorded, by endpoint: its next attempt waits until the circuit has seen them.
  const unrecordedFailures = new Map<string, number>()
  const slotFree = (endpointId: string): boolean =>
    (underWay.get(endpointId) ?? 0) < endpointConcurrency && !unrecordedFailures.has(endpointId)
  const claimingStopped = (): boolean => failed || signal.stopped

  /** Ready deliveries that could start now were every worker slot free. */
  const startable = (): number => {
    const room = new Map<string, number>()
    let count = 0
    for (const { claim } of ready) {
      const { endpointId } = claim
      const left =
        room.get(endpointId) ??
        (unrecordedFailures.has(endpointId) ? 0 : endpointConcurrency - (underWay.get(endpointId) ?? 0))
      if (left > 0) count += 1
      room.set(endpointId, left - 1)
    }
    return count
  }

  const countFailure = (endpointId: string, by: number): void => {
    const count = (unrecordedFailures.get(endpointId) ?? 0) + by
    if (count > 0) unrecordedFailures.set(endpointId, count)
    else unrecordedFailures.delete(endpointId)
  }
  const isFailure = (outcome: Outcome): boolean =>
    outcome.attempt !== undefined && outcome.attempt.outcome !== 'success' && outcome.attempt.outcome !== 'blocked'

  const refill = (): void => {
    if (claiming || exhausted || claimingStopped() || startable() >= concurrency) return
    // The round's first claim has seen no attempt yet, so it is the first size.
    const since = slowSince ? 'slow' : quickSince > 0 ? 'quick' : 'none'
    claimSize = first ? sizes.claimSize : nextClaimSize(claimSize, since, sizes)
    first = false
    quickSince = 0
    slowSince = false
    const size = claimSize
    steps.onClaim?.(size)
    claiming = steps
      .claim(size)
      .then(
        ({ claimed, sendable, abandoned }) => {
          handled += claimed
          ready.push(...sendable)
          finished.push(...abandoned)
          if (claimed < size) exhausted = true
        },
        (error: unknown) => {
          errors.push(error)
          failed = true
        },
      )
      .finally(() => {
        claiming = null
        record(false)
        pump()
      })
  }

  // Outcomes are recorded together: once a claim's worth has gathered, when no attempt is under way, or after a short
  // wait; at once when a failure holds its endpoint back, or when the endpoint caps hold back the next claim and
  // nothing else could start (recording frees leases).
  const record = (force: boolean): void => {
    if (recording || finished.length === 0) return
    const urgent = unrecordedFailures.size > 0 || (exhausted && startable() === 0)
    if (!force && finished.length < claimSize && busy > 0 && !urgent) {
      recordTimer ??= setTimeout(() => {
        recordTimer = undefined
        record(true)
      }, RECORD_WAIT_MS)
      return
    }
    clearTimeout(recordTimer)
    recordTimer = undefined
    const batch = finished.splice(0, finished.length)
    const settled = (): void => {
      for (const outcome of batch) if (isFailure(outcome)) countFailure(outcome.claim.endpointId, -1)
    }
    recording = steps
      .record(batch)
      .finally(settled)
      .then(async (opened) => {
        // Leases were freed: if an endpoint of the batch is running short of ready deliveries, its cap may allow more now.
        const readyByEndpoint = new Map<string, number>()
        for (const { claim } of ready)
          readyByEndpoint.set(claim.endpointId, (readyByEndpoint.get(claim.endpointId) ?? 0) + 1)
        if (batch.some(({ claim }) => (readyByEndpoint.get(claim.endpointId) ?? 0) < endpointConcurrency))
          exhausted = false
        if (opened.size === 0) return
        const back = ready.filter((item) => opened.has(item.claim.endpointId))
        if (back.length === 0) return
        ready.splice(0, ready.length, ...ready.filter((item) => !opened.has(item.claim.endpointId)))
        await steps.release(back.map((item) => item.claim))
      })
      .catch((error: unknown) => {
        errors.push(error)
        failed = true
      })
      .finally(() => {
        recording = null
        record(false)
        pump()
      })
  }

  const start = (item: Sendable): void => {
    const endpointId = item.claim.endpointId
    busy += 1
    underWay.set(endpointId, (underWay.get(endpointId) ?? 0) + 1)
    steps
      .attempt(item)
      .then(
        (attempt) => {
          if (attempt && attempt.outcome === 'success' && attempt.latencyMs <= QUICK_ATTEMPT_MS) quickSince += 1
          else slowSince = true
          if (!attempt) return
          const outcome: Outcome = { claim: item.claim, endpointId: item.delivery.endpoint_id, attempt }
          if (isFailure(outcome)) countFailure(endpointId, 1)
          finished.push(outcome)
        },
        (error: unknown) => {
          // Unrecorded, the claim is recovered once this round's owner is gone, and sent again.
          errors.push(error)
          failed = true
        },
      )
      .finally(() => {
        busy -= 1
        const left = underWay.get(endpointId)! - 1
        if (left === 0) underWay.delete(endpointId)
        else underWay.set(endpointId, left)
        record(false)
        pump()
      })
  }

  const poll = (): void => {
    if (pollTimer || !exhausted || busy === 0 || claimingStopped()) return
    pollTimer = setTimeout(() => {
      pollTimer = undefined
      exhausted = false
      pump()
    }, POLL_MS)
  }

  const end = (): void => {
    if (ended) return
    ended = true
    clearTimeout(recordTimer)
    clearTimeout(pollTimer)
    if (errors.length > 0)
      rejectRound(new AggregateError(errors, `${errors.length} failure(s) while delivering webhooks`))
    else resolveRound(handled)
  }

  function pump(): void {
    if (ended) return
    // Sending never runs far ahead of recording; a stopping round starts nothing new.
    const held = finished.length >= 2 * claimSize && recording !== null
    while (!held && !signal.stopped && busy < concurrency) {
      const index = ready.findIndex((item) => slotFree(item.claim.endpointId))
      if (index < 0) break
      start(ready.splice(index, 1)[0]!)
    }
    refill()
    poll()
    if (busy > 0 || claiming || recording || releasing) return
    if (finished.length > 0) return record(true)
    if (signal.stopped && ready.length > 0) {
      releasing = steps
        .release(ready.splice(0, ready.length).map((item) => item.claim))
        .catch((error: unknown) => void errors.push(error))
        .finally(() => {
          releasing = null
          pump()
        })
      return
    }
    if (ready.length === 0 && (exhausted || claimingStopped())) end()
  }

  pump()
  return result
}
