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
import {
  noCommitWrites,
  statementOf,
  inOrder,
  type CommitPhase,
  type CommitWrite,
  type CommitWrites,
} from './commit-writes.js'
import type { GroupCommit } from './group-commit.js'
import type { SqlBackend, SqlSession } from './sql-backend.js'
import { checkedInlinable, inlinable, setOrgStatement } from './sql-text.js'
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
   * The transaction only reads until its commit (no locks) and sends every write with it: its
   * reads run on their own, and its writes are committed through the group commit.
   */
  grouped?: boolean
  /** The transaction's connection, once begun (set by the driver; `Database.tx` reaches it through this). */
  connection?: ScopedConnection
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
  /** Writes whose results nobody reads, sent with COMMIT in its round trip (rows, then the chain's). */
  private writes: CommitWrites = noCommitWrites()

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

  async begin(settings: TransactionSettings): Promise<void> {
    let begin = 'begin'
    if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`
    this.pendingBegin = this.scope ? `${begin}; ${setOrgStatement(this.scope.orgId)}` : begin
    this.inTransaction = true
    this.writes = noCommitWrites()
    this.grouped = this.scope?.grouped === true
    if (this.scope) this.scope.connection = this
  }

  async end(command: 'commit' | 'rollback'): Promise<void> {
    this.inTransaction = false
    const writes = this.writes
    this.writes = noCommitWrites()
    const anything = writes.rows.length + writes.chain.length > 0
    const begin = this.pendingBegin
    this.pendingBegin = null
    if (this.grouped) {
      // Nothing was sent in a transaction: its writes commit with the org's group (or alone).
      this.grouped = false
      if (command === 'commit' && anything) await this.group.commit(this.session, this.scope!.orgId, begin!, writes)
      return
    }
    if (command === 'commit' && anything) {
      // One round trip: (BEGIN and scope, if nothing was sent yet,) the writes and COMMIT.
      // A failure leaves the server's transaction aborted; the caller's rollback ends it.
      const texts = await this.texts(inOrder(writes), begin !== null)
      await this.session.simple([...(begin === null ? [] : [begin]), ...texts, 'commit'].join('; '))
      return
    }
    // Nothing was sent: there is no transaction to end on the server.
    if (begin !== null) return
    await this.session.simple(command)
  }

  /** Queues a write to be sent with this transaction's COMMIT; `chain` ones after every `rows` one. */
  atCommit(write: CommitWrite, phase: CommitPhase = 'rows'): void {
    if (!this.inTransaction) throw new Error('only a transaction can send writes with its commit')
    checkedInlinable(statementOf(write))
    this.writes[phase].push(write)
  }

  /** Several statements in one round trip (with BEGIN and the scope, if not sent yet); each one's rows. */
  async batch(queries: readonly CompiledQuery[]): Promise<Record<string, unknown>[][]> {
    if (queries.length === 0) return []
    for (const query of queries) checkedInlinable(query)
    if (this.grouped) {
      for (const query of queries) this.checkGroupedRead(query.sql)
      // A grouped transaction's reads run on their own: no transaction is open on the connection.
      const statements = await this.texts(queries, true)
      const results = await this.session.simpleAll([setOrgStatement(this.scope!.orgId), ...statements].join('; '))
      return results.slice(1).map((result) => result.rows)
    }
    const begin = this.inTransaction ? this.pendingBegin : null
    const statements = await this.texts(queries, !this.inTransaction || begin !== null)
    this.pendingBegin = null
    const prefix = begin === null ? [] : [begin]
    if (!this.inTransaction && this.scope) prefix.push(setOrgStatement(this.scope.orgId))
    const results = await this.session.simpleAll([...prefix, ...statements].join('; '))
    // The prefix's results (BEGIN, set_config) come first; the statements' are the last ones.
    return results.slice(results.length - statements.length).map((result) => result.rows)
  }

  private checkGroupedRead(sql: string): void {
    if (!lockFreeRead(sql))
      throw new Error('a grouped transaction only reads (without locks) before its commit: send its writes with it')
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiled
    let result
    if (this.grouped) {
      // A read of its own, in the tenant scope: the transaction's writes come at its commit.
      this.checkGroupedRead(sql)
      result = inlinable(sql)
        ? await this.session.simple(`${setOrgStatement(this.scope!.orgId)}; ${await this.text(compiled, true)}`)
        : await this.scopedExtended(sql, parameters)
    } else if (this.inTransaction && this.pendingBegin !== null) {
      // The transaction's first statement: BEGIN, the tenant scope and the statement in one round trip.
      const begin = this.pendingBegin
      this.pendingBegin = null
      if (inlinable(sql)) {
        result = await this.session.simple(`${begin}; ${await this.text(compiled, true)}`)
      } else {
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
