import type { Database, Tx } from '../../database.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import type { Clock } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import { AppError, notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import { decodeCursor, olderThan, type Page, toPage } from '../../platform/pagination.js'
import type { AuditLog } from '../audit/index.js'
import { findEndpoint, getWebhook } from './webhooks.endpoints.js'
import { attemptsOf, insertDelivery, presentDelivery } from './webhooks.repo.js'
import {
  REDELIVER_FAILED_LIMIT,
  type Delivery,
  type DeliveryListQuery,
  type RedeliverFailedBody,
  type RedeliverFailedResult,
} from './webhooks.schemas.js'

/** An endpoint's deliveries: a test event sent, the log read, a delivery sent again. */
export interface WebhookDeliveries {
  test(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<Delivery>
  listDeliveries(ctx: RequestContext, id: string, query: DeliveryListQuery): Promise<Page<Delivery>>
  redeliver(ctx: RequestContext, id: string, deliveryId: string, answer?: StoredAnswer): Promise<Delivery>
  redeliverFailed(
    ctx: RequestContext,
    id: string,
    body: RedeliverFailedBody,
    answer?: StoredAnswer,
  ): Promise<RedeliverFailedResult>
}

export interface WebhookDeliveriesDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: AuditLog
  /** Seconds before each attempt; the first entry delays the first attempt. */
  schedule: readonly number[]
}

export function createWebhookDeliveries(deps: WebhookDeliveriesDeps): WebhookDeliveries {
  return {
    test: (ctx, id, answer) => sendTest(deps, ctx, id, answer),
    listDeliveries: (ctx, id, query) => listDeliveries(deps.db, ctx, id, query),
    redeliver: (ctx, id, deliveryId, answer) =>
      deps.db.tx(ctx, (tx) => redeliver(deps, tx, ctx, id, deliveryId), { commitWith: answer }),
    redeliverFailed: (ctx, id, body, answer) =>
      deps.db.tx(ctx, (tx) => redeliverFailed(deps, tx, ctx, id, new Date(body.since)), { commitWith: answer }),
  }
}

async function sendTest(
  { db, clock, ids, audit, schedule }: WebhookDeliveriesDeps,
  ctx: RequestContext,
  id: string,
  answer?: StoredAnswer,
): Promise<Delivery> {
  const firstDelaySeconds = schedule[0] ?? 0
  return db.tx(
    ctx,
    async (tx) => {
      const endpoint = await findEndpoint(tx, ctx.orgId, id, false)
      if (endpoint.status !== 'enabled')
        throw new AppError('invalid_state', 'This webhook is disabled; enable it before sending a test event')
      // Appended now, not at commit: the test delivery carries the event as chained.
      const [event] = await audit.appendNow(tx, ctx, [
        { action: 'webhook.test', resource: { type: 'webhook', id }, data: { webhookId: id, url: endpoint.url } },
      ])
      const delivery = await insertDelivery(tx, {
        ids,
        event: event!,
        endpointId: id,
        kind: 'webhook.test',
        now: clock.now(),
        firstDelaySeconds,
      })
      return presentDelivery(delivery, [])
    },
    { commitWith: answer },
  )
}

async function listDeliveries(
  db: Database,
  ctx: RequestContext,
  id: string,
  query: DeliveryListQuery,
): Promise<Page<Delivery>> {
  await getWebhook(db, ctx, id)
  const filters = { status: query.status }
  const after = decodeCursor(query.cursor, filters, 2)
  const { rows, attempts } = await db.read(ctx.orgId, async (reader) => {
    let select = reader
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('org_id', '=', ctx.orgId)
      .where('endpoint_id', '=', id)
    if (query.status) select = select.where('status', '=', query.status)
    if (after) select = select.where(olderThan(after, 'created_at', 'id'))
    const rows = await select
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit + 1)
      .execute()
    return {
      rows,
      attempts: await attemptsOf(
        reader,
        ctx.orgId,
        rows.slice(0, query.limit).map((row) => row.id),
      ),
    }
  })
  return toPage(
    rows,
    query.limit,
    (row) => [row.created_at.toISOString(), row.id],
    (row) => presentDelivery(row, attempts),
    filters,
  )
}

/** A delivery sent again: pending now, at the start of its retry schedule. */
const restarted = (now: Date) => ({
  status: 'pending' as const,
  retry_index: 0,
  redelivery_requested: true,
  next_attempt_at: now,
  finished_at: null,
  updated_at: now,
})

