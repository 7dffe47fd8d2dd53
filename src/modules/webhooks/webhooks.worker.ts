import type { Database } from '../../database.js'
import { DAY, HOUR, SECOND, type Clock } from '../../platform/clock.js'
import type { SecretBox } from '../../platform/crypto.js'
import type { AuditLog } from '../audit/index.js'
import type { Job } from '../../worker/worker.js'
import { memo } from '../../platform/memo.js'
import {
  claimDue,
  loadClaimed,
  releaseClaims,
  takeLeaseOwner,
  type Claim,
  type ClaimedDelivery,
  type LeaseOwner,
} from './webhooks.claims.js'
import { DEFAULT_CIRCUIT_RULES, type CircuitRules } from './webhooks.circuit.js'
import { createAgentPool, sendAttempt, type AgentPool } from './webhooks.http.js'
import { createOutcomeRecorder, type WebhookNoticeDeps } from './webhooks.outcome-recorder.js'
import type { AttemptResult, Outcome } from './webhooks.outcomes.js'
import { runRound, type Sendable } from './webhooks.round.js'
import { signedHeaders, signingKey, type SigningKey } from './webhooks.signing.js'
import { resolveTarget, type HostLookup } from './webhooks.ssrf.js'

export { DEFAULT_RETRY_SCHEDULE, DISABLE_AFTER_FAILING_MS, retryAfterMs } from './webhooks.outcomes.js'
export { nextClaimSize } from './webhooks.round.js'

export const ATTEMPT_TIMEOUT_MS = 15 * SECOND
/** Attempts under way at once per worker: several endpoints' worth, so endpoints that hang leave room for the others. */
export const DEFAULT_CONCURRENCY = 64
/**
 * Attempts under way at once to one endpoint, per worker. Against a local receiver 8, 16
 * and 32 measured about the same (the worker's CPU is the limit).
 */
export const ENDPOINT_CONCURRENCY = 16
/**
 * Deliveries of one endpoint leased at once, by all workers together: one largest claim.
 * A worker claims ahead of its attempts; this bounds an endpoint's attempts under way
 * whatever the number of workers (each sends at most ENDPOINT_CONCURRENCY at once). A cap
 * of 64 took four to five times as many claims per delivery to a busy endpoint
 * (docs/decisions-operations.md).
 */
export const ENDPOINT_CLAIM_CAP = 16 * ENDPOINT_CONCURRENCY
/** A round's first claim: one delivery per attempt that may be under way. */
const CLAIMED_PER_LANE = 1
/**
 * While every attempt is answered quickly, each claim of a round is twice the last, up to
 * this many per lane: fewer claims and recordings per delivery (about 15% of the worker's
 * and PostgreSQL's time per delivery against a local receiver), while
 * a slow or failing endpoint keeps claims small.
 */
const MAX_CLAIMED_PER_LANE = 4

/**
 * The worker's sizes (defaults filled in) and the lease they need. A claim is made once
 * fewer than `concurrency` deliveries could start, so a delivery claimed in a claim of
 * `size` waits behind at most ceil(size / concurrency) + 1 rounds of attempts for a slot,
 * and behind at most ceil(endpointCap / endpointConcurrency) - 1 rounds of its own
 * endpoint's attempts (each at most the timeout), then makes its own and is recorded:
 * `leaseFor(size)` covers all that. A round's first claim is `claimSize`; later ones grow
 * to `maxClaimSize` (nextClaimSize). An attempt that would start with less than its timeout
 * plus a margin for recording left is not sent (the claim stays until its lease ends), so no
 * attempt outlives its lease and no other worker can send it meanwhile.
 */
