import { CompiledQuery, sql, type Compilable } from 'kysely'
import type { Database, Reader, Tx } from '../../database.js'
import { canonicalJsonOfJson } from '../../platform/canonical-json.js'
import type { Clock } from '../../platform/clock.js'
import { notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import { decodeCursor, toPage, type Page } from '../../platform/pagination.js'
import { GENESIS_HASH } from './audit.chain.js'
import { renderEventPage, RENDERED_EVENT_SQL, type RenderableEventRow } from './audit.render.js'
import { listForPeople } from './audit.people.js'
import { actionFilter, isObjectFilter, presentEvent } from './audit.rows.js'
import type { AuditLogPage, AuditLogQuery, OrgEvent, OrgEventDetail, OrgEventQuery, Resource } from './audit.schemas.js'
import { canonicalTemplate, joinRunTexts, type PendingEvent } from './audit.template.js'

/** Who appends: a user, an OAuth client's service user, or the org's system user. */
export interface AuditActor {
  orgId: string
  actor: { userId: string }
}

export interface AppendItem {
  action: string
  resource: Resource | null
  data: unknown
}

/**
 * The webhook outbox, which the appending SQL fills for every run it appends
 * (queue_webhook_deliveries, migration 0007): when deliveries made at `now` are first due.
 */
export interface Outbox {
  deliveriesDue(now: Date): Date
}

export interface AuditLog {
  /**
   * Appends an event with the transaction: it is chained in the round trip that commits, after
   * the transaction's rows, so the org's chain lock is held only inside the server.
   */
  append(tx: Tx, ctx: AuditActor, action: string, resource: Resource | null, data: unknown): Promise<void>
  /**
   * Appends events now (the chain lock is held from here to commit): the events as chained. A
   * transaction that appends now appends nothing with its commit before (it would be chained after).
   */
  appendNow(tx: Tx, ctx: AuditActor, items: readonly AppendItem[]): Promise<OrgEvent[]>
  /** Starts an org's chain (inside the org-creating transaction). */
  startChain(tx: Tx, orgId: string): Promise<void>
  list(orgId: string, query: OrgEventQuery): Promise<Page<OrgEvent>>
  /** The audit log for the web app: oldest or newest first, with who each userId is. */
  listForPeople(orgId: string, query: AuditLogQuery): Promise<AuditLogPage>
  /** The same page as `list`, as JSON text written straight from the stored rows (the feed's hot path). */
  listJson(orgId: string, query: OrgEventQuery): Promise<string>
  get(orgId: string, id: string): Promise<OrgEvent>
  /** One event with the hash of the one before it (GENESIS_HASH for sequence 1). */
  getWithPrevious(orgId: string, id: string): Promise<OrgEventDetail>
}

/** The feed's filters and where its cursor points. */
function feedPosition(query: OrgEventQuery): { filters: Record<string, unknown>; afterSequence: bigint } {
  const filters = { action: query.action, since: query.since, until: query.until }
  const after = decodeCursor(query.cursor, filters, 1)
  return { filters, afterSequence: after ? BigInt(after[0] as number) : 0n }
}

/**
 * The feed's hot path as SQL text, one per combination of filters (feedSelect's query with
 * the rendered columns, without building and compiling it for every poll).
 */
function renderedFeedQuery(orgId: string, query: OrgEventQuery, afterSequence: bigint): CompiledQuery {
  const parameters: unknown[] = [orgId, afterSequence]
  let where = 'org_id = $1 and sequence > $2'
  if (query.action)
    where += isObjectFilter(query.action)
      ? ` and starts_with(action, $${parameters.push(`${query.action}.`)})`
      : ` and action = $${parameters.push(query.action)}`
  if (query.since) where += ` and created_at >= $${parameters.push(new Date(query.since))}`
  if (query.until) where += ` and created_at < $${parameters.push(new Date(query.until))}`
  parameters.push(query.limit + 1)
  return CompiledQuery.raw(
    `select id, action, user_id, hash, resource_type, resource_id, ${RENDERED_EVENT_SQL} from org_events where ${where} order by sequence asc limit $${parameters.length}`,
    parameters,
  )
}

/** The feed's keyset query (oldest first, limit + 1 rows), before its columns are chosen. */
function feedSelect(db: Reader, orgId: string, query: OrgEventQuery, afterSequence: bigint) {
  let select = db.selectFrom('org_events').where('org_id', '=', orgId).where('sequence', '>', afterSequence)
  if (query.action) select = select.where(actionFilter(query.action))
  if (query.since) select = select.where('created_at', '>=', new Date(query.since))
  if (query.until) select = select.where('created_at', '<', new Date(query.until))
  return select.orderBy('sequence', 'asc').limit(query.limit + 1)
}

/**
 * The statement that chains and writes a run of events, and fills the outbox when there is
 * one (append_org_events, migrations 0007 and 0010). Each event's data travels once, as its
 * canonical text beside the event's template, which has a slot for it.
 */
function appendStatement(compiler: Reader, run: AppendRun): Compilable {
  const { orgId, events, createdAt, deliveriesDue } = run
  const query = sql`select id, sequence, hash, created_at from append_org_events(
    ${orgId}, ${events.map((e) => e.id)}::text[], ${events.map((e) => e.action)}::text[], ${events.map((e) => e.userId)}::text[],
    ${events.map((e) => e.resource?.type ?? null)}::text[], ${events.map((e) => e.resource?.id ?? null)}::text[],
    string_to_array(${joinRunTexts(events.map(canonicalTemplate))}::text, chr(2)), string_to_array(${joinRunTexts(events.map((e) => e.dataText))}::text, chr(2)),
    ${createdAt}::timestamptz, ${deliveriesDue}::timestamptz)`
  return { compile: () => query.compile(compiler) }
}

/** A run of one org's events to append, as one transaction stages it. */
interface AppendRun {
  orgId: string
  events: readonly PendingEvent[]
  /** When the run was written (the chain keeps createdAt monotonic: the head's, if later). */
  createdAt: Date
  /** When its webhook deliveries are first due; null without an outbox. */
  deliveriesDue: Date | null
}

const latest = (dates: readonly Date[]): Date => new Date(Math.max(...dates.map((date) => date.getTime())))

/**
 * Several transactions' runs, committed together, as one run: their events in the group's
 * order, written at the latest of their times (so every event of a group commit carries one
 * createdAt, as the events of one transaction do), due when the latest is due.
 */
export function mergeAppendRuns(runs: readonly AppendRun[]): AppendRun {
  const orgId = runs[0]!.orgId
  if (runs.some((run) => run.orgId !== orgId)) throw new Error('runs of different orgs cannot be appended together')
  const due = runs.flatMap((run) => (run.deliveriesDue ? [run.deliveriesDue] : []))
  return {
    orgId,
    events: runs.flatMap((run) => run.events),
    createdAt: latest(runs.map((run) => run.createdAt)),
    deliveriesDue: due.length > 0 ? latest(due) : null,
  }
}

export interface AuditLogDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  /** The webhook outbox every append fills (none: appends queue no deliveries). */
  outbox?: Outbox
}

