import type { CompiledQuery } from 'kysely'
import {
  Kysely as KyselyClass,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'
import type { GroupCommit } from './group-commit.js'
import type { SqlBackend, SqlResult, SqlSession } from './sql-backend.js'
import type { StatementCache } from './statement-cache.js'

/**
 * The tenant a unit of work runs for. A scoped Kysely (`scopedKysely`) acquires its
 * connections with it, so `set_config('app.org_id', ..., true)` travels in the same round
 * trip as the first statement: with BEGIN for a transaction, or with the statement itself
 * for a single read (one implicit transaction, one round trip). Passed explicitly, not
 * through AsyncLocalStorage, whose promise hooks would tax every promise of the process.
 */
export interface OrgScope {
  orgId: string
  /**
   * The transaction only reads until its commit (no locks) and defers every write: its
   * reads run on their own, and its writes are committed through the group commit.
   */
  grouped?: boolean
  /** The transaction's connection, once begun (set by the driver; `Database.tx` reaches it through this). */
  connection?: ScopedConnection
  /** A write committed on its own just ahead of the transaction's first statement (an idempotency claim). */
  lead?: LeadWrite
}

/**
 * A write that must commit, visible to everyone, before a transaction's work writes anything,
 * and whose answer may stop that work: an idempotency claim. It travels in the round trip of
 * the transaction's first statement, as a transaction of its own ahead of it (BEGIN ...
 * COMMIT), instead of taking a round trip of its own. Its commit does not wait for the WAL
 * flush: anything that depends on it commits later, durably, and so flushes it first.
 */
export interface LeadWrite {
  /** The statement to send now; null once it has been taken (it is sent once). */
  take(): CompiledQuery | null
  /** Its rows, after the round trip that carried it; throws to stop the transaction's work. */
  settle(rows: Record<string, unknown>[]): void
  /** The round trip that carried it failed: whether it committed is unknown. */
  lost(): void
  /**
   * The write as the transaction's own first write, for a grouped transaction that sent
   * nothing before its commit: one round trip in all. It is made to fail the transaction
   * where take()'s would find its key taken. Null once taken (or when it cannot be inlined).
   */
  inline?(): DeferredWrite | null
  /**
   * How the commit carrying inline()'s write ended: null when it committed. For a failure,
   * throws what the caller is to hear instead (the key found taken), or returns, the write's
   * fate settled from the failure (nothing written when the server refused the transaction).
   */
  settleInline?(failure: unknown): void
}

/** The lead write's statements around its text; its rows are the result at LEAD_ROWS. */
function leadStatements(write: string): string[] {
  return ['begin', 'set local synchronous_commit = off', write, 'commit']
}
const LEAD_ROWS = 2

const ORG_ID = /^org_[0-9A-HJKMNP-TV-Z]{26}$/

export function quoteLiteral(value: string): string {
  // standard_conforming_strings is on (checked at start), so only quotes need doubling.
  if (value.includes('\0')) throw new Error('NUL byte in SQL literal')
  return `'${value.replaceAll("'", "''")}'`
}

const ARRAY_ELEMENT_SPECIAL = /[\\"]/g

function arrayLiteral(items: readonly unknown[]): string {
  const parts = items.map((item) => {
    if (item === null || item === undefined) return 'NULL'
    if (Array.isArray(item)) throw new Error('nested arrays are not supported in inline parameters')
    // One pass over the element (backslash and quote each get a backslash); big arrays carry whole documents.
    return `"${String(item).replace(ARRAY_ELEMENT_SPECIAL, '\\$&')}"`
  })
  return `{${parts.join(',')}}`
}

/** A parameter as an untyped literal, resolved by context exactly as an extended-protocol parameter is. */
export function inlineParameter(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number' || typeof value === 'bigint') return quoteLiteral(String(value))
  if (typeof value === 'string') return quoteLiteral(value)
  if (value instanceof Date) return quoteLiteral(value.toISOString())
  if (value instanceof Uint8Array) return quoteLiteral(`\\x${Buffer.from(value).toString('hex')}`)
  if (Array.isArray(value)) return quoteLiteral(arrayLiteral(value))
  return quoteLiteral(JSON.stringify(value))
}

function lastOf(results: readonly SqlResult[]): SqlResult {
  return results[results.length - 1] ?? { rows: [], affectedRows: 0 }
}

/** The statement that puts a transaction in an org's tenant scope (RLS), for that transaction only. */
export function setOrgStatement(orgId: string): string {
  if (!ORG_ID.test(orgId)) throw new Error('invalid org id for tenant scope')
  return `select set_config('app.org_id', ${quoteLiteral(orgId)}, true)`
}

/** A statement whose parameters can be inlined: no string literal in its text, so `$n` is always a placeholder. */
function inlinable(sql: string): boolean {
  return !sql.includes("'")
}

/** A statement to send in a simple-protocol message: only one without string literals can be. */
function checkedInlinable(query: CompiledQuery): CompiledQuery {
  if (!inlinable(query.sql))
    throw new Error('a statement with a string literal cannot be batched or deferred; pass the value as a parameter')
  return query
}

/**
 * When a deferred write goes in the commit's message: plain writes first, then `chain`
 * (what takes the org's chain lock, and what must follow it): so a message never holds the
 * chain lock while it waits on a row another writer holds, and grouped transactions never
 * write their rows under the chain lock (a cycle with a writer that holds a row and waits
 * for the chain).
 */
export type DeferPhase = 'writes' | 'chain'

/**
 * A deferred write that others may share (the chain append, rows, the idempotency claim).
 * Sent alone it is `query`; when a transaction, or a group commit, carries several made by
 * the same `merge` in one phase, it sends the one statement `merge` makes of all their parts
 * (in order) where the first of them stood. The later parts move ahead of the writes between:
 * a write must need none of those, or fail without them (a failed group is retried one
 * transaction at a time, src/db/group-commit.ts).
 */
export interface MergeableWrite {
  query: CompiledQuery
  part: unknown
  merge(parts: readonly unknown[]): CompiledQuery
}

export type DeferredWrite = CompiledQuery | MergeableWrite

export function isMergeable(write: DeferredWrite): write is MergeableWrite {
  return 'merge' in write
}

/** The statement a deferred write is when it is sent alone. */
export function statementOf(write: DeferredWrite): CompiledQuery {
  return isMergeable(write) ? write.query : write
}

export interface DeferredWrites {
  writes: DeferredWrite[]
  chain: DeferredWrite[]
}

/** No deferred writes yet. */
function noDeferredWrites(): DeferredWrites {
  return { writes: [], chain: [] }
}

/**
 * Writes of one phase (of a transaction, or of a group of them) as statements: the mergeable
 * ones made by one `merge` become the one statement it makes of their parts, in order, where
 * the first of them stood (one chain append for the group's events, one insert of its
 * entries, ...); the others stay as they are, in order.
 */
export function mergedWrites(writes: readonly DeferredWrite[]): CompiledQuery[] {
  const slots: (CompiledQuery | MergeableWrite[])[] = []
  const byMerge = new Map<MergeableWrite['merge'], MergeableWrite[]>()
  for (const write of writes) {
    if (!isMergeable(write)) {
      slots.push(write)
      continue
    }
    const same = byMerge.get(write.merge)
    if (same) {
      same.push(write)
      continue
    }
    const slot = [write]
    byMerge.set(write.merge, slot)
    slots.push(slot)
  }
  return slots.map((slot) => {
    if (!Array.isArray(slot)) return slot
    return slot.length === 1 ? slot[0]!.query : slot[0]!.merge(slot.map((write) => write.part))
  })
}

/** A transaction's deferred writes, as it sends them alone (its own mergeable writes merged). */
export function deferredInOrder(deferred: DeferredWrites): CompiledQuery[] {
  return [...mergedWrites(deferred.writes), ...mergedWrites(deferred.chain)]
}

/** What a grouped transaction may run before its commit: plain reads, taking no row locks. */
function lockFreeRead(sql: string): boolean {
  return /^\s*select\b/i.test(sql) && !/\bfor\s+(no\s+key\s+)?(update|share|key\s+share)\b/i.test(sql)
}

export class ScopedConnection implements DatabaseConnection {
  private inTransaction = false
  private grouped = false
  /** BEGIN (and the tenant scope) not sent yet: they travel with the transaction's first statement. */
  private pendingBegin: string | null = null
  /** Writes whose results nobody reads, sent with COMMIT in its round trip (plain writes, then the chain's). */
  private deferred: DeferredWrites = noDeferredWrites()

  constructor(
    readonly session: SqlSession,
    private readonly scope: OrgScope | undefined,
    private readonly group: GroupCommit,
    private readonly statements: StatementCache,
  ) {}

  /** The statements as text for this connection (EXECUTE where it keeps them prepared); `mayPrepare` when no transaction is open on it. */
  private texts(queries: readonly CompiledQuery[], mayPrepare: boolean): Promise<string[]> {
    return this.statements.texts(this.session, queries, mayPrepare)
  }

  private async text(query: CompiledQuery, mayPrepare: boolean): Promise<string> {
    return (await this.texts([query], mayPrepare))[0]!
  }

  /** Sends `sql` with the lead write ahead of it, if it has not been sent: the last statement's result. */
  private async lastWithLead(sql: string): Promise<SqlResult> {
    if (!this.scope?.lead) return this.session.simple(sql)
    return lastOf(await this.withLead(sql))
  }

  /** Sends `sql` with the lead write ahead of it, if it has not been sent: every statement's result, the lead's removed. */
  private async withLead(sql: string): Promise<SqlResult[]> {
    return (await this.sendLead(sql)) ?? this.session.simpleAll(sql)
  }

  /** The lead write alone, in a round trip of its own (before a statement it cannot travel with). */
  private async leadAlone(): Promise<void> {
    await this.sendLead(null)
  }

  /** The lead write, if it has not been sent, then `sql`; the results after the lead's, or null when there was no lead to send. */
  private async sendLead(sql: string | null): Promise<SqlResult[] | null> {
    const lead = this.scope?.lead
    const query = lead?.take() ?? null
    if (!lead || !query) return null
    let results: SqlResult[]
    let statements: string[] = []
    try {
      // The lead goes first on the connection, ahead of any transaction: it may be prepared.
      statements = leadStatements(await this.text(checkedInlinable(query), true))
      results = await this.session.simpleAll([...statements, ...(sql === null ? [] : [sql])].join('; '))
    } catch (error) {
      lead.lost()
      throw error
    }
    lead.settle(results[LEAD_ROWS]!.rows)
    return results.slice(statements.length)
  }

  async begin(settings: TransactionSettings): Promise<void> {
    let begin = 'begin'
    if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`
    this.pendingBegin = this.scope ? `${begin}; ${setOrgStatement(this.scope.orgId)}` : begin
    this.inTransaction = true
    this.deferred = noDeferredWrites()
    this.grouped = this.scope?.grouped === true
    if (this.scope) this.scope.connection = this
  }

  async end(command: 'commit' | 'rollback'): Promise<void> {
    this.inTransaction = false
    const deferred = this.deferred
    this.deferred = noDeferredWrites()
    const anything = deferred.writes.length + deferred.chain.length > 0
    const begin = this.pendingBegin
    this.pendingBegin = null
    if (this.grouped) {
      // Nothing was sent in a transaction: its writes commit with the org's group (or alone).
      this.grouped = false
      if (command === 'commit' && anything) await this.commitGrouped(begin!, deferred)
      return
    }
    if (command === 'commit' && anything) {
      // One round trip: (the lead write, BEGIN and scope, if nothing was sent yet,) the deferred writes and COMMIT.
      // A failure leaves the server's transaction aborted; the caller's rollback ends it.
      const writes = await this.texts(deferredInOrder(deferred), begin !== null)
      await this.lastWithLead([...(begin === null ? [] : [begin]), ...writes, 'commit'].join('; '))
      return
    }
    // Nothing was sent: there is no transaction to end on the server.
    if (begin !== null) return
    await this.session.simple(command)
  }

  /**
   * A grouped transaction's writes, through the group commit. A lead write not sent yet (its
   * work read nothing) goes inside the transaction, first, when it can: one round trip.
   */
  private async commitGrouped(begin: string, deferred: DeferredWrites): Promise<void> {
    const lead = this.scope?.lead
    const inline = lead?.inline?.() ?? null
    if (inline === null) {
      await this.leadAlone()
      await this.group.commit(this.session, this.scope!.orgId, begin, deferred)
      return
    }
    checkedInlinable(statementOf(inline))
    const writes = [inline, ...deferred.writes]
    try {
      await this.group.commit(this.session, this.scope!.orgId, begin, { ...deferred, writes })
    } catch (error) {
      lead!.settleInline!(error)
      throw error
    }
    lead!.settleInline!(null)
  }

  /** Queues a write to be sent with this transaction's COMMIT; `chain` ones after every plain one. */
  defer(write: DeferredWrite, phase: DeferPhase = 'writes'): void {
    if (!this.inTransaction) throw new Error('only a transaction can defer writes to its commit')
    checkedInlinable(statementOf(write))
    this.deferred[phase].push(write)
  }

  /** Whether this transaction has writes to send with its commit. */
  hasDeferredWrites(): boolean {
    return this.deferred.writes.length + this.deferred.chain.length > 0
  }

  /** Several statements in one round trip (with BEGIN and the scope, if not sent yet); each one's rows. */
  async batch(queries: readonly CompiledQuery[]): Promise<Record<string, unknown>[][]> {
    if (queries.length === 0) return []
    for (const query of queries) checkedInlinable(query)
    if (this.grouped) {
      for (const query of queries) this.checkGroupedRead(query.sql)
      // A grouped transaction's reads run on their own: no transaction is open on the connection.
      const statements = await this.texts(queries, true)
      const results = await this.withLead([setOrgStatement(this.scope!.orgId), ...statements].join('; '))
      return results.slice(1).map((result) => result.rows)
    }
    const begin = this.inTransaction ? this.pendingBegin : null
    const statements = await this.texts(queries, !this.inTransaction || begin !== null)
    this.pendingBegin = null
    const prefix = begin === null ? [] : [begin]
    if (!this.inTransaction && this.scope) prefix.push(setOrgStatement(this.scope.orgId))
    const results = await this.withLead([...prefix, ...statements].join('; '))
    // The prefix's results (BEGIN, set_config) come first; the statements' are the last ones.
    return results.slice(results.length - statements.length).map((result) => result.rows)
  }

  private checkGroupedRead(sql: string): void {
    if (!lockFreeRead(sql))
      throw new Error(
        'a grouped transaction only reads (without locks) before its commit: defer its writes (db.deferToCommit)',
      )
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiled
    let result
    if (this.grouped) {
      // A read of its own, in the tenant scope: the transaction's writes come at its commit.
      this.checkGroupedRead(sql)
      result = inlinable(sql)
        ? await this.lastWithLead(`${setOrgStatement(this.scope!.orgId)}; ${await this.text(compiled, true)}`)
        : await this.scopedExtended(sql, parameters)
    } else if (this.inTransaction && this.pendingBegin !== null) {
      // The transaction's first statement: (the lead write,) BEGIN, the tenant scope and the statement in one round trip.
      const begin = this.pendingBegin
      this.pendingBegin = null
      if (inlinable(sql)) {
        result = await this.lastWithLead(`${begin}; ${await this.text(compiled, true)}`)
      } else {
        await this.leadAlone()
        await this.session.simple(begin)
        result = await this.session.query(sql, parameters)
      }
    } else if (this.scope && !this.inTransaction) {
      // Outside a transaction a tenant read is one round trip: set_config and the statement
      // run in the simple protocol's single implicit transaction.
      result = inlinable(sql)
        ? await this.session.simple(`${setOrgStatement(this.scope.orgId)}; ${await this.text(compiled, true)}`)
        : await this.scopedExtended(sql, parameters)
    } else {
      result = await this.session.query(sql, parameters)
    }
    return { rows: result.rows as R[], numAffectedRows: BigInt(result.affectedRows) }
  }

  /** A statement that cannot be inlined, alone in a transaction of its own in the tenant scope. */
  private async scopedExtended(sql: string, parameters: readonly unknown[]) {
    await this.leadAlone()
    await this.session.simple(`begin; ${setOrgStatement(this.scope!.orgId)}`)
    try {
      return await this.session.query(sql, parameters)
    } finally {
      await this.session.simple('commit')
    }
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is done with keyset batches, not cursors')
  }
}

export class ScopedDriver implements Driver {
  constructor(
    private readonly backend: SqlBackend,
    private readonly group: GroupCommit,
    private readonly statements: StatementCache,
  ) {}

  async init(): Promise<void> {}

  /** An unscoped connection (the global Kysely's). */
  acquireConnection(): Promise<DatabaseConnection> {
    return this.connect(undefined)
  }

  async connect(scope: OrgScope | undefined): Promise<ScopedConnection> {
    return new ScopedConnection(await this.backend.acquire(), scope, this.group, this.statements)
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await (connection as ScopedConnection).begin(settings)
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ScopedConnection).end('commit')
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as ScopedConnection).end('rollback')
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    ;(connection as ScopedConnection).session.release()
  }

  /** The backend is ended by its Database (close), which owns it: scoped instances never initialise Kysely's own driver wrapper. */
  async destroy(): Promise<void> {}
}

/** A dialect over an existing driver (so scoped instances can share it). */
export function createScopedDialect(driver: ScopedDriver): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
  }
}

/** A Kysely whose every connection runs in `scope`: the base's compiler and driver, its own connections. */
export function scopedKysely<DB>(
  base: Kysely<DB>,
  dialect: Dialect,
  driver: ScopedDriver,
  scope: OrgScope,
): Kysely<DB> {
  const connections = {
    async provideConnection<T>(consumer: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
      const connection = await driver.connect(scope)
      try {
        return await consumer(connection)
      } finally {
        await driver.releaseConnection(connection)
      }
    },
  }
  return new KyselyClass<DB>({
    config: { dialect },
    dialect,
    driver,
    executor: base.getExecutor().withConnectionProvider(connections),
  })
}
