import { sql, type Expression, type Selectable, type SqlBool } from 'kysely'
import type { FoundationTables } from '../../schema.js'
import type { OrgEvent } from './audit.schemas.js'

export type EventRow = Selectable<FoundationTables['org_events']>

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

/** An action filter without a dot names an object: every one of its actions. */
export const isObjectFilter = (action: string): boolean => !action.includes('.')

/** `action` as the feed's filter: the action itself, or every action of an object (payout: payout.*). */
export function actionFilter(action: string): Expression<SqlBool> {
  return isObjectFilter(action) ? sql<SqlBool>`starts_with(action, ${`${action}.`})` : sql<SqlBool>`action = ${action}`
}
