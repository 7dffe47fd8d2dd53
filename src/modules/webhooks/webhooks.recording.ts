import { sql } from 'kysely'
import type { Tx } from '../../database.js'
import { relaxedCommit } from './webhooks.claims.js'
import type { WebhookTables } from './webhooks.tables.js'

/** The statements that record attempts: the general one (locked, planned in the worker) and the one for plain successes. */

/** Makes the rest of this transaction commit durably again (an org is told something in it). */
export async function durableCommit(tx: Tx): Promise<void> {
  await sql`select set_config(${'synchronous_commit'}, ${'on'}, true)`.execute(tx)
}

type DeliveryColumns = WebhookTables['webhook_deliveries']
type EndpointColumns = WebhookTables['webhook_endpoints']

/** A delivery's state as recording an outcome needs it, with its queue lease and endpoint. */
export type LockedDelivery = Pick<
  DeliveryColumns,
  | 'id'
  | 'endpoint_id'
  | 'status'
  | 'attempt_count'
  | 'retry_index'
  | 'redelivery_requested'
  | 'next_attempt_at'
  | 'last_http_status'
  | 'last_error'
  | 'finished_at'
> &
  Pick<WebhookTables['webhook_queue'], 'lease_token'> &
  Pick<EndpointColumns, 'failing_since'> & {
    endpoint_status: EndpointColumns['status']
    /** The endpoint's circuit (all null: no row, closed). */
    circuit_failures: number | null
    circuit_opened: number | null
    circuit_open_until: Date | null
  }

/**
 * Locks the endpoints (in id order, so two workers recording for the same endpoints
 * cannot deadlock), then each delivery's queue entry and the delivery (the order of every
 * writer of both: `writeSuccesses`, a redelivery, pruning), probing each by key, and
 * reads what recording needs, the endpoints' circuits with them (the endpoint's lock is what
 * keeps two recordings of its circuit apart). No key changes, so outbox inserts referencing
 * an endpoint are not blocked. `endpointIds` are the endpoints of `ids` (a delivery's never
 * changes).
 */
export async function lockClaimed(
  tx: Tx,
  orgId: string,
  ids: readonly string[],
  endpointIds: readonly string[],
): Promise<LockedDelivery[]> {
  const result = await sql<LockedDelivery>`
    with ${relaxedCommit}, e as materialized (
      select e.* from unnest(${[...new Set(endpointIds)].sort()}::text[]) as x (id)
      cross join lateral (
        select e.id, e.failing_since, e.status from webhook_endpoints e where e.org_id = ${orgId} and e.id = x.id for no key update
      ) e
    ), circuit as materialized (
      select c.endpoint_id, c.failures, c.opened, c.open_until from webhook_circuits c where c.endpoint_id in (select e.id from e)
    )
    select d.id, d.endpoint_id, d.status, d.attempt_count, d.retry_index, d.redelivery_requested, d.next_attempt_at,
           d.last_http_status, d.last_error, d.finished_at, q.lease_token, e.failing_since, e.status as endpoint_status,
           circuit.failures as circuit_failures, circuit.opened as circuit_opened, circuit.open_until as circuit_open_until
    from unnest(${ids}::text[]) as c (id)
    cross join lateral (select q.lease_token from webhook_queue q where q.delivery_id = c.id for no key update) q
    cross join lateral (
      select d.id, d.endpoint_id, d.status, d.attempt_count, d.retry_index, d.redelivery_requested, d.next_attempt_at,
             d.last_http_status, d.last_error, d.finished_at
      from webhook_deliveries d where d.org_id = ${orgId} and d.id = c.id for no key update
    ) d
    join e on e.id = d.endpoint_id
    left join circuit on circuit.endpoint_id = d.endpoint_id
    cross join relaxed
  `.execute(tx)
  return result.rows
}

export type AttemptWrite = Omit<WebhookTables['webhook_attempts'], 'org_id'>

/** A delivery's new state (every column a recording may change; updated_at is the recording's time). */
export type DeliveryWrite = Pick<
  LockedDelivery,
  | 'id'
  | 'status'
  | 'attempt_count'
  | 'retry_index'
  | 'redelivery_requested'
  | 'next_attempt_at'
  | 'last_http_status'
  | 'last_error'
  | 'finished_at'
>

/** An endpoint's circuit as recording leaves it (`null` state: closed, the row deleted). */
export interface CircuitWrite {
  endpoint_id: string
  failures: number
  opened: number
  open_until: Date | null
}

