import type { Selectable } from 'kysely'
import type { Database, Reader, Tx } from '../../db/database.js'
import type { FoundationTables } from '../../db/schema.js'
import type { Clock } from '../../platform/clock.js'
import { notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import { decodeCursor, toPage, type Page } from '../../platform/pagination.js'
import { eventHash, GENESIS_HASH } from './audit.chain.js'
import { renderEventPage, RENDERED_EVENT_COLUMNS } from './audit.render.js'
import type { OrgEvent, OrgEventQuery } from './audit.schemas.js'

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

const APPEND_CHUNK = 1000

/**
 * Called inside the appending transaction with the events just appended (one from `append`,
 * the whole run from `appendMany`), e.g. to write webhook outbox rows once per run.
 */
export type AppendListener = (tx: Tx, events: readonly OrgEvent[]) => Promise<void>

export interface AuditLog {
  append(tx: Tx, ctx: AuditActor, action: string, resource: Resource | null, data: unknown): Promise<OrgEvent>
  /** The same events as `append` one by one, in one head update and multi-row inserts (bulk imports). */
  appendMany(tx: Tx, ctx: AuditActor, items: readonly AppendItem[]): Promise<OrgEvent[]>
  onAppend(listener: AppendListener): void
  /** Starts an org's chain (inside the org-creating transaction). */
  startChain(tx: Tx, orgId: string): Promise<void>
  list(orgId: string, query: OrgEventQuery): Promise<Page<OrgEvent>>
  /** The same page as `list`, as JSON text written straight from the stored rows (the feed's hot path). */
  listJson(orgId: string, query: OrgEventQuery): Promise<string>
  get(orgId: string, id: string): Promise<OrgEvent>
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
    data: row.data,
  }
}

/** The feed's filters and where its cursor points. */
function feedPosition(query: OrgEventQuery): { filters: Record<string, unknown>; afterSequence: bigint } {
  const filters = { action: query.action, since: query.since, until: query.until }
  const after = decodeCursor(query.cursor, filters, 1)
  return { filters, afterSequence: after ? BigInt(after[0] as number) : 0n }
}

/** The feed's keyset query (oldest first, limit + 1 rows), before its columns are chosen. */
function feedSelect(db: Reader, orgId: string, query: OrgEventQuery, afterSequence: bigint) {
  let select = db.selectFrom('org_events').where('org_id', '=', orgId).where('sequence', '>', afterSequence)
  if (query.action) select = select.where('action', '=', query.action)
  if (query.since) select = select.where('created_at', '>=', new Date(query.since))
  if (query.until) select = select.where('created_at', '<', new Date(query.until))
  return select.orderBy('sequence', 'asc').limit(query.limit + 1)
}

export function createAuditLog(deps: { db: Database; clock: Clock; ids: IdGenerator }): AuditLog {
  const listeners: AppendListener[] = []

  return {
    onAppend(listener) {
      listeners.push(listener)
    },

    async startChain(tx, orgId) {
      await tx.insertInto('org_event_heads').values({ org_id: orgId, sequence: 0n, hash: GENESIS_HASH }).execute()
    },

    async append(tx, ctx, action, resource, data) {
      // Taking the head row's lock serialises the org's writers until commit: gapless, linear.
      const head = await tx
        .updateTable('org_event_heads')
        .set((eb) => ({ sequence: eb('sequence', '+', 1n) }))
        .where('org_id', '=', ctx.orgId)
        .returning(['sequence', 'hash'])
        .executeTakeFirstOrThrow()
      // JSON round trip: the hash covers exactly what jsonb will give back.
      const content = {
        id: deps.ids.next('event'),
        orgId: ctx.orgId,
        sequence: Number(head.sequence),
        action,
        userId: ctx.actor.userId,
        createdAt: deps.clock.now().toISOString(),
        resource,
        data: JSON.parse(JSON.stringify(data ?? {})) as unknown,
      }
      const hash = eventHash(content, head.hash)
      await tx
        .with('appended', (db) =>
          db
            .insertInto('org_events')
            .values({
              org_id: content.orgId,
              sequence: head.sequence,
              id: content.id,
              action,
              user_id: content.userId,
              resource_type: resource?.type ?? null,
              resource_id: resource?.id ?? null,
              data: JSON.stringify(content.data),
              created_at: new Date(content.createdAt),
              hash,
            })
            .returning('org_id'),
        )
        .updateTable('org_event_heads')
        .set({ hash })
        .where('org_id', '=', ctx.orgId)
        .execute()
      const event: OrgEvent = { ...content, hash }
      for (const listener of listeners) await listener(tx, [event])
      return event
    },

    async appendMany(tx, ctx, items) {
      if (items.length === 0) return []
      // One head update reserves the whole run of sequences (and takes the same lock as append).
      const head = await tx
        .updateTable('org_event_heads')
        .set((eb) => ({ sequence: eb('sequence', '+', BigInt(items.length)) }))
        .where('org_id', '=', ctx.orgId)
        .returning(['sequence', 'hash'])
        .executeTakeFirstOrThrow()
      const first = Number(head.sequence) - items.length + 1
      const createdAt = deps.clock.now().toISOString()
      let previousHash = head.hash
      const events: OrgEvent[] = items.map((item, index) => {
        const content = {
          id: deps.ids.next('event'),
          orgId: ctx.orgId,
          sequence: first + index,
          action: item.action,
          userId: ctx.actor.userId,
          createdAt,
          resource: item.resource,
          data: JSON.parse(JSON.stringify(item.data ?? {})) as unknown,
        }
        previousHash = eventHash(content, previousHash)
        return { ...content, hash: previousHash }
      })
      for (let start = 0; start < events.length; start += APPEND_CHUNK) {
        const rows = events.slice(start, start + APPEND_CHUNK).map((event) => ({
          org_id: event.orgId,
          sequence: BigInt(event.sequence),
          id: event.id,
          action: event.action,
          user_id: event.userId,
          resource_type: event.resource?.type ?? null,
          resource_id: event.resource?.id ?? null,
          data: JSON.stringify(event.data),
          created_at: new Date(event.createdAt),
          hash: event.hash,
        }))
        await tx.insertInto('org_events').values(rows).execute()
      }
      await tx.updateTable('org_event_heads').set({ hash: previousHash }).where('org_id', '=', ctx.orgId).execute()
      for (const listener of listeners) await listener(tx, events)
      return events
    },

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
      const rows = await deps.db.read(orgId, (db) =>
        feedSelect(db, orgId, query, afterSequence)
          .select(['id', 'org_id', 'action', 'user_id', 'hash', 'resource_type', 'resource_id'])
          .select(RENDERED_EVENT_COLUMNS)
          .execute(),
      )
      return renderEventPage(rows, query.limit, filters, [Number(afterSequence)])
    },

    async get(orgId, id) {
      const row = await deps.db.read(orgId, (db) =>
        db.selectFrom('org_events').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst(),
      )
      if (!row) throw notFound('org event')
      return presentEvent(row)
    },
  }
}
