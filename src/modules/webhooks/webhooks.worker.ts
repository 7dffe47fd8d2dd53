import type { Database, Tx } from '../../db/database.js'
import { DAY, HOUR, SECOND, type Clock } from '../../platform/clock.js'
import type { SecretBox } from '../../platform/crypto.js'
import type { AuditLog } from '../audit/audit.service.js'
import type { Job } from '../../worker/worker.js'
import { claimDue, takeLeaseOwner, type Claim } from './webhooks.claims.js'
import { sendAttempt, type AttemptOutcome } from './webhooks.http.js'
import { presentWebhook, type DeliveryRow, type EndpointRow } from './webhooks.repo.js'
import { signedHeaders } from './webhooks.signing.js'
import { resolveTarget, type HostLookup } from './webhooks.ssrf.js'
import type { AttemptStatus } from './webhooks.tables.js'

/** Seconds before each attempt: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const DEFAULT_RETRY_SCHEDULE = [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400] as const
export const DISABLE_AFTER_FAILING_MS = 5 * DAY
export const ATTEMPT_TIMEOUT_MS = 15 * SECOND
const MAX_RETRY_AFTER_MS = DAY

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
  /** Deliveries claimed (and sent concurrently) per round. */
  batchSize?: number
}

/** What one attempt did, as the log and the state machine need it. */
interface AttemptRecord {
  status: AttemptStatus
  outcome: AttemptOutcome['kind'] | 'blocked'
  startedAt: Date
  httpStatus: number | null
  latencyMs: number
  responseBody: string | null
  error: string | null
  address: string | null
  retryAfter: string | null
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (header === null) return null
  const trimmed = header.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * SECOND
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime())
}