export interface OutcomeWrites {
  attempts: AttemptWrite[]
  deliveries: DeliveryWrite[]
  /** Endpoints whose failure streak started or ended. */
  endpoints: { id: string; failing_since: Date | null }[]
  /** Circuits that changed: kept (a failure since the last success), or closed (`closed`: the row goes). */
  circuits: CircuitWrite[]
  closedCircuits: string[]
  /** Queue entries released by their lease holder (while `lease_token` is still theirs): due again at `due_at`, or finished. */
  queue: { delivery_id: string; lease_token: string; due_at: Date | null; finished_at: Date | null }[]
}

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString())

/**
 * Every write of a batch of outcomes in one statement: the attempts inserted, and the
 * deliveries, endpoints and queue entries updated from arrays (one row each at most).
 */
export async function writeOutcomes(tx: Tx, orgId: string, now: Date, writes: OutcomeWrites): Promise<void> {
  const { attempts, deliveries, endpoints, queue, circuits, closedCircuits } = writes
  await sql`
    with attempts as (
      insert into webhook_attempts (org_id, delivery_id, attempt, endpoint_id, trigger, started_at, status, http_status, latency_ms, response_body, error, address)
      select ${orgId}::text, a.* from unnest(
        ${attempts.map((a) => a.delivery_id)}::text[], ${attempts.map((a) => a.attempt)}::int[], ${attempts.map((a) => a.endpoint_id)}::text[],
        ${attempts.map((a) => a.trigger)}::text[], ${attempts.map((a) => iso(a.started_at))}::timestamptz[], ${attempts.map((a) => a.status)}::text[],
        ${attempts.map((a) => a.http_status)}::int[], ${attempts.map((a) => a.latency_ms)}::int[], ${attempts.map((a) => a.response_body)}::text[],
        ${attempts.map((a) => a.error)}::text[], ${attempts.map((a) => a.address)}::text[]
      ) as a (delivery_id, attempt, endpoint_id, trigger, started_at, status, http_status, latency_ms, response_body, error, address)
    ), deliveries as (
      update webhook_deliveries d
      set status = u.status, attempt_count = u.attempt_count, retry_index = u.retry_index, redelivery_requested = u.redelivery_requested,
          next_attempt_at = u.next_attempt_at, last_http_status = u.last_http_status, last_error = u.last_error, finished_at = u.finished_at,
          updated_at = ${iso(now)}::timestamptz
      from unnest(
        ${deliveries.map((d) => d.id)}::text[], ${deliveries.map((d) => d.status)}::text[], ${deliveries.map((d) => d.attempt_count)}::int[],
        ${deliveries.map((d) => d.retry_index)}::int[], ${deliveries.map((d) => d.redelivery_requested)}::boolean[],
        ${deliveries.map((d) => iso(d.next_attempt_at))}::timestamptz[], ${deliveries.map((d) => d.last_http_status)}::int[],
        ${deliveries.map((d) => d.last_error)}::text[], ${deliveries.map((d) => iso(d.finished_at))}::timestamptz[]
      ) as u (id, status, attempt_count, retry_index, redelivery_requested, next_attempt_at, last_http_status, last_error, finished_at)
      where d.org_id = ${orgId} and d.id = u.id and d.id = any(${deliveries.map((d) => d.id)}::text[])
    ), endpoints as (
      update webhook_endpoints e set failing_since = u.failing_since
      from unnest(${endpoints.map((e) => e.id)}::text[], ${endpoints.map((e) => iso(e.failing_since))}::timestamptz[]) as u (id, failing_since)
      where e.org_id = ${orgId} and e.id = u.id
    ), queue as (
      update webhook_queue q
      set due_at = u.due_at, finished_at = u.finished_at, leased_until = null, lease_owner = null, lease_token = null
      from unnest(
        ${queue.map((q) => q.delivery_id)}::text[], ${queue.map((q) => q.lease_token)}::text[],
        ${queue.map((q) => iso(q.due_at))}::timestamptz[], ${queue.map((q) => iso(q.finished_at))}::timestamptz[]
      ) as u (delivery_id, lease_token, due_at, finished_at)
      where q.delivery_id = u.delivery_id and q.lease_token = u.lease_token and q.delivery_id = any(${queue.map((q) => q.delivery_id)}::text[])
    ), circuits as (
      insert into webhook_circuits as c (endpoint_id, tenant_org, failures, opened, open_until, updated_at)
      select u.endpoint_id, ${orgId}::text, u.failures, u.opened, u.open_until, ${iso(now)}::timestamptz
      from unnest(
        ${circuits.map((c) => c.endpoint_id)}::text[], ${circuits.map((c) => c.failures)}::int[], ${circuits.map((c) => c.opened)}::int[],
        ${circuits.map((c) => iso(c.open_until))}::timestamptz[]
      ) as u (endpoint_id, failures, opened, open_until)
      on conflict (endpoint_id) do update
      set failures = excluded.failures, opened = excluded.opened, open_until = excluded.open_until, updated_at = excluded.updated_at
    ), closed_circuits as (
      delete from webhook_circuits c where c.endpoint_id = any(${closedCircuits}::text[])
    )
    select 1 as written
  `.execute(tx)
}

