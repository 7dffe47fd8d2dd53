import { sql } from 'kysely'
import { encodeCursor, type Keyset } from '../../platform/pagination.js'

/**
 * An org event row selected for rendering: every value already in its JSON spelling or as
 * plain text, so a page is written without parsing `data` or building Dates and BigInts.
 */
export interface RenderableEventRow {
  id: string
  action: string
  user_id: string
  hash: string
  resource_type: string | null
  resource_id: string | null
  created_at_iso: string
  /** Decimal digits. */
  sequence_digits: string
  /** The stored JSON text (canonical since migration 0009, jsonb's text form before). */
  data_json: string
}

/**
 * The computed columns of a RenderableEventRow (the rest are selected as they are), under
 * names of their own so ORDER BY sequence still means the column.
 */
const CREATED_AT_ISO = 'iso_utc(created_at)'
const SEQUENCE_DIGITS = 'sequence::text'
const DATA_JSON = 'data'

export const RENDERED_EVENT_COLUMNS = [
  sql.raw<string>(CREATED_AT_ISO).as('created_at_iso'),
  sql.raw<string>(SEQUENCE_DIGITS).as('sequence_digits'),
  sql.raw<string>(DATA_JSON).as('data_json'),
] as const

/** The same columns as SQL text, for queries written out in full. */
export const RENDERED_EVENT_SQL = `${CREATED_AT_ISO} as created_at_iso, ${SEQUENCE_DIGITS} as sequence_digits, ${DATA_JSON} as data_json`

/** Nothing JSON.stringify would escape (quote, backslash, control characters, surrogates). */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/

/**
 * A string as JSON.stringify writes it. Ids, hashes, actions and times need no escaping:
 * quoted as they are, about twice as fast over a page as a JSON.stringify call per value.
 */
export const jsonString = (value: string): string => (PLAIN.test(value) ? `"${value}"` : JSON.stringify(value))
const text = jsonString

/** One event of `orgId` (its JSON string given) as JSON: presentEvent's fields in its order, `data` as stored. */
export function renderEvent(row: RenderableEventRow, orgIdJson: string): string {
  const resource =
    row.resource_type && row.resource_id ? `{"type":${text(row.resource_type)},"id":${text(row.resource_id)}}` : 'null'
  return (
    `{"id":${text(row.id)},"orgId":${orgIdJson},"action":${text(row.action)},"userId":${text(row.user_id)},` +
    `"createdAt":${text(row.created_at_iso)},"hash":${text(row.hash)},"sequence":${row.sequence_digits},"resource":${resource},"data":${row.data_json}}`
  )
}

/**
 * The feed's list envelope as JSON, from `limit + 1` rows fetched for `orgId` (the cursor always
 * returned, as toPage does). The rows carry no org_id: every one is the org's, written once here.
 */
export function renderEventPage(
  orgId: string,
  rows: readonly RenderableEventRow[],
  limit: number,
  filters: Record<string, unknown>,
  previous: Keyset,
): string {
  const hasMore = rows.length > limit
  const visible = hasMore ? rows.slice(0, limit) : rows
  const last = visible[visible.length - 1]
  const cursor = encodeCursor(last ? [Number(last.sequence_digits)] : previous, filters)
  const orgIdJson = text(orgId)
  return `{"data":[${visible.map((row) => renderEvent(row, orgIdJson)).join(',')}],"pagination":{"cursor":${text(cursor)},"hasMore":${hasMore}}}`
}
