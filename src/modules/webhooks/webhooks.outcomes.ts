import { DAY, SECOND } from '../../platform/clock.js'
import type { Claim } from './webhooks.claims.js'
import type { DeliveryWrite, LockedDelivery, OutcomeWrites } from './webhooks.recording.js'
import type { AttemptOutcome } from './webhooks.http.js'
import { circuitAfter, circuitPhase, CLOSED, type CircuitRules, type CircuitState } from './webhooks.circuit.js'
import type { AttemptStatus } from './webhooks.tables.js'

/** Seconds before each attempt: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const DEFAULT_RETRY_SCHEDULE = [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400] as const
export const DISABLE_AFTER_FAILING_MS = 5 * DAY
const MAX_RETRY_AFTER_MS = DAY

/** What one attempt did, as the log and the state machine need it. */
export interface AttemptResult {
  status: AttemptStatus
  outcome: AttemptOutcome['kind'] | 'blocked'
  /** As the delivery stood when claimed: whether this attempt answers a redelivery request. */
  trigger: 'scheduled' | 'redelivery'
  startedAt: Date
  httpStatus: number | null
  latencyMs: number
  responseBody: string | null
  error: string | null
  address: string | null
  retryAfter: string | null
}

/** A claim's end: an attempt to record, or a delivery that can no longer be sent (`endpointId` null: no delivery was found). */
export type Outcome = { claim: Claim; endpointId: string | null } & (
  { attempt: AttemptResult; abandoned?: undefined } | { attempt?: undefined; abandoned: string }
)

export interface RetryRules {
  schedule: readonly number[]
  /** Up to this fraction of each delay is added at random (0 in tests). */
  jitter: number
}

export interface RecordingRules extends RetryRules {
  circuit: CircuitRules
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: Date): number | null {
  if (header === null) return null
  const trimmed = header.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * SECOND
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime())
}

function nextDelayMs(rules: RetryRules, index: number, retryAfter: string | null, now: Date): number {
  const base = (rules.schedule[index] ?? 0) * SECOND
  const asked = retryAfterMs(retryAfter, now)
  const delay = asked === null ? base : Math.max(base, Math.min(asked, MAX_RETRY_AFTER_MS))
  return Math.round(delay * (1 + Math.random() * rules.jitter))
}

function stateOf(row: LockedDelivery): DeliveryWrite {
  const {
    id,
    status,
    attempt_count,
    retry_index,
    redelivery_requested,
    next_attempt_at,
    last_http_status,
    last_error,
    finished_at,
  } = row
  return {
    id,
    status,
    attempt_count,
    retry_index,
    redelivery_requested,
    next_attempt_at,
    last_http_status,
    last_error,
    finished_at,
  }
}

export interface OutcomePlan {
  writes: OutcomeWrites
  /** Endpoints to disable on the system's behalf (each told to the org as webhook.disabled). */
  disables: { id: string; reason: string }[]
  /** Endpoints whose circuit is open once this is recorded. */
  openCircuits: string[]
}

function circuitOf(row: LockedDelivery): CircuitState {
  return row.circuit_failures === null
    ? CLOSED
    : { failures: row.circuit_failures, opened: row.circuit_opened ?? 0, openUntil: row.circuit_open_until }
}

const sameCircuit = (a: CircuitState, b: CircuitState): boolean =>
  a.failures === b.failures && a.opened === b.opened && a.openUntil?.getTime() === b.openUntil?.getTime()

/** An endpoint as the batch moves it: its failure streak, status and circuit, as locked and as planned. */
interface EndpointCourse {
  initial: Date | null
  failingSince: Date | null
  status: LockedDelivery['endpoint_status']
  initialCircuit: CircuitState
  circuit: CircuitState
  hadCircuit: boolean
}

/** What planning a batch builds up, outcome by outcome. */
interface Planning {
  locked: Map<string, LockedDelivery>
  endpoints: Map<string, EndpointCourse>
  writes: OutcomeWrites
  disables: OutcomePlan['disables']
  now: Date
  rules: RecordingRules
}

/**
 * The rules of recording, applied to a batch in the order the outcomes came: every
 * attempt is logged; a delivery whose lease is no longer ours keeps the state its new
 * holder gives it; 2xx succeeds, 410 and a blocked address end the delivery, anything
 * else retries on the schedule (Retry-After honoured) until it runs out; an endpoint
 * answering 410, or failing for 5 days, is disabled; any success ends its failure streak.
 * Every attempt moves its endpoint's circuit (webhooks.circuit.ts), in the order recorded.
 */
export function planOutcomes(
  rows: readonly LockedDelivery[],
  outcomes: readonly Outcome[],
  now: Date,
  rules: RecordingRules,
): OutcomePlan {
  const planning: Planning = {
    locked: new Map(rows.map((row) => [row.id, row])),
    endpoints: new Map(),
    writes: { attempts: [], deliveries: [], endpoints: [], queue: [], circuits: [], closedCircuits: [] },
    disables: [],
    now,
    rules,
  }
  for (const outcome of outcomes) planOutcome(planning, outcome)
  const openCircuits = planEndpoints(planning)
  return { writes: planning.writes, disables: planning.disables, openCircuits }
}

