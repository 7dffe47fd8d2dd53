import type { CompiledQuery } from 'kysely'
import { inlineParameter, inlineStatement } from './sql-text.js'
import type { SqlSession } from './sql-backend.js'

/**
 * Plans kept across requests. The scoped driver sends statements in the simple protocol (so
 * several travel in one message), where PostgreSQL parses, rewrites (row-level security) and
 * plans each one every time: for the create's reads that is several times their execution.
 * A statement whose text comes back is prepared once per connection (PREPARE, in a round trip
 * of its own) and sent as `EXECUTE name(literals)` from then on, still in the batched
 * messages. The literals are the ones inlining would write, and they bind to the types
 * PREPARE inferred from the statement, exactly as an extended-protocol parameter does.
 */

/** Sightings of a text before it is prepared: a text seen once (an IN list of a new length) may never come again. */
const PREPARE_AFTER = 2
/** Texts counted, and statements prepared, at most per process: bounds what each connection holds on the server. */
const MAX_COUNTED = 2_000
const MAX_PREPARED = 256

export interface StatementCacheStats {
  /** PREPAREs sent (once per connection and statement). */
  prepared: number
  /** Statements sent as EXECUTE of a prepared one. */
  executed: number
  /** Statements the server could not prepare (a parameter whose type it cannot infer): inlined from then on. */
  refused: number
}

export interface StatementCacheOptions {
  /** false: every statement inlined, none prepared (tests of the messages' layout). */
  enabled?: boolean
}

/** SQLSTATE class 42 (syntax error or access rule violation): what PREPARE says of a statement it cannot type. */
const SYNTAX_OR_ACCESS = /^42/
const DUPLICATE_PREPARED = '42P05'

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

export class StatementCache {
  private readonly sightings = new Map<string, number>()
  private readonly names = new Map<string, string>()
  private readonly refusals = new Set<string>()
  private readonly enabled: boolean
  private named = 0
  readonly stats: StatementCacheStats = { prepared: 0, executed: 0, refused: 0 }

  constructor(options: StatementCacheOptions = {}) {
    this.enabled = options.enabled !== false
  }

  /** The statement's name once its text has come back often enough to keep; null while it has not (or cannot). */
  private nameFor(sql: string): string | null {
    const known = this.names.get(sql)
    if (known !== undefined) return known
    if (!this.enabled || this.refusals.has(sql) || this.names.size >= MAX_PREPARED) return null
    const seen = (this.sightings.get(sql) ?? 0) + 1
    if (seen < PREPARE_AFTER) {
      if (this.sightings.size < MAX_COUNTED) this.sightings.set(sql, seen)
      return null
    }
    this.sightings.delete(sql)
    this.named += 1
    const name = `oeuvre_${this.named}`
    this.names.set(sql, name)
    return name
  }

  /**
   * Each statement as simple-protocol text for `session`: EXECUTE where the connection keeps it
   * prepared, the statement with its parameters inlined otherwise. With `mayPrepare` (no
   * transaction open on the connection, so a PREPARE the server refuses aborts nothing) the
   * statements worth keeping that the connection lacks are prepared first.
   */
  async texts(session: SqlSession, queries: readonly CompiledQuery[], mayPrepare: boolean): Promise<string[]> {
    const texts: string[] = []
    for (const query of queries) {
      const name = this.nameFor(query.sql)
      if (name !== null && !session.prepared.has(name) && mayPrepare) await this.prepare(session, name, query.sql)
      if (name !== null && session.prepared.has(name)) {
        this.stats.executed += 1
        texts.push(
          query.parameters.length === 0
            ? `execute ${name}`
            : `execute ${name}(${query.parameters.map(inlineParameter).join(', ')})`,
        )
      } else {
        texts.push(inlineStatement(query.sql, query.parameters))
      }
    }
    return texts
  }

  private async prepare(session: SqlSession, name: string, sql: string): Promise<void> {
    try {
      await session.simple(`prepare ${name} as ${sql}`)
      this.stats.prepared += 1
    } catch (error) {
      const state = sqlState(error)
      if (state === DUPLICATE_PREPARED) {
        // Already there (prepared by a round trip whose answer was lost): keep using it.
      } else if (state !== undefined && SYNTAX_OR_ACCESS.test(state)) {
        // The server cannot type a parameter (`$1 is null`) or the statement itself is wrong:
        // inlined from now on, where the literal resolves by context (or the caller hears the error).
        this.names.delete(sql)
        this.refusals.add(sql)
        this.stats.refused += 1
        return
      } else {
        throw error
      }
    }
    session.prepared.add(name)
  }
}
