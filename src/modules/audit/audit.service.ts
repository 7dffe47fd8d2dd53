import { CompiledQuery, sql, type Compilable, type Selectable } from 'kysely'
import type { Database, Reader, Tx } from '../../database.js'
import type { FoundationTables } from '../../schema.js'
import { canonicalJsonOfJson } from '../../platform/canonical-json.js'
import type { Clock } from '../../platform/clock.js'
import { notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import { decodeCursor, toPage, type Page } from '../../platform/pagination.js'
import { GENESIS_HASH } from './audit.chain.js'
import { renderEventPage, RENDERED_EVENT_SQL, type RenderableEventRow } from './audit.render.js'
import type { OrgEvent, OrgEventDetail, OrgEventQuery } from './audit.schemas.js'
import { canonicalTemplate, joinRunTexts, type PendingEvent } from './audit.template.js'

type EventRow = Selectable<FoundationTables['org_events']>

export interface Resource {
  type: string
  id: string
}

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
   * Stages an event in the transaction. It is chained when the transaction's work is done,
   * in the round trip that commits, so the org's chain lock is held only inside the server.
   */
  append(tx: Tx, ctx: AuditActor, action: string, resource: Resource | null, data: unknown): Promise<void>
  /** Stages a run of events and writes everything staged at once; the run's events. */
  appendMany(tx: Tx, ctx: AuditActor, items: readonly AppendItem[]): Promise<OrgEvent[]>
  /** Writes what the transaction has staged now (its chain lock is held from here to commit); those events. */
  flush(tx: Tx): Promise<OrgEvent[]>
  /** Every append from now on fills this outbox in its own transaction. */
  useOutbox(outbox: Outbox): void
  /** Starts an org's chain (inside the org-creating transaction). */
  startChain(tx: Tx, orgId: string): Promise<void>
  list(orgId: string, query: OrgEventQuery): Promise<Page<OrgEvent>>
  /** The same page as `list`, as JSON text written straight from the stored rows (the feed's hot path). */
  listJson(orgId: string, query: OrgEventQuery): Promise<string>
  get(orgId: string, id: string): Promise<OrgEvent>
  /** One event with the hash of the one before it (GENESIS_HASH for sequence 1). */
  getWithPrevious(orgId: string, id: string): Promise<OrgEventDetail>
}

