import { sql } from 'kysely'
import type { Tx } from '../../db/database.js'
import type { MergeableWrite } from '../../db/driver.js'
import { activeEntriesQuery, type EntryReference, type SplitRow } from '../catalog/catalog.repo.js'

/** Catalog references kept per process at most; past this the oldest is forgotten. */
export const KEPT_ENTRIES = 10_000

/** SQLSTATE of expect_sole_id (migration 0011): a kept read no longer holds. */
const STALE = 'OE001'

/** The one active entry a reference named when last read, with its splits (which never change). */
export interface KeptEntry {
  catalogId: string
  splits: SplitRow[]
  /**
   * The guard a write relying on it defers first (db.deferMergeable), compiled once: the
   * reference's active entries read again, expected to be this one alone. Mergeable with the
   * guards of this kept entry only, which are the same statement: a group commit whose lines
   * name the same reference sends it once.
   */
  guard: MergeableWrite
}

/**
 * What an org's catalog references named when a revenue line last read them, so that the
 * next line naming the same one needs no read before its write: the write carries a guard
 * (`KeptEntry.guard`) that fails its transaction unless the reference, read again inside it,
 * still names that entry alone. An entry's splits are insert-only (the app's grants), so an
 * entry still active still has the splits kept. Per process; a guard that fails forgets the
 * reference.
 */
export class KeptEntries {
  private readonly kept = new Map<string, KeptEntry>()

  constructor(private readonly max = KEPT_ENTRIES) {}

  get(orgId: string, ref: EntryReference): KeptEntry | undefined {
    return this.kept.get(keyOf(orgId, ref))
  }

  keep(tx: Tx, orgId: string, ref: EntryReference, catalogId: string, splits: SplitRow[]): void {
    const key = keyOf(orgId, ref)
    // Kept already for this entry (a ticket sale reads the long way every time): its splits cannot have changed.
    if (this.kept.get(key)?.catalogId === catalogId) return
    this.kept.delete(key)
    if (this.kept.size >= this.max) this.kept.delete(this.kept.keys().next().value!)
    // Built and compiled once here, not for every line: building it took a large share of the API's CPU per create (docs/performance.md).
    const named = activeEntriesQuery(tx, orgId, ref).clearSelect().select('catalog_entries.id')
    const compiled = tx.selectNoFrom(sql<void>`expect_sole_id(array(${named}), ${catalogId})`.as('kept')).compile()
    // A merge of its own (the guards merge by it): a read of the catalog, which the group's writes never change, made once for all.
    this.kept.set(key, { catalogId, splits, guard: { query: compiled, part: null, merge: () => compiled } })
  }

  forget(orgId: string, ref: EntryReference): void {
    this.kept.delete(keyOf(orgId, ref))
  }
}

/** The failure of a write whose kept entry no longer holds. */
export function keptEntryStale(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === STALE
}

function keyOf(orgId: string, ref: EntryReference): string {
  const [kind, value] = Object.entries(ref)[0] as [string, string]
  return `${orgId}\u0000${kind}\u0000${value}`
}