export function createAuditLog(deps: AuditLogDeps): AuditLog {
  // The runs a transaction or a group commit sends together become one append (one org's: a transaction and a group are).
  const mergeRuns = (parts: readonly unknown[]) =>
    appendStatement(deps.db.global, mergeAppendRuns(parts as AppendRun[])).compile()
  return {
    append: (tx, ctx, action, resource, data) => appendAtCommit(deps, mergeRuns, tx, ctx, { action, resource, data }),
    appendNow: (tx, ctx, items) => appendNow(deps, tx, ctx, items),
    async startChain(tx, orgId) {
      await tx.insertInto('org_event_heads').values({ org_id: orgId, sequence: 0n, hash: GENESIS_HASH }).execute()
    },
    list: (orgId, query) => listEvents(deps.db, orgId, query),
    listForPeople: (orgId, query) => listForPeople(deps.db, orgId, query),
    listJson: (orgId, query) => listEventsJson(deps.db, orgId, query),
    get: (orgId, id) => getEvent(deps.db, orgId, id),
    getWithPrevious: (orgId, id) => getEventWithPrevious(deps.db, orgId, id),
  }
}

/** Events of an org's chain, as a run to append (when written, the chain keeps createdAt monotonic). */
function runOf(deps: AuditLogDeps, ctx: AuditActor, items: readonly AppendItem[]): AppendRun {
  const now = deps.clock.now()
  const events = items.map((item): PendingEvent => ({
    id: deps.ids.next('event'),
    orgId: ctx.orgId,
    action: item.action,
    userId: ctx.actor.userId,
    resource: item.resource,
    // The hash covers the data as JSON gives it back, as it stands now (a later change to the object is not logged).
    dataText: canonicalJsonOfJson(item.data ?? {}),
  }))
  return { orgId: ctx.orgId, events, createdAt: now, deliveriesDue: deps.outbox?.deliveriesDue(now) ?? null }
}

