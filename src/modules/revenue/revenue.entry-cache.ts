import { sql } from 'kysely'
import type { KeyedWrite, Tx } from '../../database.js'
import { activeEntriesQuery, type EntryReference, type SplitRow } from '../catalog/index.js'

/** Catalog references cached per process at most; past this the oldest is forgotten. */
export const CACHED_ENTRIES = 10_000

/** SQLSTATE of expect_sole_id (migration 0011): a cached read no longer holds. */
const STALE = 'OE001'

/** The one active entry a reference named when last read, with its splits (which never change). */
export interface CachedEntry {
  catalogId: string
  splits: SplitRow[]
  /**
   * The guard a write relying on it sends first with its commit (db.atCommit), compiled once:
   * the reference's active entries read again, expected to be this one alone. Keyed by the org,
   * reference and entry: the guards of one group commit that name the same are the same
   * statement, sent once.
   */
  guard: KeyedWrite
}

/**
 * What an org's catalog references named when a revenue line last read them, so that the
 * next line naming the same one needs no read before its write: the write carries a guard
 * (`CachedEntry.guard`) that fails its transaction unless the reference, read again inside it,
 * still names that entry alone. An entry's splits are insert-only (the app's grants), so an
 * entry still active still has the splits cached. Per process; a guard that fails forgets the
 * reference.
 */
export class EntryCache {
  private readonly entries = new Map<string, CachedEntry>()

  constructor(private readonly max = CACHED_ENTRIES) {}

  get(orgId: string, ref: EntryReference): CachedEntry | undefined {
    return this.entries.get(keyOf(orgId, ref))
  }

  keep(tx: Tx, orgId: string, ref: EntryReference, catalogId: string, splits: SplitRow[]): void {
    const key = keyOf(orgId, ref)
    // Cached already for this entry (a line that read it anyway): its splits cannot have changed.
    if (this.entries.get(key)?.catalogId === catalogId) return
    this.entries.delete(key)
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!)
    // Built and compiled once here, not for every line: building it took a large share of the API's CPU per create.
    const named = activeEntriesQuery(tx, orgId, ref).clearSelect().select('catalog_entries.id')
    const compiled = tx.selectNoFrom(sql<void>`expect_sole_id(array(${named}), ${catalogId})`.as('cached')).compile()
    // One for all that share its key: a read of the catalog, which the group's writes never change.
    const guard = { key: `cached-entry:${key}\u0000${catalogId}`, query: compiled, part: null, merge: () => compiled }
    this.entries.set(key, { catalogId, splits, guard })
  }

  forget(orgId: string, ref: EntryReference): void {
    this.entries.delete(keyOf(orgId, ref))
  }
}

/** The failure of a write whose cached entry no longer holds. */
export function cachedEntryStale(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === STALE
}

function keyOf(orgId: string, ref: EntryReference): string {
  const [kind, value] = Object.entries(ref)[0] as [string, string]
  return `${orgId}\u0000${kind}\u0000${value}`
}
