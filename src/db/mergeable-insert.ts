import { CompiledQuery } from 'kysely'
import type { KeyedWrite } from './commit-writes.js'

/** A column of a mergeable insert: its name and its SQL type (the merged statement's arrays are of it). */
export type InsertColumn = readonly [name: string, type: string]

/** An array element as the inlined array literal must carry it: timestamps as ISO text. */
function element(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value
}

/**
 * Inserts of one row into `table`, keyed `insert:<table>` (src/db/commit-writes.ts): alone, an
 * `INSERT … VALUES` of the row's values; in a group commit, one `INSERT … SELECT * FROM
 * unnest(…)` of every merged row, in the group's order. Both texts are fixed, so each is
 * prepared once per connection whatever the group's size.
 */
export function mergeableInsert(
  table: string,
  columns: readonly InsertColumn[],
): (values: readonly unknown[]) => KeyedWrite {
  const names = columns.map(([name]) => name).join(', ')
  const one = `insert into ${table} (${names}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`
  const many = `insert into ${table} (${names}) select * from unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})`
  const key = `insert:${table}`
  const merge = (parts: readonly unknown[]): CompiledQuery => {
    const rows = parts as readonly (readonly unknown[])[]
    return CompiledQuery.raw(
      many,
      columns.map((_, column) => rows.map((row) => element(row[column]))),
    )
  }
  return (values) => {
    if (values.length !== columns.length)
      throw new Error(`an insert into ${table} takes ${columns.length} values, not ${values.length}`)
    return { key, query: CompiledQuery.raw(one, [...values]), part: values, merge }
  }
}
