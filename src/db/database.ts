import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { Kysely, type Compilable, type CompiledQuery, type QueryResult, type Transaction } from 'kysely'
import type { CommitPhase, CommitWrite } from './commit-writes.js'
import { createScopedDialect, scopedKysely, ScopedDriver, type OrgScope, type ScopedConnection } from './driver.js'
import { createGroupCommit, type GroupCommitStats } from './group-commit.js'
import { EMBEDDED_MAINTENANCE_MS, startMaintenance } from './maintenance.js'
import { migrate, readMigrations, type MigrationFile } from './migrate.js'
import { createPgliteBackend } from './pglite-backend.js'
import { createPgBackend, type SqlBackend } from './sql-backend.js'
import { StatementCache, type StatementCacheOptions, type StatementCacheStats } from './statement-cache.js'

export type { CommitPhase, CommitWrite, KeyedWrite } from './commit-writes.js'

/**
 * A write made from a transaction's result and committed with it (an idempotency key's stored
 * response), and told when the transaction has committed. The database knows nothing else of it.
 */
export interface CommitWith {
  write(result: unknown): CommitWrite
  committed(): void
}

/** What a transaction runs for: its org (the tenant scope). */
export interface TxContext {
  orgId: string
}

/** What a transaction commits besides what its work wrote: a write made from its result. */
export interface TxOptions {
  /** Sent with the COMMIT, made from the transaction's result (an idempotency key's stored answer). */
  commitWith?: CommitWith | undefined
}

/**
 * What modules use of the database. `S` is the schema (src/schema.ts): this layer knows no
 * table of its own. Transactions and reads run in an org's tenant scope (row-level security),
 * the scope travelling with the first statement.
 */
export interface Database<S> {
  readonly kind: SqlBackend['kind']
  readonly backend: SqlBackend
  /** Unscoped: only tables without org_id (users, sessions, idempotency) are visible. */
  readonly global: Kysely<S>
  readonly migrations: MigrationFile[]
  /** One transaction in the org's tenant scope. */
  tx<T>(ctx: TxContext, work: (tx: Transaction<S>) => Promise<T>, options?: TxOptions): Promise<T>
  /**
   * The one grouped form: a transaction whose work only reads (without locks) and sends every
   * write with its commit (`atCommit`). Its reads run on their own at READ COMMITTED, as they
   * would inside the transaction; its writes are committed with the org's other grouped
   * transactions that arrive while one is in flight (one chain lock, one WAL flush, keyed
   * writes merged into one statement each: src/db/group-commit.ts).
   */
  groupedTx<T>(ctx: TxContext, work: (tx: Transaction<S>) => Promise<T>, options?: TxOptions): Promise<T>
  /** Reads in the org's tenant scope, each statement one round trip. */
  read<T>(orgId: string, work: (db: Kysely<S>) => Promise<T>): Promise<T>
  /** A transaction with no tenant (users and sessions only). */
  globalTx<T>(work: (tx: Transaction<S>) => Promise<T>): Promise<T>
  /** Several statements of an org transaction in one round trip; each one's rows, in order. */
  batch(tx: Transaction<S>, queries: readonly Compilable[]): Promise<Record<string, unknown>[][]>
  /**
   * A write of an org transaction that nobody reads back, sent with its COMMIT in the same round
   * trip. `chain` writes go after every `rows` one; keyed writes of one key become one statement.
   */
  atCommit(tx: Transaction<S>, write: CommitWrite, phase?: CommitPhase): void
  /** How the group commit and the statement cache have done so far (tests, bench). */
  readonly stats: { groupCommit: GroupCommitStats; preparedStatements: StatementCacheStats }
  close(): Promise<void>
}

/** Runs a statement as written (raw SQL): all a caller that knows no table needs. */
export interface SqlRunner {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>
}

/** A Database as code that knows no table of the schema sees it (the platform: idempotency keys, credential notices). */
export interface UntypedDatabase {
  readonly kind: SqlBackend['kind']
  readonly backend: SqlBackend
  readonly global: SqlRunner
}