async function appendAtCommit(
  deps: AuditLogDeps,
  mergeRuns: (parts: readonly unknown[]) => CompiledQuery,
  tx: Tx,
  ctx: AuditActor,
  item: AppendItem,
): Promise<void> {
  const run = runOf(deps, ctx, [item])
  // Sent with the COMMIT, after every row the transaction wrote; the appends of a transaction
  // (and of a group commit) merge into one statement by their key.
  const query = appendStatement(tx, run).compile()
  deps.db.atCommit(tx, { key: 'append:org_events', query, part: run, merge: mergeRuns }, 'chain')
}

/** A written event's place in the chain, as the appending SQL answers it. */
type Placed = { id: string; sequence: bigint; hash: string; created_at: Date }

async function appendNow(
  deps: AuditLogDeps,
  tx: Tx,
  ctx: AuditActor,
  items: readonly AppendItem[],
): Promise<OrgEvent[]> {
  if (items.length === 0) return []
  const run = runOf(deps, ctx, items)
  const [rows = []] = await deps.db.batch(tx, [appendStatement(tx, run)])
  const placed = new Map((rows as Placed[]).map((row) => [row.id, row]))
  return run.events.map((event) => {
    const place = placed.get(event.id)
    if (!place) throw new Error(`event ${event.id} was not appended`)
    return {
      id: event.id,
      orgId: run.orgId,
      action: event.action,
      userId: event.userId,
      createdAt: place.created_at.toISOString(),
      hash: place.hash,
      sequence: Number(place.sequence),
      resource: event.resource,
      data: JSON.parse(event.dataText) as unknown,
    }
  })
}

async function listEvents(db: Database, orgId: string, query: OrgEventQuery): Promise<Page<OrgEvent>> {
  const { filters, afterSequence } = feedPosition(query)
  const rows = await db.read(orgId, (reader) => feedSelect(reader, orgId, query, afterSequence).selectAll().execute())
  return toPage(rows, query.limit, (row) => [Number(row.sequence)], presentEvent, filters, {
    alwaysCursor: true,
    previous: [Number(afterSequence)],
  })
}

async function listEventsJson(db: Database, orgId: string, query: OrgEventQuery): Promise<string> {
  const { filters, afterSequence } = feedPosition(query)
  const rows = await db.read(
    orgId,
    async (reader) =>
      (await reader.executeQuery<RenderableEventRow>(renderedFeedQuery(orgId, query, afterSequence))).rows,
  )
  const page = renderEventPage(orgId, rows, query.limit, filters, [Number(afterSequence)])
  // The rows die here, but what still points at their array (the driver's result, a settled
  // promise) may have been promoted to the old generation while the request waited, and a
  // dead old object keeps what it points at alive through every scavenge until the next
  // full collection: emptied, the array holds no row.
  rows.length = 0
  return page
}

async function getEvent(db: Database, orgId: string, id: string): Promise<OrgEvent> {
  const row = await db.read(orgId, (reader) =>
    reader.selectFrom('org_events').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst(),
  )
  if (!row) throw notFound('org event')
  return presentEvent(row)
}

async function getEventWithPrevious(db: Database, orgId: string, id: string): Promise<OrgEventDetail> {
  const found = await db.read(orgId, async (reader) => {
    const row = await reader
      .selectFrom('org_events')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst()
    if (!row || row.sequence === 1n) return row && { row, previousHash: GENESIS_HASH }
    const previous = await reader
      .selectFrom('org_events')
      .select('hash')
      .where('org_id', '=', orgId)
      .where('sequence', '=', row.sequence - 1n)
      .executeTakeFirst()
    // Sequences have no gaps: a missing row before this one is a broken chain, and its hash then fails to recompute.
    return { row, previousHash: previous?.hash ?? GENESIS_HASH }
  })
  if (!found) throw notFound('org event')
  return { ...presentEvent(found.row), previousHash: found.previousHash }
}
