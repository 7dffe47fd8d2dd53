import type { CompiledQuery } from 'kysely'

/**
 * Writes sent with a transaction's COMMIT, in its round trip: nobody reads them back. A write
 * with a `key` may be merged with the writes of the same key of the other transactions a group
 * commit sends together (src/db/group-commit.ts): one statement for all of them, `merge` of
 * their parts, in order. Writes of one phase go in the order given; `chain` writes (the org's
 * event chain, which takes its lock) after every `rows` write, so a message never holds the
 * chain lock while it waits on a row another writer holds.
 */
export interface KeyedWrite {
  /** Writes merge when their keys are equal (`insert:revenue_entries`, `chain:org_...`). */
  key: string
  /** The statement alone. */
  query: CompiledQuery
  part: unknown
  /** The one statement for several writes of this key, from their parts in order. */
  merge(parts: readonly unknown[]): CompiledQuery
}

export type CommitWrite = CompiledQuery | KeyedWrite
export type CommitPhase = 'rows' | 'chain'
export type CommitWrites = Record<CommitPhase, CommitWrite[]>

export function noCommitWrites(): CommitWrites {
  return { rows: [], chain: [] }
}

export function isKeyed(write: CommitWrite): write is KeyedWrite {
  return 'key' in write
}

/** The statement a write is when it is sent alone. */
export function statementOf(write: CommitWrite): CompiledQuery {
  return isKeyed(write) ? write.query : write
}

/**
 * Writes of one phase as statements: the keyed ones of one key become the one statement their
 * merge makes, where the first of them stood; the others stay as they are, in order. A write
 * moved ahead so must need none of the writes it passes, or fail without them (a failed group
 * is committed again one transaction at a time).
 */
export function mergedWrites(writes: readonly CommitWrite[]): CompiledQuery[] {
  const slots: (CompiledQuery | KeyedWrite[])[] = []
  const byKey = new Map<string, KeyedWrite[]>()
  for (const write of writes) {
    if (!isKeyed(write)) {
      slots.push(write)
      continue
    }
    const same = byKey.get(write.key)
    if (same) {
      same.push(write)
      continue
    }
    const slot = [write]
    byKey.set(write.key, slot)
    slots.push(slot)
  }
  return slots.map((slot) => {
    if (!Array.isArray(slot)) return slot
    return slot.length === 1 ? slot[0]!.query : slot[0]!.merge(slot.map((write) => write.part))
  })
}

/** One transaction's writes in the order sent (its keyed writes merged). */
export function inOrder(writes: CommitWrites): CompiledQuery[] {
  return [...mergedWrites(writes.rows), ...mergedWrites(writes.chain)]
}
