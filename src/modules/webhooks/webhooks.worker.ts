import { performance } from 'node:perf_hooks'
import type { Database } from '../../database.js'
import { DAY, HOUR, SECOND, type Clock } from '../../platform/clock.js'
import type { SecretBox } from '../../platform/crypto.js'
import type { AuditLog } from '../audit/audit.service.js'
import type { Job } from '../../worker/worker.js'
import { memo } from '../../platform/memo.js'
import {
  claimDue,
  loadClaimed,
  takeLeaseOwner,
  type Claim,
  type ClaimedDelivery,
  type LeaseOwner,
} from './webhooks.claims.js'
import { createAgentPool, sendAttempt } from './webhooks.http.js'
import { createOutcomeRecorder, type AttemptResult, type Outcome } from './webhooks.outcomes.js'
import { signedHeaders, signingKey, type SigningKey } from './webhooks.signing.js'
import { resolveTarget, type HostLookup } from './webhooks.ssrf.js'

export { DEFAULT_RETRY_SCHEDULE, DISABLE_AFTER_FAILING_MS, retryAfterMs } from './webhooks.outcomes.js'

export const ATTEMPT_TIMEOUT_MS = 15 * SECOND
/** Attempts under way at once per worker; 8, 16 and 32 measured about the same against a local receiver (the worker's CPU is the limit). */
export const DEFAULT_CONCURRENCY = 16
/** Deliveries claimed at once, per attempt under way: a claim (two round trips) then feeds each lane several attempts. */
const CLAIMED_PER_LANE = 4
/**
 * While every attempt is answered quickly, each claim of a round is twice the last, up to
 * this many per lane: fewer claims and recordings per delivery (about 15% of the worker's
 * and PostgreSQL's time per delivery against a local receiver,), while
 * a slow or failing endpoint keeps claims small, so little waits behind its attempts.
 */
const MAX_CLAIMED_PER_LANE = 16
/** An attempt answered (with success) within this long lets the next claim grow. */
const QUICK_ATTEMPT_MS = SECOND
/** A round stops claiming after this long, so a stopping worker waits little more than the attempts under way. */
const ROUND_BUDGET_MS = 2 * SECOND
/** Outcomes wait at most this long for others to share their recording. */
const RECORD_WAIT_MS = 20

/**
 * The worker's sizes (defaults filled in) and the lease they need. A claim is made once
 * fewer than `concurrency` deliveries are ready, so a delivery claimed in a claim of `size`
 * waits behind at most ceil(size / concurrency) + 1 rounds of attempts (each at most the
 * timeout), then makes its own and is recorded: `leaseFor(size)` covers all that, whatever
 * the size of the claims before it (they leave fewer than `concurrency` ready). A round's
 * first claim is `claimSize`; later ones grow to `maxClaimSize` (nextClaimSize). An attempt that would start
 * with less than its timeout plus a margin for recording left is not sent (the claim goes
 * back), so no attempt outlives its lease and no other worker can send it meanwhile.
 */
export function deliveryPacing(options: { timeoutMs?: number; concurrency?: number; batchSize?: number }) {
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY)
  const claimSize = Math.max(1, options.batchSize ?? CLAIMED_PER_LANE * concurrency)
  // A fixed batch size stays fixed; the default grows while attempts are quick.
  const maxClaimSize = options.batchSize === undefined ? MAX_CLAIMED_PER_LANE * concurrency : claimSize
  const leaseFor = (size: number) => (Math.ceil(size / concurrency) + 2) * timeoutMs + 15 * SECOND
  return {
    timeoutMs,
    concurrency,
    claimSize,
    maxClaimSize,
    leaseMs: leaseFor(claimSize),
    leaseFor,
    minLeaseLeftMs: timeoutMs + 10 * SECOND,
  }
}

/** The next claim's size: doubled (up to the most) when the attempts finished since the last claim were all quick successes, else back to the first. */
export function nextClaimSize(
  last: number,
  quick: boolean,
  pacing: { claimSize: number; maxClaimSize: number },
): number {
  return quick ? Math.min(last * 2, pacing.maxClaimSize) : pacing.claimSize
}

export interface DeliveryWorkerDeps {
  db: Database
  clock: Clock
  audit: AuditLog
  box: SecretBox
  allowLoopback: boolean
  lookup: HostLookup
  schedule: readonly number[]
  /** Up to this fraction of each delay is added at random (0 in tests). */
  jitter: number
  timeoutMs?: number
  /** Attempts under way at once (default DEFAULT_CONCURRENCY). */
  concurrency?: number
  /** Deliveries per claim, fixed (default: four per attempt under way, growing to 16 while attempts are quick). */
  batchSize?: number
  /** Pinned keep-alive agents kept open (default DEFAULT_MAX_AGENTS). */
  maxAgents?: number
  /** Told the size of each claim as it is made (metrics, tests). */
  onClaim?: (size: number) => void
}

/** A claimed delivery ready for a lane. */
interface Sendable {
  claim: Claim
  delivery: ClaimedDelivery
}

