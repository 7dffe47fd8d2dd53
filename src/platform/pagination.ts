import { createHash } from 'node:crypto'
import { canonicalJson } from './canonical-json.js'
import { sql, type Expression, type SqlBool } from 'kysely'
import { Type, type Static, type TProperties, type TSchema } from 'typebox'
import { AppError } from './errors.js'
import { memo } from './memo.js'
import { component, componentName } from './openapi-components.js'

export const DEFAULT_LIMIT = 25
export const MAX_LIMIT = 100

const LimitQuery = Type.Integer({
  minimum: 1,
  maximum: MAX_LIMIT,
  default: DEFAULT_LIMIT,
  description: 'Page size, 1..100 (default 25)',
})
const CursorQuery = Type.String({
  minLength: 1,
  maxLength: 512,
  description: 'Opaque cursor from the previous page',
})

/**
 * A list's query string: `limit`, `cursor` and the list's own filters. `limit` is optional to
 * the caller; the validator fills in its default, so the handler's type has it as a number.
 */
export function ListQuery<Filters extends TProperties>(filters: Filters) {
  const schema = Type.Object(
    { limit: Type.Optional(LimitQuery), cursor: Type.Optional(CursorQuery), ...filters },
    { additionalProperties: false },
  )
  return Type.Unsafe<Static<typeof schema> & { limit: number }>(schema)
}

const Pagination = component(
  'Pagination',
  Type.Object({
    cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as ?cursor= for the next page' }),
    hasMore: Type.Boolean(),
  }),
)

/** The list envelope of a record; named `<Record>List` in the OpenAPI document when the record is named. */
export function ListEnvelope<T extends TSchema>(item: T, description?: string) {
  const envelope = Type.Object(
    { data: Type.Array(item), pagination: Pagination },
    { description: description ?? 'A page of records' },
  )
  const name = componentName(item)
  return name === undefined ? envelope : component(`${name}List`, envelope)
}

/** Keyset position: the sort values of the last row returned. */
export type Keyset = readonly (string | number)[]

/**
 * A filter set's fingerprint, computed once per set seen lately (a feed is polled with the same
 * few, page after page). Keyed by the filters' JSON, which drops undefined members as the
 * fingerprint does (its member order only splits the cache).
 */
const fingerprintOf = memo((filtersJson) =>
  createHash('sha256')
    .update(canonicalJson(JSON.parse(filtersJson)))
    .digest('base64url')
    .slice(0, 16),
)

function fingerprint(filters: Record<string, unknown>): string {
  return fingerprintOf(JSON.stringify(filters))
}

/** Opaque to clients; bound to the filters it was made with. */
export function encodeCursor(keyset: Keyset, filters: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ k: keyset, f: fingerprint(filters) })).toString('base64url')
}

export function decodeCursor(
  cursor: string | undefined,
  filters: Record<string, unknown>,
  arity: number,
): Keyset | null {
  if (cursor === undefined) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw new AppError('invalid_cursor', 'cursor is not one this service issued', { param: 'cursor' })
  }
  const value = parsed as { k?: unknown; f?: unknown }
  if (
    typeof value !== 'object' ||
    value === null ||
    !Array.isArray(value.k) ||
    value.k.length !== arity ||
    !value.k.every((part) => typeof part === 'string' || typeof part === 'number')
  ) {
    throw new AppError('invalid_cursor', 'cursor is not one this service issued', { param: 'cursor' })
  }
  if (value.f !== fingerprint(filters)) {
    throw new AppError('invalid_cursor', 'cursor was made with other filters; start again without it', {
      param: 'cursor',
    })
  }
  return value.k as Keyset
}

export interface Page<T> {
  data: T[]
  pagination: { cursor: string | null; hasMore: boolean }
}

/**
 * Builds a page from `limit + 1` fetched rows. Resource lists return a cursor only when
 * more follow; the event feed always returns one (`alwaysCursor`) so it can be polled.
 */
export function toPage<Row, T>(
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => Keyset,
  present: (row: Row) => T,
  filters: Record<string, unknown>,
  options: { alwaysCursor?: boolean; previous?: Keyset | null } = {},
): Page<T> {
  const hasMore = rows.length > limit
  const visible = hasMore ? rows.slice(0, limit) : rows
  const last = visible[visible.length - 1]
  let cursor: string | null = null
  if (last !== undefined && (hasMore || options.alwaysCursor)) cursor = encodeCursor(keyOf(last), filters)
  else if (options.alwaysCursor && options.previous) cursor = encodeCursor(options.previous, filters)
  return { data: visible.map(present), pagination: { cursor, hasMore } }
}

/**
 * The keyset step of a newest-first list (ORDER BY created_at DESC, id DESC): the rows
 * strictly after the last one returned, as one row comparison the index can serve.
 */
export function olderThan(after: Keyset, createdAtColumn: string, idColumn: string): Expression<SqlBool> {
  const [at, id] = after as readonly [string, string]
  return sql<SqlBool>`(${sql.ref(createdAtColumn)}, ${sql.ref(idColumn)}) < (${new Date(at)}::timestamptz, ${id})`
}
