import type { Compilable, Selectable } from 'kysely'
import type { Reader, Tx } from '../../database.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { OrgEvent } from '../audit/index.js'
import { canonicalJson } from '../../platform/canonical-json.js'
import type { Attempt, Delivery, Webhook } from './webhooks.schemas.js'
import type { WebhookTables } from './webhooks.tables.js'

export type EndpointRow = Selectable<WebhookTables['webhook_endpoints']>
export type DeliveryRow = Selectable<WebhookTables['webhook_deliveries']>
export type AttemptRow = Selectable<WebhookTables['webhook_attempts']>

export function presentWebhook(row: EndpointRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    status: row.status,
    disabledReason: row.disabled_reason,
    previousSecretExpiresAt: row.previous_secret_expires_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    updatedAt: row.updated_at.toISOString(),
  }
}

/** What an attempt's log shows of the body it sent. */
export const REQUEST_BODY_SHOWN = 4096

/** The first `limit` bytes of a UTF-8 text, never cutting a character in two. */
export function firstBytes(value: string, limit: number): string {
  const bytes = Buffer.from(value, 'utf8')
  if (bytes.length <= limit) return value
  let end = limit
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--
  return bytes.subarray(0, end).toString('utf8')
}

export function presentAttempt(row: AttemptRow, requestBody: string): Attempt {
  return {
    attempt: row.attempt,
    at: row.started_at.toISOString(),
    trigger: row.trigger,
    status: row.status,
    httpStatus: row.http_status,
    latencyMs: row.latency_ms,
    requestBody,
    responseBody: row.response_body,
    error: row.error,
    address: row.address,
  }
}

export function presentDelivery(row: DeliveryRow, attempts: readonly AttemptRow[]): Delivery {
  const requestBody = firstBytes(row.payload, REQUEST_BODY_SHOWN)
  return {
    id: row.id,
    webhookId: row.endpoint_id,
    eventId: row.event_id,
    type: row.event_type,
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    lastHttpStatus: row.last_http_status,
    lastError: row.last_error,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    attempts: attempts
      .filter((attempt) => attempt.delivery_id === row.id)
      .map((attempt) => presentAttempt(attempt, requestBody)),
  }
}

const text = (value: string): string => JSON.stringify(value)

/**
 * The delivery body: the exact bytes that are signed and sent on every attempt. The event
 * record in presentEvent's member order, `data` in its canonical (RFC 8785) form: the same
 * bytes queue_webhook_deliveries (migration 0007) writes for deliveries made by an append.
 */
export function deliveryPayload(event: OrgEvent, kind: string): string {
  const data = canonicalJson(event.data)
  const resource = event.resource ? `{"type":${text(event.resource.type)},"id":${text(event.resource.id)}}` : 'null'
  const record =
    `{"id":${text(event.id)},"orgId":${text(event.orgId)},"action":${text(event.action)},"userId":${text(event.userId)},` +
    `"createdAt":${text(event.createdAt)},"hash":${text(event.hash)},"sequence":${event.sequence},"resource":${resource},"data":${data}}`
  return `{"id":${text(event.id)},"type":${text(kind)},"createdAt":${text(event.createdAt)},"orgId":${text(event.orgId)},"data":{"event":${record}${event.resource ? `,"object":${data}` : ''}}}`
}

/** One delivery to write: an event, to one endpoint, as one kind. */
export interface DeliveryInput {
  event: OrgEvent
  endpointId: string
  kind: string
}

/** Rows per insert statement: a delivery carries its payload, so statements stay a few MB at most. */
const DELIVERY_CHUNK = 500

/** The delivery rows (pending, due after the schedule's first delay) for a run of events. */
function deliveryRows(input: {
  ids: IdGenerator
  deliveries: readonly DeliveryInput[]
  now: Date
  firstDelaySeconds: number
}): DeliveryRow[] {
  const due = new Date(input.now.getTime() + input.firstDelaySeconds * 1000)
  return input.deliveries.map(({ event, endpointId, kind }) => ({
    org_id: event.orgId,
    id: input.ids.next('delivery'),
    endpoint_id: endpointId,
    event_id: event.id,
    event_type: kind,
    payload: deliveryPayload(event, kind),
    status: 'pending',
    attempt_count: 0,
    retry_index: 0,
    redelivery_requested: false,
    next_attempt_at: due,
    last_http_status: null,
    last_error: null,
    created_at: input.now,
    updated_at: input.now,
    finished_at: null,
  }))
}

/** The statements that write deliveries and their queue entries (in chunks), for the transaction of their events. */
function deliveryWrites(tx: Tx, rows: readonly DeliveryRow[]): Compilable[] {
  const writes: Compilable[] = []
  for (let start = 0; start < rows.length; start += DELIVERY_CHUNK) {
    const chunk = rows.slice(start, start + DELIVERY_CHUNK)
    writes.push(tx.insertInto('webhook_deliveries').values(chunk))
    writes.push(
      tx.insertInto('webhook_queue').values(
        chunk.map((row) => ({
          delivery_id: row.id,
          tenant_org: row.org_id,
          endpoint_id: row.endpoint_id,
          due_at: row.next_attempt_at,
        })),
      ),
    )
  }
  return writes
}

/** Writes deliveries and their queue entries now, inside the transaction of their events. */
export async function insertDeliveries(
  tx: Tx,
  input: { ids: IdGenerator; deliveries: readonly DeliveryInput[]; now: Date; firstDelaySeconds: number },
): Promise<DeliveryRow[]> {
  const rows = deliveryRows(input)
  for (const write of deliveryWrites(tx, rows)) await tx.executeQuery(write.compile())
  return rows
}

/** Writes one delivery and its queue entry, inside the transaction of the event. */
export async function insertDelivery(
  tx: Tx,
  input: { ids: IdGenerator; event: OrgEvent; endpointId: string; kind: string; now: Date; firstDelaySeconds: number },
): Promise<DeliveryRow> {
  const [row] = await insertDeliveries(tx, {
    ids: input.ids,
    deliveries: [{ event: input.event, endpointId: input.endpointId, kind: input.kind }],
    now: input.now,
    firstDelaySeconds: input.firstDelaySeconds,
  })
  return row!
}

export async function attemptsOf(
  reader: Reader | Tx,
  orgId: string,
  deliveryIds: readonly string[],
): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return []
  return reader
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('attempt', 'asc')
    .execute()
}

/** Deletes an endpoint's circuit (closed, no failure counted): it is enabled again, or deleted. */
export async function forgetCircuit(tx: Tx, orgId: string, endpointId: string): Promise<void> {
  await tx
    .deleteFrom('webhook_circuits')
    .where('endpoint_id', '=', endpointId)
    .where('tenant_org', '=', orgId)
    .execute()
}
