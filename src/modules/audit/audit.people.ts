import type { Database } from '../../database.js'
import { decodeCursor, toPage } from '../../platform/pagination.js'
import { actionFilter, presentEvent } from './audit.rows.js'
import type { Actor, AuditLogPage, AuditLogQuery } from './audit.schemas.js'

/**
 * The audit log as the web app shows it: the feed's filters, oldest or newest first, and who
 * each userId is (a person's name and email as last set, kept after they leave the org; a
 * client's service user by the client's name; the org's system user).
 */
export async function listForPeople(db: Database, orgId: string, query: AuditLogQuery): Promise<AuditLogPage> {
  const order = query.order ?? 'asc'
  const filters = { action: query.action, since: query.since, until: query.until, order }
  const after = decodeCursor(query.cursor, filters, 1)
  return db.read(orgId, async (reader) => {
    let select = reader.selectFrom('org_events').selectAll().where('org_id', '=', orgId)
    if (after) select = select.where('sequence', order === 'asc' ? '>' : '<', BigInt(after[0] as number))
    if (query.action) select = select.where(actionFilter(query.action))
    if (query.since) select = select.where('created_at', '>=', new Date(query.since))
    if (query.until) select = select.where('created_at', '<', new Date(query.until))
    const rows = await select
      .orderBy('sequence', order)
      .limit(query.limit + 1)
      .execute()
    // Ascending is the feed: the cursor always comes back, so the page can poll for what is new.
    const page = toPage(rows, query.limit, (row) => [Number(row.sequence)], presentEvent, filters, {
      alwaysCursor: order === 'asc',
      previous: after ? [after[0] as number] : null,
    })
    const ids = [...new Set(page.data.map((event) => event.userId))]
    const actors =
      ids.length === 0
        ? []
        : await reader
            .selectFrom('users')
            .select(['id', 'kind', 'name', 'email'])
            .where('id', 'in', ids)
            .orderBy('id')
            .execute()
    return { ...page, actors: actors satisfies Actor[] }
  })
}
