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
 * allow more) and, while attempts are under way, every POLL_MS. It ends when nothing is
 * under way, ready or unrecorded and the last claim found nothing more, or once
 * `signal.stopped` (claims not yet attempted go back). An endpoint's failed attempt holds its
 * next one back until it is recorded (the circuit counts it first); deliveries of an endpoint
 * whose circuit opens go back to the queue unattempted.
 */
export function runRound(sizes: RoundSizes, steps: RoundSteps, signal: { stopped: boolean }): Promise<number> {
  return new DeliveryRound(sizes, steps, signal).run()
}

/**
 * A round's state, and its transitions: `pump` (start what may start, claim, poll, end),
 * `claimMore`, `startAttempt`, `recordFinished`, `pollLater`, `releaseReady`, `finish`. Each
 * transition that settles calls `pump` again; nothing else moves the round on.
 */
class DeliveryRound {
  private readonly ready: Sendable[] = []
  /** Attempts under way, by endpoint. */
  private readonly underWay = new Map<string, number>()
  /** Outcomes not yet recorded. */
  private readonly finished: Outcome[] = []
  /** Failed attempts not yet recorded, by endpoint: its next attempt waits until the circuit has seen them. */
  private readonly unrecordedFailures = new Map<string, number>()
  private readonly errors: unknown[] = []
  private busy = 0
  private handled = 0
  private claiming: Promise<void> | null = null
  private recording: Promise<void> | null = null
  private releasing: Promise<void> | null = null
  private recordTimer: NodeJS.Timeout | undefined
  private pollTimer: NodeJS.Timeout | undefined
  /** The last claim came back short: no claim until a recording frees leases, or the poll. */
  private exhausted = false
  private failed = false
  /** The size of the claim made last, and the attempts finished since: quick successes, and whether any was not. */
  private claimSize: number
  private quickSince = 0
  private slowSince = false
  private first = true
  private ended = false
  private readonly result: Promise<number>
  private resolveRound!: (handled: number) => void
  private rejectRound!: (error: unknown) => void

  constructor(
    private readonly sizes: RoundSizes,
    private readonly steps: RoundSteps,
    private readonly signal: { stopped: boolean },
  ) {
    this.claimSize = sizes.claimSize
    this.result = new Promise<number>((resolve, reject) => {
      this.resolveRound = resolve
      this.rejectRound = reject
    })
  }

  run(): Promise<number> {
    this.pump()
    return this.result
  }

  private slotFree(endpointId: string): boolean {
    return (
      (this.underWay.get(endpointId) ?? 0) < this.sizes.endpointConcurrency && !this.unrecordedFailures.has(endpointId)
    )
  }

  private claimingStopped(): boolean {
    return this.failed || this.signal.stopped
  }

  /** Ready deliveries that could start now were every worker slot free. */
  private startable(): number {
    const room = new Map<string, number>()
    let count = 0
    for (const { claim } of this.ready) {
      const { endpointId } = claim
      const left =
        room.get(endpointId) ??
        (this.unrecordedFailures.has(endpointId)
          ? 0
          : this.sizes.endpointConcurrency - (this.underWay.get(endpointId) ?? 0))
      if (left > 0) count += 1
      room.set(endpointId, left - 1)
    }
    return count
  }

  private countFailure(endpointId: string, by: number): void {
    const count = (this.unrecordedFailures.get(endpointId) ?? 0) + by
    if (count > 0) this.unrecordedFailures.set(endpointId, count)
    else this.unrecordedFailures.delete(endpointId)
  }

  private fail(error: unknown): void {
    this.errors.push(error)
    this.failed = true
  }

  /** Starts what may start, claims more, polls, and ends the round once nothing is left to do. */
  private pump(): void {
    if (this.ended) return
    // Sending never runs far ahead of recording; a stopping round starts nothing new.
    const held = this.finished.length >= 2 * this.claimSize && this.recording !== null
    while (!held && !this.signal.stopped && this.busy < this.sizes.concurrency) {
      const index = this.ready.findIndex((item) => this.slotFree(item.claim.endpointId))
      if (index < 0) break
      this.startAttempt(this.ready.splice(index, 1)[0]!)
    }
    this.claimMore()
    this.pollLater()
    if (this.busy > 0 || this.claiming || this.recording || this.releasing) return
    if (this.finished.length > 0) return this.recordFinished(true)
    if (this.signal.stopped && this.ready.length > 0) return this.releaseReady()
    if (this.ready.length === 0 && (this.exhausted || this.claimingStopped())) this.finish()
  }

  /** Claims more while the ready deliveries could not fill every slot, at the size the last attempts earned. */
  private claimMore(): void {
    if (this.claiming || this.exhausted || this.claimingStopped() || this.startable() >= this.sizes.concurrency) return
    // The round's first claim has seen no attempt yet, so it is the first size.
    const since = this.slowSince ? 'slow' : this.quickSince > 0 ? 'quick' : 'none'
    this.claimSize = this.first ? this.sizes.claimSize : nextClaimSize(this.claimSize, since, this.sizes)
    this.first = false
    this.quickSince = 0
    this.slowSince = false
    const size = this.claimSize
    this.steps.onClaim?.(size)
    this.claiming = this.steps
      .claim(size)
      .then(
        ({ claimed, sendable, abandoned }) => {
          this.handled += claimed
          this.ready.push(...sendable)
          this.finished.push(...abandoned)
          if (claimed < size) this.exhausted = true
        },
        (error: unknown) => this.fail(error),
      )
      .finally(() => {
        this.claiming = null
        this.recordFinished(false)
        this.pump()
      })
  }