export function createDeliveryJob(deps: DeliveryWorkerDeps): Job {
  const { db, clock, audit, box } = deps
  const timeoutMs = deps.timeoutMs ?? ATTEMPT_TIMEOUT_MS
  // A lease outlives any attempt, so a live worker's claim never expires under it.
  const leaseMs = timeoutMs + 15 * SECOND
  const batchSize = deps.batchSize ?? 8

  function nextDelayMs(index: number, retryAfter: string | null, now: Date): number {
    const base = (deps.schedule[index] ?? 0) * SECOND
    const asked = retryAfterMs(retryAfter, now)
    const delay = asked === null ? base : Math.max(base, Math.min(asked, MAX_RETRY_AFTER_MS))
    return Math.round(delay * (1 + Math.random() * deps.jitter))
  }

  async function attempt(delivery: DeliveryRow, endpoint: EndpointRow): Promise<AttemptRecord> {
    const startedAt = clock.now()
    const url = new URL(endpoint.url)
    const target = await resolveTarget(url, { allowLoopback: deps.allowLoopback, lookup: deps.lookup })
    const base = { startedAt, httpStatus: null, latencyMs: 0, responseBody: null, retryAfter: null }
    if (target.kind === 'blocked') return { ...base, status: 'blocked', outcome: 'blocked', error: `blocked: ${target.reason}`, address: null }
    if (target.kind === 'unresolved') return { ...base, status: 'failed', outcome: 'failure', error: target.reason, address: null }
    let secrets: string[]
    try {
      secrets = [box.open(endpoint.secret_sealed!)]
      if (endpoint.previous_secret_sealed && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > startedAt) {
        secrets.push(box.open(endpoint.previous_secret_sealed))
      }
    } catch {
      return { ...base, status: 'failed', outcome: 'failure', error: 'the signing secret cannot be decrypted: SECRETS_KEY differs from the key it was stored with', address: null }
    }
    const headers = signedHeaders({
      secrets,
      deliveryId: delivery.id,
      eventType: delivery.event_type,
      timestampSeconds: Math.floor(startedAt.getTime() / 1000),
      body: delivery.payload,
    })
    const outcome = await sendAttempt({ url, address: target.address, family: target.family, headers: { ...headers }, body: delivery.payload, timeoutMs })
    return { ...outcome, startedAt, status: outcome.kind === 'success' ? 'succeeded' : 'failed', outcome: outcome.kind, address: target.address }
  }

  /** Disables an endpoint on the system's behalf and tells the org (webhook.disabled). */
  async function disableEndpoint(tx: Tx, endpoint: EndpointRow, reason: string, now: Date): Promise<void> {
    const updated = await tx
      .updateTable('webhook_endpoints')
      .set({ status: 'disabled', disabled_reason: reason, updated_at: now })
      .where('org_id', '=', endpoint.org_id)
      .where('id', '=', endpoint.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    const org = await tx.selectFrom('orgs').select('system_user_id').where('org_id', '=', endpoint.org_id).executeTakeFirstOrThrow()
    await audit.append(tx, { orgId: endpoint.org_id, actor: { userId: org.system_user_id } }, 'webhook.disabled', { type: 'webhook', id: endpoint.id }, presentWebhook(updated))
  }

  /** Records the attempt and moves the delivery on, in one transaction with its queue entry. */
  async function record(claim: Claim, deliveryId: string, result: AttemptRecord): Promise<void> {
    await db.tx({ orgId: claim.orgId }, async (tx) => {
      const now = clock.now()
      const delivery = await tx.selectFrom('webhook_deliveries').selectAll().where('org_id', '=', claim.orgId).where('id', '=', deliveryId).forUpdate().executeTakeFirstOrThrow()
      const endpoint = await tx.selectFrom('webhook_endpoints').selectAll().where('org_id', '=', claim.orgId).where('id', '=', delivery.endpoint_id).forUpdate().executeTakeFirstOrThrow()
      const queued = await tx.selectFrom('webhook_queue').select('lease_token').where('delivery_id', '=', deliveryId).forUpdate().executeTakeFirst()
      const attemptNo = delivery.attempt_count + 1
      await tx
        .insertInto('webhook_attempts')
        .values({
          org_id: claim.orgId,
          delivery_id: deliveryId,
          attempt: attemptNo,
          endpoint_id: endpoint.id,
          trigger: delivery.redelivery_requested ? 'redelivery' : 'scheduled',
          started_at: result.startedAt,
          status: result.status,
          http_status: result.httpStatus,
          latency_ms: result.latencyMs,
          response_body: result.responseBody,
          error: result.error,
          address: result.address,
        })
        .execute()
      const common = { attempt_count: attemptNo, last_http_status: result.httpStatus, last_error: result.error, updated_at: now, redelivery_requested: false }
      // Our lease was recovered by another worker (we stalled): the attempt is logged, the state is theirs.
      if (queued?.lease_token !== claim.token) {
        await tx.updateTable('webhook_deliveries').set(common).where('org_id', '=', claim.orgId).where('id', '=', deliveryId).execute()
        return
      }

      let disableReason: string | null = null
      if (result.outcome === 'success') {
        await tx.updateTable('webhook_endpoints').set({ failing_since: null }).where('org_id', '=', claim.orgId).where('id', '=', endpoint.id).execute()
      } else {
        const failingSince = endpoint.failing_since ?? result.startedAt
        if (result.outcome === 'gone') disableReason = 'the receiver answered 410 Gone'
        else if (now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) disableReason = 'every delivery failed for 5 days'
        await tx.updateTable('webhook_endpoints').set({ failing_since: failingSince }).where('org_id', '=', claim.orgId).where('id', '=', endpoint.id).execute()
        if (disableReason && endpoint.status === 'enabled') await disableEndpoint(tx, endpoint, disableReason, now)
      }

      const nextIndex = delivery.retry_index + 1
      const final = result.outcome !== 'failure' || disableReason !== null || nextIndex >= deps.schedule.length
      const status = result.outcome === 'success' ? 'succeeded' : result.outcome === 'blocked' ? 'blocked' : final ? 'failed' : 'pending'
      const nextAt = final ? null : new Date(now.getTime() + nextDelayMs(nextIndex, result.retryAfter, now))
      await tx
        .updateTable('webhook_deliveries')
        .set({ ...common, status, retry_index: final ? delivery.retry_index : nextIndex, next_attempt_at: nextAt, finished_at: final ? now : null })
        .where('org_id', '=', claim.orgId)
        .where('id', '=', deliveryId)
        .execute()
      await tx
        .updateTable('webhook_queue')
        .set({ due_at: nextAt, finished_at: final ? now : null, leased_until: null, lease_owner: null, lease_token: null })
        .where('delivery_id', '=', deliveryId)
        .execute()
    })
  }

  /** A queued delivery that can no longer be sent (endpoint disabled or deleted) ends as failed. */
  async function abandon(claim: Claim, delivery: DeliveryRow | undefined, reason: string): Promise<void> {
    await db.tx({ orgId: claim.orgId }, async (tx) => {
      const now = clock.now()
      if (delivery?.status === 'pending') {
        await tx
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', last_error: reason, next_attempt_at: null, finished_at: now, updated_at: now })
          .where('org_id', '=', claim.orgId)
          .where('id', '=', delivery.id)
          .execute()
      }
      await tx
        .updateTable('webhook_queue')
        .set({ due_at: null, finished_at: now, leased_until: null, lease_owner: null, lease_token: null })
        .where('delivery_id', '=', claim.deliveryId)
        .where('lease_token', '=', claim.token)
        .execute()
    })
  }

  async function deliver(claim: Claim): Promise<void> {
    const { delivery, endpoint } = await db.read(claim.orgId, async (reader) => {
      const delivery = await reader.selectFrom('webhook_deliveries').selectAll().where('org_id', '=', claim.orgId).where('id', '=', claim.deliveryId).executeTakeFirst()
      const endpoint = delivery
        ? await reader.selectFrom('webhook_endpoints').selectAll().where('org_id', '=', claim.orgId).where('id', '=', delivery.endpoint_id).executeTakeFirst()
        : undefined
      return { delivery, endpoint }
    })
    if (!delivery || delivery.status !== 'pending' || !endpoint) return abandon(claim, delivery, 'nothing to deliver')
    if (endpoint.deleted_at || endpoint.status !== 'enabled' || !endpoint.secret_sealed) {
      return abandon(claim, delivery, endpoint.deleted_at ? 'the webhook was deleted' : 'the webhook is disabled')
    }
    await record(claim, delivery.id, await attempt(delivery, endpoint))
  }

  return {
    name: 'webhook-deliveries',
    everyMs: SECOND,
    async run() {
      const now = clock.now()
      // Cheap look first: an idle worker takes no lease owner (no connection on PostgreSQL).
      const anything = await db.global.selectFrom('webhook_queue').select('delivery_id').where('due_at', '<=', now).limit(1).executeTakeFirst()
      if (!anything) return 0
      const owner = await takeLeaseOwner(db)
      try {
        const claims = await claimDue(db, owner, now, new Date(now.getTime() + leaseMs), batchSize)
        // One delivery that cannot be processed must not hold back the rest of the batch.
        const results = await Promise.allSettled(claims.map((claim) => deliver(claim)))
        const failed = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected')
        if (failed.length > 0) throw new AggregateError(failed.map((result) => result.reason), `${failed.length} of ${claims.length} deliveries failed to process`)
        return claims.length
      } finally {
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
          const old = await tx.selectFrom('webhook_queue').select('delivery_id').where('tenant_org', '=', orgId).where('finished_at', '<', cutoff).limit(1000).execute()
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
