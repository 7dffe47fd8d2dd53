import type { ExpressionBuilder, Selectable } from 'kysely'
import type { Reader, Tx } from '../../database.js'
import type { DB } from '../../schema.js'
import type { Keyset } from '../../platform/pagination.js'
import { gtin14 } from '../../shared/records/records.identifiers.js'
import type { CatalogTables } from './catalog.tables.js'
import { olderThan } from '../../platform/pagination.js'

export type CatalogRow = Selectable<CatalogTables['catalog_entries']>
export type SplitRow = Selectable<CatalogTables['catalog_splits']>

export async function insertEntry(tx: Tx, row: CatalogRow, splits: SplitRow[]): Promise<void> {
  await tx.insertInto('catalog_entries').values(row).execute()
  await tx.insertInto('catalog_splits').values(splits).execute()
}

export function findEntry(db: Reader | Tx, orgId: string, id: string): Promise<CatalogRow | undefined> {
  return db
    .selectFrom('catalog_entries')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** Marks an active entry superseded; undefined when it does not exist or is already superseded. */
export function supersedeEntry(tx: Tx, orgId: string, id: string, by: string): Promise<CatalogRow | undefined> {
  return tx
    .updateTable('catalog_entries')
    .set({ superseded_by: by })
    .where('org_id', '=', orgId)
    .where('id', '=', id)
    .where('superseded_by', 'is', null)
    .returningAll()
    .executeTakeFirst()
}

export function activeEntryWithIsrc(db: Reader | Tx, orgId: string, isrc: string): Promise<CatalogRow | undefined> {
  return db
    .selectFrom('catalog_entries')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('isrc', '=', isrc)
    .where('superseded_by', 'is', null)
    .executeTakeFirst()
}

/** How a revenue line names its catalog entry. */
export type EntryReference = { catalogId: string } | { isrc: string } | { iswc: string } | { upc: string }

/** The active entries a reference names (an ISWC or UPC may name more than one): at most two, enough to tell. */
export function activeEntriesFor(db: Reader | Tx, orgId: string, ref: EntryReference): Promise<CatalogRow[]> {
  return activeEntriesQuery(db, orgId, ref).execute()
}

/** activeEntriesFor's query, to run in a batch. */
export function activeEntriesQuery(db: Reader | Tx, orgId: string, ref: EntryReference) {
  return db
    .selectFrom('catalog_entries')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('superseded_by', 'is', null)
    .where(namedBy(ref))
    .limit(2)
}

/** The splits of the active entries a reference names, in each entry's order (a batch's companion to activeEntriesQuery). */
export function activeSplitsQuery(db: Reader | Tx, orgId: string, ref: EntryReference) {
  return db
    .selectFrom('catalog_splits')
    .selectAll('catalog_splits')
    .innerJoin('catalog_entries', (join) =>
      join
        .onRef('catalog_entries.org_id', '=', 'catalog_splits.org_id')
        .onRef('catalog_entries.id', '=', 'catalog_splits.catalog_id'),
    )
    .where('catalog_splits.org_id', '=', orgId)
    .where('catalog_entries.superseded_by', 'is', null)
    .where(namedBy(ref))
    .orderBy('catalog_splits.catalog_id')
    .orderBy('catalog_splits.position')
}

/** The condition on catalog_entries that a reference names an entry. */
function namedBy(ref: EntryReference) {
  return (eb: ExpressionBuilder<DB, 'catalog_entries'>) => {
    if ('catalogId' in ref) return eb('catalog_entries.id', '=', ref.catalogId)
    if ('isrc' in ref) return eb('catalog_entries.isrc', '=', ref.isrc)
    if ('iswc' in ref) return eb('catalog_entries.iswc', '=', ref.iswc)
    return eb.and([
      eb('catalog_entries.upc', 'is not', null),
      eb(eb.fn('lpad', ['catalog_entries.upc', eb.val(14), eb.val('0')]), '=', gtin14(ref.upc)),
    ])
  }
}

export async function splitsOf(
  db: Reader | Tx,
  orgId: string,
  catalogIds: readonly string[],
): Promise<Map<string, SplitRow[]>> {
  const bySplit = new Map<string, SplitRow[]>()
  if (catalogIds.length === 0) return bySplit
  const rows = await db
    .selectFrom('catalog_splits')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('catalog_id', 'in', [...new Set(catalogIds)])
    .orderBy('catalog_id')
    .orderBy('position')
    .execute()
  for (const row of rows) {
    const list = bySplit.get(row.catalog_id) ?? []
    list.push(row)
    bySplit.set(row.catalog_id, list)
  }
  return bySplit
}

export interface CatalogFilters {
  kind?: CatalogRow['kind']
  isrc?: string
  creatorId?: string
  q?: string
}

const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`)

export function listEntries(
  db: Reader,
  orgId: string,
  filters: CatalogFilters,
  after: Keyset | null,
  limit: number,
): Promise<CatalogRow[]> {
  let select = db.selectFrom('catalog_entries as c').selectAll('c').where('c.org_id', '=', orgId)
  if (filters.kind) select = select.where('c.kind', '=', filters.kind)
  if (filters.isrc) select = select.where('c.isrc', '=', filters.isrc)
  if (filters.creatorId) {
    const creatorId = filters.creatorId
    select = select.where((eb) =>
      eb.exists(
        eb
          .selectFrom('catalog_splits as s')
          .select('s.position')
          .whereRef('s.org_id', '=', 'c.org_id')
          .whereRef('s.catalog_id', '=', 'c.id')
          .where('s.creator_id', '=', creatorId),
      ),
    )
  }
  if (filters.q) {
    const pattern = `%${escapeLike(filters.q)}%`
    select = select.where((eb) =>
      eb.or([
        eb('c.title', 'ilike', pattern),
        eb('c.version_title', 'ilike', pattern),
        eb('c.display_artist', 'ilike', pattern),
      ]),
    )
  }
  if (after) select = select.where(olderThan(after, 'c.created_at', 'c.id'))
  return select
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(limit + 1)
    .execute()
}