export function deliveryPacing(options: {
  timeoutMs?: number
  concurrency?: number
  endpointConcurrency?: number
  endpointCap?: number
  batchSize?: number
}) {
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY)
  const endpointConcurrency = Math.max(1, Math.min(concurrency, options.endpointConcurrency ?? ENDPOINT_CONCURRENCY))
  const endpointCap = Math.max(endpointConcurrency, options.endpointCap ?? ENDPOINT_CLAIM_CAP)
  const claimSize = Math.max(1, options.batchSize ?? CLAIMED_PER_LANE * concurrency)
  // A fixed batch size stays fixed; the default grows while attempts are quick.
  const maxClaimSize = options.batchSize === undefined ? MAX_CLAIMED_PER_LANE * concurrency : claimSize
  const leaseFor = (size: number) =>
    (Math.ceil(size / concurrency) + Math.ceil(endpointCap / endpointConcurrency) + 1) * timeoutMs + 15 * SECOND
  return {
    timeoutMs,
    concurrency,
    endpointConcurrency,
    endpointCap,
    claimSize,
    maxClaimSize,
    leaseMs: leaseFor(claimSize),
    leaseFor,
    minLeaseLeftMs: timeoutMs + 10 * SECOND,
  }
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
  /** Attempts under way at once to one endpoint (default ENDPOINT_CONCURRENCY). */
  endpointConcurrency?: number
  /** Deliveries of one endpoint leased at once by all workers (default ENDPOINT_CLAIM_CAP). */
  endpointCap?: number
  /** When an endpoint's circuit opens and for how long (default DEFAULT_CIRCUIT_RULES). */
  circuit?: CircuitRules
  /** Deliveries per claim, fixed (default: one per attempt under way, growing to four while attempts are quick). */
  batchSize?: number
  /** Pinned keep-alive agents kept open (default DEFAULT_MAX_AGENTS). */
  maxAgents?: number
  /** Told the size of each claim as it is made (metrics, tests). */
  onClaim?: (size: number) => void
  /** Emails an org whose endpoint the worker disables (absent: a worker run alone in a test). */
  notices?: WebhookNoticeDeps
}

/** What the job keeps across rounds: its sizes, its connections to receivers, the keys and URLs it has read. */
interface Sender {
  deps: DeliveryWorkerDeps
  pacing: ReturnType<typeof deliveryPacing>
  agents: AgentPool
  openSecret: (sealed: string) => SigningKey
  parseUrl: (raw: string) => URL
}

export function createDeliveryJob(deps: DeliveryWorkerDeps): Job {
  const { db, clock } = deps
  const pacing = deliveryPacing(deps)
  const sender: Sender = {
    deps,
    pacing,
    agents: createAgentPool({ timeoutMs: pacing.timeoutMs, ...(deps.maxAgents ? { maxAgents: deps.maxAgents } : {}) }),
    // AES-GCM and the HMAC key imports per attempt are work a cache removes; a rotated secret has a new sealed form.
    openSecret: memo((sealed) => signingKey(deps.box.open(sealed))),
    // Parsed once per endpoint URL (never changed in place: a URL object is only read).
    parseUrl: memo((raw) => new URL(raw)),
  }
  const recorder = createOutcomeRecorder({
    db,
    clock,
    audit: deps.audit,
    schedule: deps.schedule,
    jitter: deps.jitter,
    circuit: deps.circuit ?? DEFAULT_CIRCUIT_RULES,
    ...(deps.notices ? { notices: deps.notices } : {}),
  })
  // The signals of the rounds under way (a stopping worker tells them to stop claiming).
  const rounds = new Set<{ stopped: boolean }>()

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
      const signal = { stopped: false }
      rounds.add(signal)
      try {
        return await runRound(
          pacing,
          {
            claim: (size) => claimNext(sender, owner, size),
            attempt: (sendable) => attempt(sender, sendable),
            record: (outcomes) => recorder.record(outcomes),
            release: (claims: Claim[]) => releaseClaims(db, claims),
            ...(deps.onClaim ? { onClaim: deps.onClaim } : {}),
          },
          signal,
        )
      } finally {
        rounds.delete(signal)
        // Anything claimed but not recorded (a failure) is recoverable from here on.
        await owner.release()
      }
    },
    stop() {
      for (const signal of rounds) signal.stopped = true
    },
  }
}

