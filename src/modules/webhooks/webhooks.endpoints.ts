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
import { forgetCircuit, presentWebhook, type EndpointRow } from './webhooks.repo.js'
import type { CreateWebhookBody, Webhook, WebhookListQuery } from './webhooks.schemas.js'
import { newSigningSecret } from './webhooks.signing.js'
import { addressRisk, checkWebhookUrl, type HostLookup } from './webhooks.ssrf.js'

/** What create and rotate answer: the secret is shown in that response only. */
export type WebhookWithNewSecret = Webhook & { signingSecret: string }

/** How long the previous secret keeps signing after a rotation. */
export const SECRET_OVERLAP_MS = 24 * HOUR

/** An org's webhook endpoints: created, read, changed, deleted. */
export interface WebhookEndpoints {
  create(ctx: RequestContext, body: CreateWebhookBody, answer?: StoredAnswer): Promise<WebhookWithNewSecret>
  list(ctx: RequestContext, query: WebhookListQuery): Promise<Page<Webhook>>
  get(ctx: RequestContext, id: string): Promise<Webhook>
  remove(ctx: RequestContext, id: string): Promise<void>
  disable(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<Webhook>
  enable(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<Webhook>
  rotateSecret(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<WebhookWithNewSecret>
}

export interface WebhookEndpointsDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: AuditLog
  box: SecretBox
  allowLoopback: boolean
  lookup: HostLookup
}

export function createWebhookEndpoints(deps: WebhookEndpointsDeps): WebhookEndpoints {
  return {
    create: (ctx, body, answer) => createEndpoint(deps, ctx, body, answer),
    list: (ctx, query) => listEndpoints(deps.db, ctx, query),
    get: (ctx, id) => getWebhook(deps.db, ctx, id),
    async remove(ctx, id) {
      // Soft delete: the delivery log stays until pruned; secrets are wiped now.
      await change(
        deps,
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
    disable: (ctx, id, answer) =>
      change(
        deps,
        ctx,
        id,
        'webhook.disabled',
        (current) =>
          current.status === 'disabled'
            ? null
            : { status: 'disabled', disabled_reason: `disabled by ${ctx.actor.userId}` },
        answer,
      ),
    // Enabled again, it starts afresh: no failure streak, a closed circuit.
    enable: (ctx, id, answer) =>
      change(
        deps,
        ctx,
        id,
        'webhook.enabled',
        (current) =>
          current.status === 'enabled' ? null : { status: 'enabled', disabled_reason: null, failing_since: null },
        answer,
        (tx) => forgetCircuit(tx, ctx.orgId, id),
      ),
    rotateSecret: (ctx, id, answer) => rotateSecret(deps, ctx, id, answer),
  }
}

async function checkUrl({ allowLoopback, lookup }: WebhookEndpointsDeps, raw: string): Promise<string> {
  const checked = checkWebhookUrl(raw, allowLoopback)
  if (!checked.isLiteral && !checked.loopback) {
    // A name that cannot be resolved yet is accepted: every attempt resolves and checks it again.
    const addresses = await lookup(checked.url.hostname).catch(() => [])
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

/** The org's endpoint, not deleted; `lock`: held against other changes until the transaction ends. */
export async function findEndpoint(tx: Tx, orgId: string, id: string, lock = true): Promise<EndpointRow> {
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
  { db, clock, audit }: WebhookEndpointsDeps,
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

export async function getWebhook(db: Database, ctx: RequestContext, id: string): Promise<Webhook> {
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

async function createEndpoint(
  deps: WebhookEndpointsDeps,
  ctx: RequestContext,
  body: CreateWebhookBody,
  answer?: StoredAnswer,
): Promise<WebhookWithNewSecret> {
  const { db, clock, ids, audit, box } = deps
  const events = checkKinds(body.events)
  const url = await checkUrl(deps, body.url)
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
}

async function listEndpoints(db: Database, ctx: RequestContext, query: WebhookListQuery): Promise<Page<Webhook>> {
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
}

async function rotateSecret(
  deps: WebhookEndpointsDeps,
  ctx: RequestContext,
  id: string,
  answer?: StoredAnswer,
): Promise<WebhookWithNewSecret> {
  const signingSecret = newSigningSecret()
  const webhook = await change(
    deps,
    ctx,
    id,
    'webhook.secret_rotated',
    (current, now) => ({
      secret_sealed: deps.box.seal(signingSecret),
      previous_secret_sealed: current.secret_sealed,
      previous_secret_expires_at: new Date(now.getTime() + SECRET_OVERLAP_MS),
    }),
    answer,
  )
  return { ...webhook, signingSecret }
}
