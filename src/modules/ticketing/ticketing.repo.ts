import type { Selectable } from 'kysely'
import type { Reader, Tx } from '../../database.js'
import type { Keyset } from '../../platform/pagination.js'
import type { TicketingTables } from './ticketing.tables.js'
import { olderThan } from '../../platform/pagination.js'

export type EventRow = Selectable<TicketingTables['ticketed_events']>

export async function insertEvent(tx: Tx, row: EventRow): Promise<void> {
  await tx
    .insertInto('ticketed_events')
    .values({ ...row, venue: JSON.stringify(row.venue), ticket_types: JSON.stringify(row.ticket_types) })
    .execute()
}

export function findEvent(db: Reader | Tx, orgId: string, id: string): Promise<EventRow | undefined> {
  return eventQuery(db, orgId, id).executeTakeFirst()
}

/** findEvent's query, to run in a batch. */
export function eventQuery(db: Reader | Tx, orgId: string, id: string) {
  return db.selectFrom('ticketed_events').selectAll().where('org_id', '=', orgId).where('id', '=', id)
}

/** Moves the event from one of `from` to `to`; undefined when it was not in one of them. */
export function changeStatus(
  tx: Tx,
  orgId: string,
  id: string,
  from: readonly EventRow['status'][],
  to: EventRow['status'],
): Promise<EventRow | undefined> {
  return tx
    .updateTable('ticketed_events')
    .set({ status: to })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .returningAll()
    .executeTakeFirst()
}

export function listEvents(db: Reader, orgId: string, after: Keyset | null, limit: number): Promise<EventRow[]> {
  let select = db.selectFrom('ticketed_events').selectAll().where('org_id', '=', orgId)
  if (after) select = select.where(olderThan(after, 'created_at', 'id'))
  return select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
}