/** A successful attempt of a claimed delivery, as the short way records it. */
export interface SuccessWrite {
  delivery_id: string
  lease_token: string
  trigger: 'scheduled' | 'redelivery'
  started_at: Date
  http_status: number | null
  latency_ms: number
  response_body: string | null
  address: string | null
}

/**
 * Records successful attempts in one statement, nothing read or locked first: each delivery
 * still leased under its token is finished (queue entry released, delivery succeeded, the
 * attempt logged under the next number, the endpoint's failure streak ended and its circuit
 * closed). Returns the ids that were; the others (their lease was lost meanwhile) are for
 * `lockClaimed` and `writeOutcomes`. While the token holds, only a stalled former holder's late recording
 * can touch the delivery, and that moves nothing but attempt_count, which the update reads
 * as it locks the row.
 */
export async function writeSuccesses(
  tx: Tx,
  orgId: string,
  now: Date,
  successes: readonly SuccessWrite[],
): Promise<Set<string>> {
  const ids = successes.map((s) => s.delivery_id)
  const result = await sql<{ delivery_id: string }>`
    with ${relaxedCommit}, input as materialized (
      select * from unnest(
        ${ids}::text[], ${successes.map((s) => s.lease_token)}::text[], ${successes.map((s) => s.trigger)}::text[],
        ${successes.map((s) => iso(s.started_at))}::timestamptz[], ${successes.map((s) => s.http_status)}::int[], ${successes.map((s) => s.latency_ms)}::int[],
        ${successes.map((s) => s.response_body)}::text[], ${successes.map((s) => s.address)}::text[]
      ) as i (delivery_id, lease_token, trigger, started_at, http_status, latency_ms, response_body, address)
    ), released as (
      update webhook_queue q
      set due_at = null, finished_at = ${iso(now)}::timestamptz, leased_until = null, lease_owner = null, lease_token = null
      from input i, relaxed
      where q.delivery_id = i.delivery_id and q.lease_token = i.lease_token and q.delivery_id = any(${ids}::text[])
      returning q.delivery_id
    ), delivered as (
      update webhook_deliveries d
      set status = ${'succeeded'}::text, attempt_count = d.attempt_count + 1, last_http_status = i.http_status, last_error = null,
          redelivery_requested = false, next_attempt_at = null, finished_at = ${iso(now)}::timestamptz, updated_at = ${iso(now)}::timestamptz
      from released r join input i on i.delivery_id = r.delivery_id
      where d.org_id = ${orgId} and d.id = r.delivery_id and d.id = any(${ids}::text[])
      returning d.id, d.attempt_count, d.endpoint_id
    ), logged as (
      insert into webhook_attempts (org_id, delivery_id, attempt, endpoint_id, trigger, started_at, status, http_status, latency_ms, response_body, error, address)
      select ${orgId}::text, d.id, d.attempt_count, d.endpoint_id, i.trigger, i.started_at, ${'succeeded'}::text, i.http_status, i.latency_ms, i.response_body, null, i.address
      from delivered d join input i on i.delivery_id = d.id
    ), healthy as (
      update webhook_endpoints e set failing_since = null
      where e.org_id = ${orgId} and e.id in (select endpoint_id from delivered) and e.failing_since is not null
    ), closed_circuits as (
      delete from webhook_circuits c where c.endpoint_id in (select endpoint_id from delivered)
    )
    select delivery_id from released
  `.execute(tx)
  return new Set(result.rows.map((row) => row.delivery_id))
}