export function presentEvent(row: EventRow): OrgEvent {
  return {
    id: row.id,
    orgId: row.org_id,
    action: row.action,
    userId: row.user_id,
    createdAt: row.created_at.toISOString(),
    hash: row.hash,
    sequence: Number(row.sequence),
    resource: row.resource_type && row.resource_id ? { type: row.resource_type, id: row.resource_id } : null,
    data: JSON.parse(row.data) as unknown,
  }
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
  if (query.action) where += ` and action = $${parameters.push(query.action)}`
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
  if (query.action) select = select.where('action', '=', query.action)
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

export function createAuditLog(deps: { db: Database; clock: Clock; ids: IdGenerator }): AuditLog {
  const { db } = deps
  let outbox: Outbox | null = null
  // Each transaction's staged events; one transaction appends to one org's chain.
  const stages = new WeakMap<Tx, { orgId: string; events: PendingEvent[] }>()
  // The runs a group commit sends together become one append (they are one org's: a group is).
  const mergeRuns = (parts: readonly unknown[]) =>
    appendStatement(db.global, mergeAppendRuns(parts as AppendRun[])).compile()

  function stage(tx: Tx, ctx: AuditActor, items: readonly AppendItem[]): void {
    let staged = stages.get(tx)
    if (!staged) {
      // Throws outside an org transaction (db.tx): an event is never staged where nothing would write it.
      // The run is made when the work is done, and chained with the commit (after every row written).
      db.atCommit(
        tx,
        () => {
          const run = takeRun(tx)
          return (
            run && { key: 'append:org_events', query: appendStatement(tx, run).compile(), part: run, merge: mergeRuns }
          )
        },
        'chain',
      )
      staged = { orgId: ctx.orgId, events: [] }
      stages.set(tx, staged)
    }
    if (staged.orgId !== ctx.orgId)
      throw new Error(`one transaction appends to one org's chain (${staged.orgId}, not ${ctx.orgId})`)
    for (const item of items) {
      staged.events.push({
        id: deps.ids.next('event'),
        orgId: ctx.orgId,
        action: item.action,
        userId: ctx.actor.userId,
        resource: item.resource,
        // The hash covers the data as JSON gives it back, as it stands now (a later change to the object is not logged).
        dataText: canonicalJsonOfJson(item.data ?? {}),
      })
    }
  }

  /** A written event's place in the chain, as the appending SQL answers it. */
  type Placed = { sequence: bigint; hash: string; created_at: Date }

  /** The events staged in the transaction, as a run to append (null when none is staged); they are no longer staged. */
  function takeRun(tx: Tx): AppendRun | null {
    const staged = stages.get(tx)
    stages.delete(tx)
    if (!staged || staged.events.length === 0) return null
    const now = deps.clock.now()
    return { ...staged, createdAt: now, deliveriesDue: outbox?.deliveriesDue(now) ?? null }
  }

  /** Chains and writes the staged events (and their outbox rows) now, in one round trip: the events and where each was placed. */
  async function write(
    tx: Tx,
  ): Promise<{ orgId: string; events: readonly PendingEvent[]; placed: Map<string, Placed> } | null> {
    const run = takeRun(tx)
    if (!run) return null
    const { orgId, events } = run
    const [rows = []] = await db.batch(tx, [appendStatement(tx, run)])
    const placed = new Map(rows.map((row) => [row.id as string, row as Placed]))
    if (placed.size !== events.length)
      throw new Error(`${events.length} events were staged but ${placed.size} appended`)
    return { orgId, events, placed }
  }

  /** The events written now, as the log holds them (their data parsed from the text that was hashed). */
  async function writeNow(tx: Tx): Promise<OrgEvent[]> {
    const written = await write(tx)
    if (!written) return []
    return written.events.map((event) => {
      const place = written.placed.get(event.id)
      if (!place) throw new Error(`event ${event.id} was not appended`)
      return {
        id: event.id,
        orgId: written.orgId,
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

  return {
    useOutbox(given) {
      outbox = given
    },

    async startChain(tx, orgId) {
      await tx.insertInto('org_event_heads').values({ org_id: orgId, sequence: 0n, hash: GENESIS_HASH }).execute()
    },

    async append(tx, ctx, action, resource, data) {
      stage(tx, ctx, [{ action, resource, data }])
    },

    async appendMany(tx, ctx, items) {
      if (items.length === 0) return []
      stage(tx, ctx, items)
      const events = await writeNow(tx)
      return events.slice(events.length - items.length)
    },

    flush: (tx) => writeNow(tx),

    async list(orgId, query) {
      const { filters, afterSequence } = feedPosition(query)
      const rows = await deps.db.read(orgId, (db) => feedSelect(db, orgId, query, afterSequence).selectAll().execute())
      return toPage(rows, query.limit, (row) => [Number(row.sequence)], presentEvent, filters, {
        alwaysCursor: true,
        previous: [Number(afterSequence)],
      })
    },

    async listJson(orgId, query) {
      const { filters, afterSequence } = feedPosition(query)
      const rows = await deps.db.read(
        orgId,
        async (db) => (await db.executeQuery<RenderableEventRow>(renderedFeedQuery(orgId, query, afterSequence))).rows,
      )
      const page = renderEventPage(orgId, rows, query.limit, filters, [Number(afterSequence)])
      // The rows die here, but what still points at their array (the driver's result, a settled
      // promise) may have been promoted to the old generation while the request waited, and a
      // dead old object keeps what it points at alive through every scavenge until the next
      // full collection: emptied, the array holds no row.
      rows.length = 0
      return page
    },

    async get(orgId, id) {
      const row = await deps.db.read(orgId, (db) =>
        db.selectFrom('org_events').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst(),
      )
      if (!row) throw notFound('org event')
      return presentEvent(row)
    },

    async getWithPrevious(orgId, id) {
      const found = await deps.db.read(orgId, async (db) => {
        const row = await db
          .selectFrom('org_events')
          .selectAll()
          .where('org_id', '=', orgId)
          .where('id', '=', id)
          .executeTakeFirst()
        if (!row || row.sequence === 1n) return row && { row, previousHash: GENESIS_HASH }
        const previous = await db
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
    },
  }
}