/** A fresh run of the retry schedule, under the same delivery id, in the caller's transaction. */
async function redeliver(
  { clock, audit }: WebhookDeliveriesDeps,
  tx: Tx,
  ctx: RequestContext,
  id: string,
  deliveryId: string,
): Promise<Delivery> {
  const endpoint = await findEndpoint(tx, ctx.orgId, id, false)
  if (endpoint.status !== 'enabled')
    throw new AppError('invalid_state', 'This webhook is disabled; enable it before redelivering')
  // The queue entry first, then the delivery: the order every writer of both takes (the
  // worker's recordings included), so a redelivery never deadlocks with an attempt's recording.
  const now = clock.now()
  const queued = await tx
    .selectFrom('webhook_queue')
    .select(['leased_until'])
    .where('delivery_id', '=', deliveryId)
    .where('tenant_org', '=', ctx.orgId)
    .where('endpoint_id', '=', id)
    .forNoKeyUpdate()
    .executeTakeFirst()
  const delivery = await tx
    .selectFrom('webhook_deliveries')
    .select(['id'])
    .where('org_id', '=', ctx.orgId)
    .where('endpoint_id', '=', id)
    .where('id', '=', deliveryId)
    // NO KEY UPDATE: a worker's attempt row (whose foreign key takes a key-share lock on the delivery) does not wait for it.
    .forNoKeyUpdate()
    .executeTakeFirst()
  if (!delivery) throw notFound('delivery')
  if (queued?.leased_until && queued.leased_until.getTime() > now.getTime()) {
    throw new AppError('conflict', 'An attempt of this delivery is in progress; redeliver it once it has finished', {
      headers: { 'retry-after': '15' },
    })
  }
  const updated = await tx
    .updateTable('webhook_deliveries')
    .set(restarted(now))
    .where('org_id', '=', ctx.orgId)
    .where('id', '=', deliveryId)
    .returningAll()
    .executeTakeFirstOrThrow()
  await requeue(tx, ctx.orgId, id, deliveryId, now)
  await audit.append(
    tx,
    ctx,
    'webhook.redelivered',
    { type: 'webhook_delivery', id: deliveryId },
    { webhookId: id, deliveryId },
  )
  return presentDelivery(updated, await attemptsOf(tx, ctx.orgId, [deliveryId]))
}

/**
 * Every failed delivery of the endpoint created since `since` (oldest first, at most
 * REDELIVER_FAILED_LIMIT), each a fresh run of the schedule and a webhook.redelivered event.
 * Locks in the order redeliver takes (queue entries, then deliveries); an entry under an
 * attempt's lease is skipped, as it is being sent.
 */
async function redeliverFailed(
  { clock, audit }: WebhookDeliveriesDeps,
  tx: Tx,
  ctx: RequestContext,
  id: string,
  since: Date,
): Promise<RedeliverFailedResult> {
  const endpoint = await findEndpoint(tx, ctx.orgId, id, false)
  if (endpoint.status !== 'enabled')
    throw new AppError('invalid_state', 'This webhook is disabled; enable it before redelivering')
  const now = clock.now()
  const failed = await tx
    .selectFrom('webhook_deliveries')
    .select(['id'])
    .where('org_id', '=', ctx.orgId)
    .where('endpoint_id', '=', id)
    .where('status', '=', 'failed')
    .where('created_at', '>=', since)
    .orderBy('created_at')
    .orderBy('id')
    .limit(REDELIVER_FAILED_LIMIT + 1)
    .execute()
  const chosen = failed.slice(0, REDELIVER_FAILED_LIMIT).map((row) => row.id)
  if (chosen.length === 0) return { redelivered: 0, more: false }
  // Queue entries, then deliveries, each in id order: the order every writer of both takes.
  const queued = await tx
    .selectFrom('webhook_queue')
    .select(['delivery_id', 'leased_until'])
    .where('tenant_org', '=', ctx.orgId)
    .where('delivery_id', 'in', chosen)
    .orderBy('delivery_id')
    .forNoKeyUpdate()
    .execute()
  const sending = new Set(
    queued.filter((entry) => entry.leased_until && entry.leased_until > now).map((entry) => entry.delivery_id),
  )
  const locked = await tx
    .selectFrom('webhook_deliveries')
    .select(['id'])
    .where('org_id', '=', ctx.orgId)
    .where('id', 'in', chosen)
    .where('status', '=', 'failed')
    .orderBy('id')
    .forNoKeyUpdate()
    .execute()
  const ready = locked.map((row) => row.id).filter((deliveryId) => !sending.has(deliveryId))
  const updated =
    ready.length === 0
      ? []
      : await tx
          .updateTable('webhook_deliveries')
          .set(restarted(now))
          .where('org_id', '=', ctx.orgId)
          .where('id', 'in', ready)
          .returning(['id'])
          .execute()
  for (const { id: deliveryId } of updated) {
    await requeue(tx, ctx.orgId, id, deliveryId, now)
    await audit.append(
      tx,
      ctx,
      'webhook.redelivered',
      { type: 'webhook_delivery', id: deliveryId },
      { webhookId: id, deliveryId },
    )
  }
  return { redelivered: updated.length, more: failed.length > REDELIVER_FAILED_LIMIT }
}

/** The delivery's queue entry due now, its lease cleared (inserted when the queue no longer has it). */
async function requeue(tx: Tx, orgId: string, endpointId: string, deliveryId: string, now: Date): Promise<void> {
  await tx
    .insertInto('webhook_queue')
    .values({ delivery_id: deliveryId, tenant_org: orgId, endpoint_id: endpointId, due_at: now })
    .onConflict((conflict) =>
      conflict.column('delivery_id').doUpdateSet({
        due_at: now,
        finished_at: null,
        leased_until: null,
        lease_owner: null,
        lease_token: null,
      }),
    )
    .execute()
}