function planOutcome(planning: Planning, { claim, attempt, abandoned }: Outcome): void {
  const { writes, now, rules } = planning
  const row = planning.locked.get(claim.deliveryId)
  if (!row) {
    // No delivery behind the queue entry: it is finished, if it is still ours (the write checks the token).
    if (attempt === undefined)
      writes.queue.push({ delivery_id: claim.deliveryId, lease_token: claim.token, due_at: null, finished_at: now })
    return
  }
  const owned = row.lease_token === claim.token
  if (attempt === undefined) {
    if (!owned) return
    if (row.status === 'pending')
      writes.deliveries.push({
        ...stateOf(row),
        status: 'failed',
        last_error: abandoned,
        next_attempt_at: null,
        finished_at: now,
      })
    writes.queue.push({ delivery_id: row.id, lease_token: claim.token, due_at: null, finished_at: now })
    return
  }

  const attemptNo = row.attempt_count + 1
  writes.attempts.push({
    delivery_id: row.id,
    attempt: attemptNo,
    endpoint_id: row.endpoint_id,
    trigger: row.redelivery_requested ? 'redelivery' : 'scheduled',
    started_at: attempt.startedAt,
    status: attempt.status,
    http_status: attempt.httpStatus,
    latency_ms: attempt.latencyMs,
    response_body: attempt.responseBody,
    error: attempt.error,
    address: attempt.address,
  })
  const endpoint = endpointCourse(planning.endpoints, row)
  // A blocked address says nothing about the receiver.
  if (attempt.outcome !== 'blocked')
    endpoint.circuit = circuitAfter(
      endpoint.circuit,
      attempt.outcome === 'success' ? 'success' : 'failure',
      now,
      rules.circuit,
    )
  // Our lease was recovered by another worker (we stalled): the attempt is logged and numbered, the state is theirs.
  if (!owned) {
    writes.deliveries.push({ ...stateOf(row), attempt_count: attemptNo })
    return
  }
  const disableReason = planFailureStreak(planning, row, endpoint, attempt)
  planNextAttempt(planning, row, claim, attempt, disableReason)
}

/** The endpoint's course in this batch, begun from its locked row the first time one of its deliveries comes. */
function endpointCourse(endpoints: Map<string, EndpointCourse>, row: LockedDelivery): EndpointCourse {
  let endpoint = endpoints.get(row.endpoint_id)
  if (!endpoint) {
    const circuit = circuitOf(row)
    endpoint = {
      initial: row.failing_since,
      failingSince: row.failing_since,
      status: row.endpoint_status,
      initialCircuit: circuit,
      circuit,
      hadCircuit: row.circuit_failures !== null,
    }
    endpoints.set(row.endpoint_id, endpoint)
  }
  return endpoint
}

/** A success ends the endpoint's failure streak; a failure extends it, and 410 or 5 days of it disable the endpoint. */
function planFailureStreak(
  { now, disables }: Planning,
  row: LockedDelivery,
  endpoint: EndpointCourse,
  attempt: AttemptResult,
): string | null {
  let disableReason: string | null = null
  if (attempt.outcome === 'success') {
    endpoint.failingSince = null
  } else {
    const failingSince = endpoint.failingSince ?? attempt.startedAt
    if (attempt.outcome === 'gone') disableReason = 'the receiver answered 410 Gone'
    else if (now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS)
      disableReason = 'every delivery failed for 5 days'
    endpoint.failingSince = failingSince
    if (disableReason && endpoint.status === 'enabled') {
      endpoint.status = 'disabled'
      disables.push({ id: row.endpoint_id, reason: disableReason })
    }
  }
  return disableReason
}

/** The delivery's state after the attempt, and its queue entry: finished, or due again on the schedule. */
function planNextAttempt(
  { writes, now, rules }: Planning,
  row: LockedDelivery,
  claim: Claim,
  attempt: AttemptResult,
  disableReason: string | null,
): void {
  const nextIndex = row.retry_index + 1
  const final = attempt.outcome !== 'failure' || disableReason !== null || nextIndex >= rules.schedule.length
  const status =
    attempt.outcome === 'success'
      ? 'succeeded'
      : attempt.outcome === 'blocked'
        ? 'blocked'
        : final
          ? 'failed'
          : 'pending'
  const nextAt = final ? null : new Date(now.getTime() + nextDelayMs(rules, nextIndex, attempt.retryAfter, now))
  writes.deliveries.push({
    attempt_count: row.attempt_count + 1,
    last_http_status: attempt.httpStatus,
    last_error: attempt.error,
    redelivery_requested: false,
    id: row.id,
    status,
    retry_index: final ? row.retry_index : nextIndex,
    next_attempt_at: nextAt,
    finished_at: final ? now : null,
  })
  writes.queue.push({
    delivery_id: row.id,
    lease_token: claim.token,
    due_at: nextAt,
    finished_at: final ? now : null,
  })
}

/** Each endpoint's failure streak and circuit as the batch leaves them; the endpoints whose circuit is open. */
function planEndpoints({ endpoints, writes, now }: Planning): string[] {
  const openCircuits: string[] = []
  for (const [id, endpoint] of endpoints) {
    if (endpoint.failingSince?.getTime() !== endpoint.initial?.getTime())
      writes.endpoints.push({ id, failing_since: endpoint.failingSince })
    const { circuit } = endpoint
    if (sameCircuit(circuit, CLOSED)) {
      if (endpoint.hadCircuit) writes.closedCircuits.push(id)
    } else if (!sameCircuit(circuit, endpoint.initialCircuit)) {
      writes.circuits.push({
        endpoint_id: id,
        failures: circuit.failures,
        opened: circuit.opened,
        open_until: circuit.openUntil,
      })
    }
    if (circuitPhase(circuit, now) === 'open') openCircuits.push(id)
  }
  return openCircuits
}
