import type { Database, Tx } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { AuditLog } from '../audit/index.js'
import type { EmailOutbox } from '../email/index.js'
import { planOutcomes, type Outcome, type RecordingRules } from './webhooks.outcomes.js'
import { durableCommit, lockClaimed, writeOutcomes, writeSuccesses } from './webhooks.recording.js'
import { presentWebhook } from './webhooks.repo.js'

/**
 * Records the worker's outcomes: per org, the batch is planned by the rules of
 * webhooks.outcomes.ts and written by the statements of webhooks.recording.ts.
 */

export interface OutcomeRecorder {
  /**
   * Records a batch: per org, one transaction that locks, writes everything in one statement,
   * and commits. Returns the endpoints whose circuit the batch left open.
   */
  record(outcomes: readonly Outcome[]): Promise<Set<string>>
}

export type OutcomeRecorderDeps = {
  db: Database
  clock: Clock
  audit: AuditLog
  /** Emails the org's owners and admins when an endpoint is disabled (absent: a worker run alone in a test). */
  notices?: WebhookNoticeDeps
} & RecordingRules

/** What telling an org its endpoint was disabled needs. */
export interface WebhookNoticeDeps {
  outbox: EmailOutbox
  publicUrl: string
}

export function createOutcomeRecorder(deps: OutcomeRecorderDeps): OutcomeRecorder {
  return {
    async record(outcomes) {
      const opened = new Set<string>()
      const failures: unknown[] = []
      let rest = outcomes
      while (rest.length > 0) {
        const { byOrg, later } = oncePerDelivery(rest)
        // One org's failure leaves the others recorded (its claims are recovered and sent again).
        for (const [orgId, list] of byOrg)
          await recordOrg(deps, orgId, list, opened).catch((error: unknown) => failures.push(error))
        rest = later
      }
      if (failures.length > 0)
        throw new AggregateError(failures, `recording failed for ${failures.length} org batch(es)`)
      return opened
    },
  }
}

/** A delivery appears once per statement (a second outcome for it waits for the next): this statement's, by org, and the later ones. */
function oncePerDelivery(outcomes: readonly Outcome[]): { byOrg: Map<string, Outcome[]>; later: Outcome[] } {
  const seen = new Set<string>()
  const byOrg = new Map<string, Outcome[]>()
  const later: Outcome[] = []
  for (const outcome of outcomes) {
    if (seen.has(outcome.claim.deliveryId)) {
      later.push(outcome)
      continue
    }
    seen.add(outcome.claim.deliveryId)
    const list = byOrg.get(outcome.claim.orgId)
    if (list) list.push(outcome)
    else byOrg.set(outcome.claim.orgId, [outcome])
  }
  return { byOrg, later }
}

/** Disables an endpoint on the system's behalf and tells the org (webhook.disabled, and an email to its owners and admins). */
async function disableEndpoint(
  { audit, notices }: Pick<OutcomeRecorderDeps, 'audit' | 'notices'>,
  tx: Tx,
  orgId: string,
  endpoint: { id: string; reason: string; now: Date; lastError: string | null },
): Promise<void> {
  const { id: endpointId, reason, now } = endpoint
  const updated = await tx
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: reason, updated_at: now })
    .where('org_id', '=', orgId)
    .where('id', '=', endpointId)
    .returningAll()
    .executeTakeFirstOrThrow()
  const org = await tx.selectFrom('orgs').select('system_user_id').where('org_id', '=', orgId).executeTakeFirstOrThrow()
  await audit.append(
    tx,
    { orgId, actor: { userId: org.system_user_id } },
    'webhook.disabled',
    { type: 'webhook', id: endpointId },
    presentWebhook(updated),
  )
  if (!notices) return
  const { name } = await tx.selectFrom('orgs').select('name').where('org_id', '=', orgId).executeTakeFirstOrThrow()
  await notices.outbox.enqueueToMembers(
    tx,
    { orgId, roles: ['owner', 'admin'] },
    {
      kind: 'webhook_disabled',
      variables: {
        org: { name },
        webhook: { id: endpointId, url: updated.url },
        lastError: endpoint.lastError ?? reason,
        link: `${notices.publicUrl}/settings/webhooks/${endpointId}`,
      },
    },
  )
}

/**
 * A batch of plain successes (the usual one) is written in one statement, nothing read or locked
 * first. Returns the outcomes still to record under locks: all of them when the batch is not all
 * successes, else those whose lease was lost meanwhile (their attempts are still logged).
 */
async function recordSuccesses(
  { db, clock }: OutcomeRecorderDeps,
  orgId: string,
  outcomes: readonly Outcome[],
): Promise<readonly Outcome[]> {
  if (!outcomes.every((outcome) => outcome.attempt?.outcome === 'success')) return outcomes
  const successes = outcomes.map(({ claim, attempt }) => ({
    delivery_id: claim.deliveryId,
    lease_token: claim.token,
    trigger: attempt!.trigger,
    started_at: attempt!.startedAt,
    http_status: attempt!.httpStatus,
    latency_ms: attempt!.latencyMs,
    response_body: attempt!.responseBody,
    address: attempt!.address,
  }))
  const recorded = await db.tx({ orgId }, (tx) => writeSuccesses(tx, orgId, clock.now(), successes))
  return outcomes.filter((outcome) => !recorded.has(outcome.claim.deliveryId))
}

/** What the endpoint's last attempt in the batch failed with, as a person reads it. */
function lastError(outcomes: readonly Outcome[], endpointId: string): string | null {
  const attempt = outcomes.filter((outcome) => outcome.endpointId === endpointId).at(-1)?.attempt
  if (!attempt) return null
  return attempt.error ?? (attempt.httpStatus === null ? null : `HTTP ${attempt.httpStatus}`)
}

async function recordOrg(
  deps: OutcomeRecorderDeps,
  orgId: string,
  batch: readonly Outcome[],
  opened: Set<string>,
): Promise<void> {
  const { db, clock } = deps
  const outcomes = await recordSuccesses(deps, orgId, batch)
  if (outcomes.length === 0) return
  const openCircuits = await db.tx({ orgId }, async (tx) => {
    const endpointIds = outcomes.flatMap((outcome) => (outcome.endpointId === null ? [] : [outcome.endpointId]))
    const rows = await lockClaimed(
      tx,
      orgId,
      outcomes.map((outcome) => outcome.claim.deliveryId),
      endpointIds,
    )
    const now = clock.now()
    const plan = planOutcomes(rows, outcomes, now, deps)
    const { writes, disables } = plan
    if (writes.attempts.length + writes.deliveries.length + writes.queue.length === 0) return []
    await writeOutcomes(tx, orgId, now, writes)
    if (disables.length > 0) await durableCommit(tx)
    for (const disable of disables)
      await disableEndpoint(deps, tx, orgId, { ...disable, now, lastError: lastError(outcomes, disable.id) })
    return plan.openCircuits
  })
  for (const id of openCircuits) opened.add(id)
}