export function createDeliveryJob(deps: DeliveryWorkerDeps): Job {
  const { db, clock } = deps
  const pacing = deliveryPacing(deps)
  const { timeoutMs, concurrency, leaseFor, minLeaseLeftMs } = pacing
  const agents = createAgentPool({ timeoutMs, ...(deps.maxAgents ? { maxAgents: deps.maxAgents } : {}) })
  // AES-GCM and the HMAC key imports per attempt are work a cache removes; a rotated secret has a new sealed form.
  const openSecret = memo((sealed) => signingKey(deps.box.open(sealed)))
  // Parsed once per endpoint URL (never changed in place: a URL object is only read).
  const parseUrl = memo((raw) => new URL(raw))
  const recorder = createOutcomeRecorder({ db, clock, audit: deps.audit, schedule: deps.schedule, jitter: deps.jitter })

  /** One attempt; null when the lease could no longer cover it (the claim then goes back with its owner). */
  async function attempt({ claim, delivery }: Sendable): Promise<AttemptResult | null> {
    const startedAt = clock.now()
    const trigger = delivery.redelivery_requested ? 'redelivery' : 'scheduled'
    const url = parseUrl(delivery.url)
    // Resolved and checked at every attempt; the connection then goes to exactly this address.
    const target = await resolveTarget(url, { allowLoopback: deps.allowLoopback, lookup: deps.lookup })
    const base = { startedAt, trigger, httpStatus: null, latencyMs: 0, responseBody: null, retryAfter: null } as const
    if (target.kind === 'blocked')
      return { ...base, status: 'blocked', outcome: 'blocked', error: `blocked: ${target.reason}`, address: null }
    if (target.kind === 'unresolved')
      return { ...base, status: 'failed', outcome: 'failure', error: target.reason, address: null }
    let secrets: SigningKey[]
    try {
      secrets = [openSecret(delivery.secret_sealed!)]
      if (
        delivery.previous_secret_sealed &&
        delivery.previous_secret_expires_at &&
        delivery.previous_secret_expires_at > startedAt
      ) {
        secrets.push(openSecret(delivery.previous_secret_sealed))
      }
    } catch {
      return {
        ...base,
        status: 'failed',
        outcome: 'failure',
        error: 'the signing secret cannot be decrypted: SECRETS_KEY differs from the key it was stored with',
        address: null,
      }
    }
    if (claim.leasedUntil.getTime() - clock.now().getTime() < minLeaseLeftMs) return null
    const headers = signedHeaders({
      secrets,
      deliveryId: delivery.id,
      eventType: delivery.event_type,
      timestampSeconds: Math.floor(startedAt.getTime() / 1000),
      body: delivery.payload,
    })
    const outcome = await sendAttempt({
      url,
      address: target.address,
      family: target.family,
      headers,
      body: delivery.payload,
      timeoutMs,
      agents,
    })
    return {
      ...outcome,
      startedAt,
      trigger,
      status: outcome.kind === 'success' ? 'succeeded' : 'failed',
      outcome: outcome.kind,
      address: target.address,
    }
  }

  /** Claims the next deliveries and reads them with their endpoints (one statement per org). */
  async function claimNext(
    owner: LeaseOwner,
    size: number,
  ): Promise<{ claimed: number; sendable: Sendable[]; abandoned: Outcome[] }> {
    const now = clock.now()
    const claims = await claimDue(db, owner, now, new Date(now.getTime() + leaseFor(size)), size)
    const byOrg = new Map<string, Claim[]>()
    for (const claim of claims) {
      const list = byOrg.get(claim.orgId)
      if (list) list.push(claim)
      else byOrg.set(claim.orgId, [claim])
    }
    const loaded = new Map<string, ClaimedDelivery>()
    for (const [orgId, list] of byOrg) {
      for (const row of await loadClaimed(
        db,
        orgId,
        list.map((claim) => claim.deliveryId),
      ))
        loaded.set(row.id, row)
    }
    const sendable: Sendable[] = []
    const abandoned: Outcome[] = []
    for (const claim of claims) {
      const delivery = loaded.get(claim.deliveryId)
      // A queued delivery that can no longer be sent (gone, finished, endpoint disabled or deleted) ends as failed.
      const endpointId = delivery?.endpoint_id ?? null
      if (!delivery || delivery.status !== 'pending')
        abandoned.push({ claim, endpointId, abandoned: 'nothing to deliver' })
      else if (delivery.deleted_at) abandoned.push({ claim, endpointId, abandoned: 'the webhook was deleted' })
      else if (delivery.endpoint_status !== 'enabled' || !delivery.secret_sealed)
        abandoned.push({ claim, endpointId, abandoned: 'the webhook is disabled' })
      else sendable.push({ claim, delivery })
    }
    return { claimed: claims.length, sendable, abandoned }
  }

  /**
   * One round: `concurrency` lanes send while the next claim is made ahead of them and
   * finished outcomes are recorded behind them in batches, so no lane waits for the
   * slowest attempt of a claim or for the database. Claiming stops when nothing more is
   * due or the round's time is up; the round ends once everything it claimed is recorded.
   */
  async function round(owner: LeaseOwner): Promise<number> {
    const deadline = performance.now() + ROUND_BUDGET_MS
    const ready: Sendable[] = []
    const finished: Outcome[] = []
    const errors: unknown[] = []
    let more = true
    let claiming: Promise<void> | null = null
    let recording: Promise<void> | null = null
    let recordTimer: NodeJS.Timeout | undefined
    let busy = 0
    let handled = 0
    // The size of the claim made last, and the attempts finished since: how many were quick successes, and whether any was not.
    let claimSize = pacing.claimSize
    let quickSince = 0
    let slowSince = false

    const refill = (): void => {
      if (claiming || !more || ready.length >= concurrency) return
      if (performance.now() >= deadline) {
        more = false
        return
      }
      // The round's first claim has seen no attempt yet, so it is the first size.
      claimSize = nextClaimSize(claimSize, quickSince > 0 && !slowSince, pacing)
      quickSince = 0
      slowSince = false
      const size = claimSize
      deps.onClaim?.(size)
      claiming = claimNext(owner, size)
        .then(
          ({ claimed, sendable, abandoned }) => {
            handled += claimed
            ready.push(...sendable)
            finished.push(...abandoned)
            if (claimed < size) more = false
          },
          (error: unknown) => {
            errors.push(error)
            more = false
          },
        )
        .finally(() => {
          claiming = null
          record(false)
        })
    }

    // Outcomes are recorded together: once a claim's worth has gathered, when no attempt is under way, or after a short wait.
    const record = (force: boolean): void => {
      if (recording || finished.length === 0) return
      if (!force && finished.length < claimSize && busy > 0) {
        recordTimer ??= setTimeout(() => {
          recordTimer = undefined
          record(true)
        }, RECORD_WAIT_MS)
        return
      }
      clearTimeout(recordTimer)
      recordTimer = undefined
      recording = recorder
        .record(finished.splice(0, finished.length))
        .catch((error: unknown) => void errors.push(error))
        .finally(() => {
          recording = null
          record(false)
        })
    }

    const next = async (): Promise<Sendable | undefined> => {
      for (;;) {
        const item = ready.shift()
        refill()
        if (item) return item
        if (!claiming) return undefined
        await claiming
      }
    }

    const lane = async (): Promise<void> => {
      for (let item = await next(); item; item = await next()) {
        busy += 1
        try {
          const result = await attempt(item)
          if (result && result.outcome === 'success' && result.latencyMs <= QUICK_ATTEMPT_MS) quickSince += 1
          else slowSince = true
          if (result) finished.push({ claim: item.claim, endpointId: item.delivery.endpoint_id, attempt: result })
        } catch (error) {
          // Unrecorded, the claim is recovered once this round's owner is gone, and sent again.
          errors.push(error)
        } finally {
          busy -= 1
        }
        record(false)
        // Sending never runs far ahead of recording.
        while (finished.length >= 2 * claimSize && recording) await recording
      }
    }

    await Promise.all(Array.from({ length: concurrency }, lane))
    while (finished.length > 0 || recording) {
      record(true)
      await recording
    }
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} failure(s) while delivering webhooks`)
    return handled
  }

  return {
    name: 'webhook-deliveries',
    everyMs: SECOND,
    async run() {
      const now = clock.now()
      // Cheap look first: an idle worker takes no lease owner (no connection on PostgreSQL).
      const anything = await db.global
        .selectFrom('webhook_queue')
        .select('delivery_id')
        .where('due_at', '<=', now)
        .limit(1)
        .executeTakeFirst()
      if (!anything) return 0
      const owner = await takeLeaseOwner(db)
      try {
        return await round(owner)
      } finally {
        // Anything claimed but not recorded (a failure) is recoverable from here on.
        await owner.release()
      }
    },
  }
}

/** Deletes finished deliveries (and their attempts) older than `retentionMs`, org by org. */
export function createPruneJob(deps: { db: Database; clock: Clock; retentionMs?: number }): Job {
  const retentionMs = deps.retentionMs ?? 30 * DAY
  return {
    name: 'webhook-prune',
    everyMs: HOUR,
    async run() {
      const cutoff = new Date(deps.clock.now().getTime() - retentionMs)
      const orgs = await deps.db.global
        .selectFrom('webhook_queue')
        .select('tenant_org')
        .distinct()
        .where('finished_at', '<', cutoff)
        .limit(100)
        .execute()
      let pruned = 0
      for (const { tenant_org: orgId } of orgs) {
        pruned += await deps.db.tx({ orgId }, async (tx) => {
          const old = await tx
            .selectFrom('webhook_queue')
            .select('delivery_id')
            .where('tenant_org', '=', orgId)
            .where('finished_at', '<', cutoff)
            .limit(1000)
            .execute()
          const ids = old.map((row) => row.delivery_id)
          if (ids.length === 0) return 0
          await tx.deleteFrom('webhook_attempts').where('org_id', '=', orgId).where('delivery_id', 'in', ids).execute()
          await tx.deleteFrom('webhook_deliveries').where('org_id', '=', orgId).where('id', 'in', ids).execute()
          await tx.deleteFrom('webhook_queue').where('delivery_id', 'in', ids).execute()
          return ids.length
        })
      }
      return pruned
    },
  }
}