export interface DatabaseOptions {
  databaseUrl: string | null
  /** PGlite data directory, or `memory://` for an in-memory database. */
  dataDir: string
  poolSize?: number
  migrate?: boolean
  /** PGlite: start from this data-directory tarball (a migrated template, for tests). */
  pgliteTemplate?: Blob
  /**
   * PGlite: how often to analyse and vacuum the tables that need it, as autovacuum does on a
   * server (src/db/maintenance.ts); 0 turns it off. Default: every 10 s for a data directory,
   * off for `memory://` (a test's database, gone when the test ends).
   */
  maintenanceMs?: number
}

export async function openBackend(options: DatabaseOptions): Promise<SqlBackend> {
  if (options.databaseUrl) {
    return createPgBackend(options.databaseUrl, { max: options.poolSize ?? 10 })
  }
  if (options.dataDir.startsWith('memory://')) {
    return createPgliteBackend(options.dataDir, options.pgliteTemplate ? { template: options.pgliteTemplate } : {})
  }
  const dir = path.join(options.dataDir, 'pglite')
  await mkdir(dir, { recursive: true })
  return createPgliteBackend(dir)
}

export async function openDatabase<S>(options: DatabaseOptions): Promise<Database<S>> {
  const backend = await openBackend(options)
  const migrations = await readMigrations()
  if (options.migrate !== false) await migrate(backend, migrations)
  const db = createDatabase<S>(backend, migrations)
  const everyMs = options.maintenanceMs ?? (options.dataDir.startsWith('memory://') ? 0 : EMBEDDED_MAINTENANCE_MS)
  if (backend.kind !== 'pglite' || everyMs <= 0) return db
  // PGlite runs no autovacuum: the process that holds it does its work.
  const maintenance = startMaintenance(backend, {
    everyMs,
    onError: (error) =>
      process.stderr.write(
        `database maintenance failed (next round in ${everyMs} ms): ${error instanceof Error ? error.message : String(error)}\n`,
      ),
  })
  return {
    ...db,
    async close() {
      await maintenance.stop()
      await db.close()
    },
  }
}

/** The Database over an open, migrated backend. */
export function createDatabase<S>(
  backend: SqlBackend,
  migrations: MigrationFile[],
  options: { statements?: StatementCacheOptions } = {},
): Database<S> {
  const statements = new StatementCache(options.statements)
  const group = createGroupCommit(statements)
  const driver = new ScopedDriver(backend, group, statements)
  const dialect = createScopedDialect(driver)
  const kysely = new Kysely<S>({ dialect })
  const scoped = (scope: OrgScope) => scopedKysely(kysely, dialect, driver, scope)
  // Each open org transaction's scope, through which its connection is reached.
  const open = new WeakMap<Transaction<S>, OrgScope>()

  function connectionOf(tx: Transaction<S>): ScopedConnection {
    const scope = open.get(tx)
    if (!scope) throw new Error('not an open org transaction of this database (db.tx)')
    if (!scope.connection) throw new Error('the transaction has no connection yet')
    return scope.connection
  }

  async function run<T>(
    ctx: TxContext,
    grouped: boolean,
    work: (tx: Transaction<S>) => Promise<T>,
    options: TxOptions = {},
  ): Promise<T> {
    const scope: OrgScope = { orgId: ctx.orgId, ...(grouped ? { grouped: true } : {}) }
    const result = await scoped(scope)
      .transaction()
      .execute(async (tx) => {
        open.set(tx, scope)
        try {
          const result = await work(tx)
          if (options.commitWith) connectionOf(tx).atCommit(options.commitWith.write(result))
          return result
        } finally {
          open.delete(tx)
        }
      })
    options.commitWith?.committed()
    return result
  }

  return {
    kind: backend.kind,
    backend,
    global: kysely,
    migrations,
    stats: { groupCommit: group.stats, preparedStatements: statements.stats },
    tx: (ctx, work, options) => run(ctx, false, work, options),
    groupedTx: (ctx, work, options) => run(ctx, true, work, options),
    batch(tx, queries) {
      return connectionOf(tx).batch(queries.map((query) => query.compile()))
    },
    atCommit(tx, write, phase) {
      connectionOf(tx).atCommit(write, phase)
    },
    read(orgId, work) {
      return work(scoped({ orgId }))
    },
    globalTx(work) {
      return kysely.transaction().execute(work)
    },
    async close() {
      await kysely.destroy()
      await backend.end()
    },
  }
}
