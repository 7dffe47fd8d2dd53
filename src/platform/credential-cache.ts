import { sql } from 'kysely'
import type { QueryExecutorProvider } from 'kysely'
import type { UntypedDatabase } from '../db/database.js'
import type { Subscription } from '../db/sql-backend.js'
import { SECOND, type Clock } from './clock.js'

/** The channel on which a node tells every node (itself included) which credentials changed. */
export const CREDENTIALS_CHANNEL = 'oeuvre_credentials'

/** How long a cached credential is trusted without hearing of a change: a bound, not the mechanism. */
export const CREDENTIAL_TTL_MS = 10 * SECOND
const MAX_ENTRIES = 50_000

/** What a credential lookup found, and the tags whose change makes it stale (`client:cli_...`, `user:usr_...`). */
export interface Loaded<T> {
  value: T
  tags: readonly string[]
}

/**
 * Resolved credentials (session and access-token lookups) kept in memory, so an
 * authenticated request needs no database round trip of its own.
 *
 * Staleness is bounded three ways:
 * - a write that changes what a credential resolves to announces its tags in its own
 *   transaction (NOTIFY, delivered to every node at commit) and forgets them locally once
 *   committed, so the node that made the change never answers from the old state;
 * - a lookup that was running while any change arrived is not cached (it may have read the
 *   state from before the change);
 * - while the notification connection is down nothing is cached, and all is forgotten when
 *   it drops and when it listens again. Entries also expire after CREDENTIAL_TTL_MS.
 * Expiry times and idle limits are checked on every use by the caller, against its clock.
 */
export interface CredentialCache {
  resolve<T>(key: string, load: () => Promise<Loaded<T> | null>): Promise<T | null>
  /** Inside the changing transaction (or right after an autocommit write): tells every node. */
  announce(executor: QueryExecutorProvider, tags: readonly string[]): Promise<void>
  /** Once the change has committed: forgets the tags on this node at once. */
  forget(tags: readonly string[]): void
  /** For metrics and tests. */
  stats(): CredentialCacheStats
  close(): Promise<void>
}

export interface CredentialCacheStats {
  entries: number
  hits: number
  misses: number
  /** Whether change notifications are arriving (nothing is cached while they are not). */
  listening: boolean
}

interface Entry {
  value: unknown
  tags: readonly string[]
  freshUntil: number
}

/** The cached entries, indexed by tag: what a change to a tag makes stale. */
class TaggedEntries {
  private readonly entries = new Map<string, Entry>()
  private readonly byTag = new Map<string, Set<string>>()

  get size(): number {
    return this.entries.size
  }

  get(key: string): Entry | undefined {
    return this.entries.get(key)
  }

  drop(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag)
      keys?.delete(key)
      if (keys?.size === 0) this.byTag.delete(tag)
    }
  }

  dropTagged(tags: readonly string[]): void {
    for (const tag of tags) for (const key of [...(this.byTag.get(tag) ?? [])]) this.drop(key)
  }

  clear(): void {
    this.entries.clear()
    this.byTag.clear()
  }

  store(key: string, loaded: Loaded<unknown>, freshUntil: number): void {
    this.drop(key)
    if (this.entries.size >= MAX_ENTRIES) {
      // Oldest first (insertion order): a tenth goes, so this is rare.
      let excess = Math.ceil(MAX_ENTRIES / 10)
      for (const old of this.entries.keys()) {
        if (excess-- === 0) break
        this.drop(old)
      }
    }
    this.entries.set(key, { value: loaded.value, tags: loaded.tags, freshUntil })
    for (const tag of loaded.tags) {
      let keys = this.byTag.get(tag)
      if (!keys) this.byTag.set(tag, (keys = new Set()))
      keys.add(key)
    }
  }
}

export function createCredentialCache(deps: { db: UntypedDatabase; clock: Clock; ttlMs?: number }): CredentialCache {
  const ttlMs = deps.ttlMs ?? CREDENTIAL_TTL_MS
  const entries = new TaggedEntries()
  // Bumped by every change heard; a lookup that saw it move does not cache what it read.
  let epoch = 0
  let flowing = false
  let subscription: Promise<Subscription> | null = null
  let closed = false
  let hits = 0
  let misses = 0

  function forget(tags: readonly string[]): void {
    epoch += 1
    entries.dropTagged(tags)
  }

  function forgetAll(): void {
    epoch += 1
    entries.clear()
  }

  function subscribe(): void {
    if (subscription || closed) return
    subscription = deps.db.backend.listen(CREDENTIALS_CHANNEL, {
      message: (tag) => forget([tag]),
      listening: (now) => {
        flowing = now
        forgetAll()
      },
    })
    // A failure to subscribe leaves `flowing` false: every lookup then goes to the database.
    subscription.catch(() => undefined)
  }

  return {
    async resolve<T>(key: string, load: () => Promise<Loaded<T> | null>): Promise<T | null> {
      subscribe()
      const now = deps.clock.now().getTime()
      const hit = entries.get(key)
      if (hit && flowing && hit.freshUntil > now) {
        hits += 1
        return hit.value as T
      }
      misses += 1
      if (hit) entries.drop(key)
      const seen = epoch
      const loaded = await load()
      if (loaded && flowing && seen === epoch) entries.store(key, loaded, now + ttlMs)
      return loaded?.value ?? null
    },

    announce: (executor, tags) => announceChanges(executor, tags),

    forget,

    stats: () => ({ entries: entries.size, hits, misses, listening: flowing }),

    async close() {
      closed = true
      flowing = false
      forgetAll()
      const pending = subscription
      subscription = null
      if (pending) await (await pending.catch(() => null))?.close()
    },
  }
}

async function announceChanges(executor: QueryExecutorProvider, tags: readonly string[]): Promise<void> {
  if (tags.length === 0) return
  await sql`select pg_notify(${CREDENTIALS_CHANNEL}, tag) from unnest(${[...tags]}::text[]) as tag`.execute(executor)
}
