import type { Database, Tx } from '../../database.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import { HOUR, type Clock } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import type { SecretBox } from '../../platform/crypto.js'
import { AppError, notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import { decodeCursor, olderThan, type Page, toPage } from '../../platform/pagination.js'
import type { AuditLog } from '../audit/index.js'
import { isKnownKind } from './webhooks.kinds.js'
import {
  attemptsOf,
  forgetCircuit,
  insertDelivery,
  presentDelivery,
  presentWebhook,
  type EndpointRow,
} from './webhooks.repo.js'
import type { CreateWebhookBody, Delivery, DeliveryListQuery, Webhook, WebhookListQuery } from './webhooks.schemas.js'

/** What create and rotate answer: the secret is shown in that response only. */
export type WebhookWithNewSecret = Webhook & { signingSecret: string }
import { newSigningSecret } from './webhooks.signing.js'
import { addressRisk, checkWebhookUrl, type HostLookup } from './webhooks.ssrf.js'

/** How long the previous secret keeps signing after a rotation. */
export const SECRET_OVERLAP_MS = 24 * HOUR

export interface WebhookService {
  create(ctx: RequestContext, body: CreateWebhookBody, answer?: StoredAnswer): Promise<WebhookWithNewSecret>
  list(ctx: RequestContext, query: WebhookListQuery): Promise<Page<Webhook>>
  get(ctx: RequestContext, id: string): Promise<Webhook>
  remove(ctx: RequestContext, id: string): Promise<void>
  disable(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<Webhook>
  enable(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<Webhook>
  rotateSecret(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<WebhookWithNewSecret>
  test(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<Delivery>
  listDeliveries(ctx: RequestContext, id: string, query: DeliveryListQuery): Promise<Page<Delivery>>
  redeliver(ctx: RequestContext, id: string, deliveryId: string, answer?: StoredAnswer): Promise<Delivery>
}

export interface WebhookServiceDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: AuditLog
  box: SecretBox
  allowLoopback: boolean
  lookup: HostLookup
  /** Seconds before each attempt; the first entry delays the first attempt. */
  schedule: readonly number[]
}

export function createWebhookService(deps: WebhookServiceDeps): WebhookService {
  const { db, clock, ids, audit, box } = deps
  const firstDelaySeconds = deps.schedule[0] ?? 0

  async function checkUrl(raw: string): Promise<string> {
    const checked = checkWebhookUrl(raw, deps.allowLoopback)
    if (!checked.isLiteral && !checked.loopback) {
      // A name that cannot be resolved yet is accepted: every attempt resolves and checks it again.
      const addresses = await deps.lookup(checked.url.hostname).catch(() => [])
      for (const entry of addresses) {
        const risk = addressRisk(entry.address)
        if (risk) {
          throw new AppError(
            'parameter_invalid',
            `url points at a refused address: ${checked.url.hostname} resolves to ${entry.address}, ${risk}`,
            { param: 'url' },
          )
        }
      }
    }
    return checked.url.href
  }

  function checkKinds(events: readonly string[]): string[] {
    events.forEach((kind, index) => {
      if (!isKnownKind(kind)) {
        throw new AppError(
          'parameter_invalid',
          `events.${index}: ${kind} is not an event kind; see GET /openapi.json or docs/webhooks.md for the list`,
          {
            param: `events.${index}`,
          },
        )
      }
    })
    return [...new Set(events)]
  }

  async function findEndpoint(tx: Tx, orgId: string, id: string, lock = true): Promise<EndpointRow> {
    let select = tx
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
    // NO KEY UPDATE: changes to the endpoint run one at a time, while a write that queues a
    // delivery to it (a foreign key's key-share lock, taken under the org's chain) never waits
    // for a change that is itself waiting for the chain: FOR UPDATE made the two deadlock.
    if (lock) select = select.forNoKeyUpdate()
    const row = await select.executeTakeFirst()
    if (!row) throw notFound('webhook')
    return row
  }

  /** One audited change to an endpoint: the update, then its org event, in one transaction. */
  async function change(
    ctx: RequestContext,
    id: string,
    action: string,
    update: (row: EndpointRow, now: Date) => Partial<EndpointRow> | null,
    answer: StoredAnswer | undefined,
    alongside?: (tx: Tx) => Promise<void>,
  ): Promise<Webhook> {
    // The transaction's result is what an idempotent replay shows: the API record, never a secret.
    return db.tx(
      ctx,
      async (tx) => {
        const row = await findEndpoint(tx, ctx.orgId, id)
        const now = clock.now()
        const values = update(row, now)
        if (values === null) return presentWebhook(row)
        const updated = await tx
          .updateTable('webhook_endpoints')
          .set({ ...values, updated_at: now })
          .where('org_id', '=', ctx.orgId)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow()
        await alongside?.(tx)
        const webhook = presentWebhook(updated)
        await audit.append(tx, ctx, action, { type: 'webhook', id }, webhook)
        return webhook
      },
      { commitWith: answer },
    )
  }

  async function getWebhook(ctx: RequestContext, id: string): Promise<Webhook> {
    const row = await db.read(ctx.orgId, (reader) =>
      reader
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('org_id', '=', ctx.orgId)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst(),
    )
    if (!row) throw notFound('webhook')
    return presentWebhook(row)
  }

  return {
    async create(ctx, body, answer) {
      const events = checkKinds(body.events)
      const url = await checkUrl(body.url)
      const signingSecret = newSigningSecret()
      // The transaction's result is what an idempotent replay shows: never the secret.
      const webhook = await db.tx(
        ctx,
        async (tx) => {
          const now = clock.now()
          const row = await tx
            .insertInto('webhook_endpoints')
            .values({
              org_id: ctx.orgId,
              id: ids.next('webhook'),
              url,
              events,
              status: 'enabled',
              disabled_reason: null,
              secret_sealed: box.seal(signingSecret),
              previous_secret_sealed: null,
              previous_secret_expires_at: null,
              failing_since: null,
              created_at: now,
              created_by: ctx.actor.userId,
              updated_at: now,
              deleted_at: null,
            })
            .returningAll()
            .executeTakeFirstOrThrow()
          const created = presentWebhook(row)
          await audit.append(tx, ctx, 'webhook.created', { type: 'webhook', id: row.id }, created)
          return created
        },
        { commitWith: answer },
      )
      return { ...webhook, signingSecret }
    },

    async list(ctx, query) {
      const after = decodeCursor(query.cursor, {}, 2)
      const rows = await db.read(ctx.orgId, (reader) => {
        let select = reader
          .selectFrom('webhook_endpoints')
          .selectAll()
          .where('org_id', '=', ctx.orgId)
          .where('deleted_at', 'is', null)
        if (after) select = select.where(olderThan(after, 'created_at', 'id'))
        return select
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(query.limit + 1)
          .execute()
      })
      return toPage(rows, query.limit, (row) => [row.created_at.toISOString(), row.id], presentWebhook, {})
    },

    get: getWebhook,

    async remove(ctx, id) {
      // Soft delete: the delivery log stays until pruned; secrets are wiped now.
      await change(
        ctx,
        id,
        'webhook.deleted',
        (_row, now) => ({
          deleted_at: now,
          status: 'disabled',
          disabled_reason: 'deleted',
          secret_sealed: null,
          previous_secret_sealed: null,
          previous_secret_expires_at: null,
        }),
        undefined,
        (tx) => forgetCircuit(tx, ctx.orgId, id),
      )
    },

    async disable(ctx, id, answer) {
      return change(
        ctx,
        id,
        'webhook.disabled',
        (current) =>
          current.status === 'disabled'
            ? null
            : { status: 'disabled', disabled_reason: `disabled by ${ctx.actor.userId}` },
        answer,
      )
    },

    async enable(ctx, id, answer) {
      // Enabled again, it starts afresh: no failure streak, a closed circuit.
      return change(
        ctx,
        id,
        'webhook.enabled',
        (current) =>
          current.status === 'enabled' ? null : { status: 'enabled', disabled_reason: null, failing_since: null },
        answer,
        (tx) => forgetCircuit(tx, ctx.orgId, id),
      )
    },

    async rotateSecret(ctx, id, answer) {
      const signingSecret = newSigningSecret()
      const webhook = await change(
        ctx,
        id,
        'webhook.secret_rotated',
        (current, now) => ({
          secret_sealed: box.seal(signingSecret),
          previous_secret_sealed: current.secret_sealed,
          previous_secret_expires_at: new Date(now.getTime() + SECRET_OVERLAP_MS),
        }),
        answer,
      )
      return { ...webhook, signingSecret }
    },

    async test(ctx, id, answer) {
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
    },

    async listDeliveries(ctx, id, query) {
      await getWebhook(ctx, id)
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
    },

    async redeliver(ctx, id, deliveryId, answer) {
      return db.tx(
        ctx,
        async (tx) => {
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
            throw new AppError(
              'conflict',
              'An attempt of this delivery is in progress; redeliver it once it has finished',
              { headers: { 'retry-after': '15' } },
            )
          }
          // A fresh run of the retry schedule, under the same delivery id.
          const updated = await tx
            .updateTable('webhook_deliveries')
            .set({
              status: 'pending',
              retry_index: 0,
              redelivery_requested: true,
              next_attempt_at: now,
              finished_at: null,
              updated_at: now,
            })
            .where('org_id', '=', ctx.orgId)
            .where('id', '=', deliveryId)
            .returningAll()
            .executeTakeFirstOrThrow()
          await tx
            .insertInto('webhook_queue')
            .values({ delivery_id: deliveryId, tenant_org: ctx.orgId, endpoint_id: id, due_at: now })
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
          await audit.append(
            tx,
            ctx,
            'webhook.redelivered',
            { type: 'webhook_delivery', id: deliveryId },
            { webhookId: id, deliveryId },
          )
          return presentDelivery(updated, await attemptsOf(tx, ctx.orgId, [deliveryId]))
        },
        { commitWith: answer },
      )
    },
  }
}
