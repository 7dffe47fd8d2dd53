import { sql } from 'kysely'
import type { Reader, Tx } from '../../database.js'
import { arrayLiteral } from '../../db/sql-text.js'
import type { Share } from '../../shared/money/money.allocation.js'
import type { AllocationRow, RevenueRow } from './revenue.repo.js'

/** The statement import's bulk statements: array parameters, one round trip per batch each. */

/** The active entries with these ISRCs, by ISRC (the unique active-ISRC index makes each at most one). */
export async function activeEntryIds(tx: Tx, orgId: string, isrcs: readonly string[]): Promise<Map<string, string>> {
  if (isrcs.length === 0) return new Map()
  // One probe of the active-ISRC index per ISRC, whatever the planner believes of the table's size.
  const { rows } = await sql<{ isrc: string; id: string }>`
    select u.isrc, entry.id from unnest(${arrayLiteral(isrcs)}::text[]) as u(isrc)
    cross join lateral (
      select id from catalog_entries c
      where c.org_id = ${orgId} and c.isrc = u.isrc and c.isrc is not null and c.superseded_by is null
      limit 1) as entry`.execute(tx)
  return new Map(rows.map((row) => [row.isrc, row.id]))
}

/** The splits of these entries as `allocate` takes them, ordered by creator, by entry (splits never change: the app may only insert them). */
export async function sharesOf(tx: Tx, orgId: string, catalogIds: readonly string[]): Promise<Map<string, Share[]>> {
  const byEntry = new Map<string, Share[]>()
  if (catalogIds.length === 0) return byEntry
  const { rows } = await sql<{ catalog_id: string; creator_id: string; share_bps: number }>`
    select catalog_id, creator_id, share_bps from catalog_splits
    where org_id = ${orgId} and catalog_id = any(${arrayLiteral(catalogIds)}::text[])
    order by catalog_id, creator_id, position`.execute(tx)
  for (const row of rows) {
    let shares = byEntry.get(row.catalog_id)
    if (shares === undefined) byEntry.set(row.catalog_id, (shares = []))
    shares.push({ creatorId: row.creator_id, shareBps: row.share_bps })
  }
  return byEntry
}

/** The positions in `lines` of the statement lines this org has already recorded (each from its source). */
export async function presentStatementLines(
  db: Reader | Tx,
  orgId: string,
  lines: readonly { source: string; statementRef: string; lineRef: string }[],
): Promise<Set<number>> {
  if (lines.length === 0) return new Set()
  // A probe of the statement-line index per line (LATERAL ... LIMIT 1): a semi-join could be
  // planned as a scan of all the org's entries for every batch.
  const { rows } = await sql<{ n: bigint }>`
    select l.n from unnest(${arrayLiteral(lines.map((line) => line.source))}::text[], ${arrayLiteral(lines.map((line) => line.statementRef))}::text[], ${arrayLiteral(lines.map((line) => line.lineRef))}::text[]) with ordinality as l(source, statement_ref, line_ref, n)
    cross join lateral (
      select 1 from revenue_entries r
      where r.org_id = ${orgId} and r.source = l.source and r.statement_ref = l.statement_ref and r.line_ref = l.line_ref
        and r.statement_ref is not null and r.line_ref is not null
      limit 1) as recorded`.execute(db)
  return new Set(rows.map((row) => Number(row.n) - 1))
}

/**
 * What insertStatementLines does with a line already recorded: `skip` it with its allocations
 * (ON CONFLICT DO NOTHING, also against a concurrent writer), or `fail` the statement with a
 * unique violation of STATEMENT_LINE_INDEX (revenue.repo.ts). `fail` is a plain insert: ON
 * CONFLICT makes every row a speculative insertion (a pre-check of the index, a token, a
 * second WAL record), about 20 µs of the server's time per line.
 */
export type RecordedLines = 'skip' | 'fail'

/**
 * Inserts statement lines of one org, batch, time and creator (an import batch) with their
 * allocations, in one statement of array parameters; lines already recorded (the unique
 * statement-line index) are skipped or fail the statement (`recorded`). Returns the ids
 * inserted.
 */
export async function insertStatementLines(
  tx: Tx,
  rows: readonly RevenueRow[],
  allocations: readonly (readonly AllocationRow[])[],
  recorded: RecordedLines,
): Promise<Set<string>> {
  const first = rows[0]
  if (first === undefined) return new Set()
  for (const row of rows) {
    if (
      row.org_id !== first.org_id ||
      row.batch_id !== first.batch_id ||
      row.created_at !== first.created_at ||
      row.created_by !== first.created_by
    ) {
      throw new Error('insertStatementLines takes the lines of one org, batch, time and creator')
    }
    if (row.statement_ref === null || row.line_ref === null || row.event_id !== null || row.reverses !== null) {
      throw new Error('insertStatementLines takes statement lines (refs, no event, no reversal)')
    }
  }
  // In the unique index's key order, so writers taking several of the same lines take them in one
  // order (each row's key made once, not at every comparison of the sort).
  const keyed = rows.map((row) => ({ row, key: `${row.source}\u0000${row.statement_ref}\u0000${row.line_ref}` }))
  keyed.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0))
  const ordered = keyed.map((entry) => entry.row)
  const column = (pick: (row: RevenueRow) => string) => arrayLiteral(ordered.map(pick))
  const parts = allocations.flat()
  const { rows: inserted } = await sql<{ id: string }>`
    with entry as (
      insert into revenue_entries (org_id, id, catalog_id, source, type, period_start, period_end, territory, units, amount_micros, currency, statement_ref, line_ref, batch_id, created_at, created_by)
      select ${first.org_id}::text, l.id, l.catalog_id, l.source, l.type, l.period_start, l.period_end, l.territory, l.units, l.amount_micros, l.currency,
             l.statement_ref, l.line_ref, ${first.batch_id}::text, ${first.created_at}::timestamptz, ${first.created_by}::text
      from unnest(
        ${column((row) => row.id)}::text[], ${column((row) => row.catalog_id)}::text[], ${column((row) => row.source)}::text[], ${column((row) => row.type)}::text[],
        ${column((row) => row.period_start)}::text[], ${column((row) => row.period_end)}::text[], ${column((row) => row.territory)}::text[],
        ${column((row) => String(row.units))}::int8[], ${column((row) => String(row.amount_micros))}::int8[], ${column((row) => row.currency)}::text[],
        ${column((row) => row.statement_ref ?? '')}::text[], ${column((row) => row.line_ref ?? '')}::text[]
      ) as l(id, catalog_id, source, type, period_start, period_end, territory, units, amount_micros, currency, statement_ref, line_ref)
      ${recorded === 'skip' ? sql`on conflict (org_id, source, statement_ref, line_ref) where statement_ref is not null and line_ref is not null do nothing` : sql``}
      returning id
    ), allocation as (
      insert into revenue_allocations (org_id, revenue_id, creator_id, currency, amount_micros)
      select ${first.org_id}::text, a.revenue_id, a.creator_id, a.currency, a.amount_micros
      from unnest(
        ${arrayLiteral(parts.map((part) => part.revenue_id))}::text[], ${arrayLiteral(parts.map((part) => part.creator_id))}::text[],
        ${arrayLiteral(parts.map((part) => part.currency))}::text[], ${arrayLiteral(parts.map((part) => String(part.amount_micros)))}::int8[]
      ) as a(revenue_id, creator_id, currency, amount_micros)
      where a.revenue_id in (select id from entry)
    )
    select id from entry`.execute(tx)
  return new Set(inserted.map((row) => row.id))
}