  private startAttempt(item: Sendable): void {
    const endpointId = item.claim.endpointId
    this.busy += 1
    this.underWay.set(endpointId, (this.underWay.get(endpointId) ?? 0) + 1)
    this.steps
      .attempt(item)
      .then(
        (attempt) => {
          if (attempt && attempt.outcome === 'success' && attempt.latencyMs <= QUICK_ATTEMPT_MS) this.quickSince += 1
          else this.slowSince = true
          if (!attempt) return
          const outcome: Outcome = { claim: item.claim, endpointId: item.delivery.endpoint_id, attempt }
          if (isFailure(outcome)) this.countFailure(endpointId, 1)
          this.finished.push(outcome)
        },
        // Unrecorded, the claim is recovered once this round's owner is gone, and sent again.
        (error: unknown) => this.fail(error),
      )
      .finally(() => {
        this.busy -= 1
        const left = this.underWay.get(endpointId)! - 1
        if (left === 0) this.underWay.delete(endpointId)
        else this.underWay.set(endpointId, left)
        this.recordFinished(false)
        this.pump()
      })
  }

  /**
   * Outcomes are recorded together: once a claim's worth has gathered, when no attempt is under
   * way, or after a short wait; at once when a failure holds its endpoint back, or when the
   * endpoint caps hold back the next claim and nothing else could start (recording frees leases).
   */
  private recordFinished(force: boolean): void {
    if (this.recording || this.finished.length === 0) return
    const urgent = this.unrecordedFailures.size > 0 || (this.exhausted && this.startable() === 0)
    if (!force && this.finished.length < this.claimSize && this.busy > 0 && !urgent) {
      this.recordTimer ??= setTimeout(() => {
        this.recordTimer = undefined
        this.recordFinished(true)
      }, RECORD_WAIT_MS)
      return
    }
    clearTimeout(this.recordTimer)
    this.recordTimer = undefined
    const batch = this.finished.splice(0, this.finished.length)
    this.recording = this.steps
      .record(batch)
      .finally(() => {
        for (const outcome of batch) if (isFailure(outcome)) this.countFailure(outcome.claim.endpointId, -1)
      })
      .then((opened) => this.afterRecording(batch, opened))
      .catch((error: unknown) => this.fail(error))
      .finally(() => {
        this.recording = null
        this.recordFinished(false)
        this.pump()
      })
  }

  /** Leases were freed: claims may go on; deliveries of endpoints whose circuit opened go back unattempted. */
  private async afterRecording(batch: readonly Outcome[], opened: Set<string>): Promise<void> {
    // If an endpoint of the batch is running short of ready deliveries, its cap may allow more now.
    const readyByEndpoint = new Map<string, number>()
    for (const { claim } of this.ready)
      readyByEndpoint.set(claim.endpointId, (readyByEndpoint.get(claim.endpointId) ?? 0) + 1)
    if (batch.some(({ claim }) => (readyByEndpoint.get(claim.endpointId) ?? 0) < this.sizes.endpointConcurrency))
      this.exhausted = false
    if (opened.size === 0) return
    const back = this.ready.filter((item) => opened.has(item.claim.endpointId))
    if (back.length === 0) return
    this.ready.splice(0, this.ready.length, ...this.ready.filter((item) => !opened.has(item.claim.endpointId)))
    await this.steps.release(back.map((item) => item.claim))
  }

  /** While attempts are under way and the last claim came back short, looks again after POLL_MS. */
  private pollLater(): void {
    if (this.pollTimer || !this.exhausted || this.busy === 0 || this.claimingStopped()) return
    this.pollTimer = setTimeout(() => {
      this.pollTimer = undefined
      this.exhausted = false
      this.pump()
    }, POLL_MS)
  }

  /** A stopping round gives back what it claimed and did not attempt. */
  private releaseReady(): void {
    this.releasing = this.steps
      .release(this.ready.splice(0, this.ready.length).map((item) => item.claim))
      .catch((error: unknown) => void this.errors.push(error))
      .finally(() => {
        this.releasing = null
        this.pump()
      })
  }

  private finish(): void {
    if (this.ended) return
    this.ended = true
    clearTimeout(this.recordTimer)
    clearTimeout(this.pollTimer)
    if (this.errors.length > 0)
      this.rejectRound(new AggregateError(this.errors, `${this.errors.length} failure(s) while delivering webhooks`))
    else this.resolveRound(this.handled)
  }
}

const isFailure = (outcome: Outcome): boolean =>
  outcome.attempt !== undefined && outcome.attempt.outcome !== 'success' && outcome.attempt.outcome !== 'blocked'