/** One attempt; null when the lease could no longer cover it (the claim then stays until its lease ends or its owner goes). */
async function attempt(sender: Sender, { claim, delivery }: Sendable): Promise<AttemptResult | null> {
  const { deps, pacing } = sender
  const { clock } = deps
  const startedAt = clock.now()
  const trigger = delivery.redelivery_requested ? 'redelivery' : 'scheduled'
  const url = sender.parseUrl(delivery.url)
  // Resolved and checked at every attempt; the connection then goes to exactly this address.
  const target = await resolveTarget(url, { allowLoopback: deps.allowLoopback, lookup: deps.lookup })
  const base = { startedAt, trigger, httpStatus: null, latencyMs: 0, responseBody: null, retryAfter: null } as const
  if (target.kind === 'blocked')
    return { ...base, status: 'blocked', outcome: 'blocked', error: `blocked: ${target.reason}`, address: null }
  if (target.kind === 'unresolved')
    return { ...base, status: 'failed', outcome: 'failure', error: target.reason, address: null }
  let secrets: SigningKey[]
  try {
    secrets = signingSecrets(sender, delivery, startedAt)
  } catch {
    return {
      ...base,
      status: 'failed',
      outcome: 'failure',
      error: 'the signing secret cannot be decrypted: SECRETS_KEY differs from the key it was stored with',
      address: null,
    }
  }
  if (claim.leasedUntil.getTime() - clock.now().getTime() < pacing.minLeaseLeftMs) return null
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
    timeoutMs: pacing.timeoutMs,
    agents: sender.agents,
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

/** The endpoint's secret, and the previous one while its overlap lasts; throws when one cannot be decrypted. */
function signingSecrets({ openSecret }: Sender, delivery: ClaimedDelivery, startedAt: Date): SigningKey[] {
  const secrets = [openSecret(delivery.secret_sealed!)]
  if (
    delivery.previous_secret_sealed &&
    delivery.previous_secret_expires_at &&
    delivery.previous_secret_expires_at > startedAt
  ) {
    secrets.push(openSecret(delivery.previous_secret_sealed))
  }
  return secrets
}

/** Claims the next deliveries and reads them with their endpoints (one statement per org). */
async function claimNext(
  { deps, pacing }: Sender,
  owner: LeaseOwner,
  size: number,
): Promise<{ claimed: number; sendable: Sendable[]; abandoned: Outcome[] }> {
  const { db, clock } = deps
  const now = clock.now()
  const claims = await claimDue(db, owner, {
    now,
    leaseUntil: new Date(now.getTime() + pacing.leaseFor(size)),
    limit: size,
    endpointCap: pacing.endpointCap,
  })
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
  return { claimed: claims.length, ...sortClaimed(claims, loaded) }
}

/** A queued delivery that can no longer be sent (gone, finished, endpoint disabled or deleted) ends as failed. */
function sortClaimed(
  claims: readonly Claim[],
  loaded: Map<string, ClaimedDelivery>,
): { sendable: Sendable[]; abandoned: Outcome[] } {
  const sendable: Sendable[] = []
  const abandoned: Outcome[] = []
  for (const claim of claims) {
    const delivery = loaded.get(claim.deliveryId)
    const endpointId = delivery?.endpoint_id ?? null
    if (!delivery || delivery.status !== 'pending')
      abandoned.push({ claim, endpointId, abandoned: 'nothing to deliver' })
    else if (delivery.deleted_at) abandoned.push({ claim, endpointId, abandoned: 'the webhook was deleted' })
    else if (delivery.endpoint_status !== 'enabled' || !delivery.secret_sealed)
      abandoned.push({ claim, endpointId, abandoned: 'the webhook is disabled' })
    else sendable.push({ claim, delivery })
  }
  return { sendable, abandoned }
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
          // The queue entries first, locked, then the deliveries: the order of every writer of both.
          const old = await tx
            .selectFrom('webhook_queue')
            .select('delivery_id')
            .where('tenant_org', '=', orgId)
            .where('finished_at', '<', cutoff)
            .limit(1000)
            .forUpdate()
            .skipLocked()
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
