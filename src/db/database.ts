import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { Kysely, type Compilable, type Transaction } from 'kysely'
import {
  createScopedDialect,
  scopedKysely,
  ScopedDriver,
  type DeferPhase,
  type MergeableWrite,
  type LeadWrite,
  type OrgScope,
  type ScopedConnection,
} from './driver.js'
import { createGroupCommit, type GroupCommitStats } from './group-commit.js'
import { EMBEDDED_MAINTENANCE_MS, startMaintenance } from './maintenance.js'
import { migrate, readMigrations, type MigrationFile } from './migrate.js'
import type { DB } from './schema.js'
import { createPgBackend, createPgliteBackend, type SqlBackend } from './sql-backend.js'
import { StatementCache, type StatementCacheOptions, type StatementCacheStats } from './statement-cache.js'

export type Tx = Transaction<DB>
export type Reader = Kysely<DB>

/** Work that must commit with a transaction's domain rows (idempotency completion). */
export interface TxParticipant {
  /** A write to commit on its own ahead of the transaction's first statement, in its round trip (a claim not yet made). */
  readonly lead?: LeadWrite
  /** The write that commits with the transaction's result (sent with its COMMIT). */
  commitWrite(tx: Tx, result: unknown): Compilable
  /**
   * For a grouped transaction that has sent nothing: its lead write will go inside it, at its
   * commit (LeadWrite.inline), so it may carry the result itself instead of a commitWrite.
   * True when it will; false when the commitWrite is still needed.
   */
  completeInline?(result: unknown): boolean
  afterCommit(): void
}

export interface TxContext {
  orgId: string
  participant?: TxParticipant
}

export interface TxOptions {
  /**
   * The work only reads (no locks) and defers every write to the commit: its writes are
   * committed through the group commit, together with the org's other such transactions
   * that arrive while one is in flight (one chain lock and one WAL flush for the group).
   * Reads run on their own at READ COMMITTED, as they would inside the transaction.
   */
  grouped?: boolean
}

export interface Database {
  readonly kind: SqlBackend['kind']
  readonly backend: SqlBackend
  /** Unscoped: only tables without org_id (users, sessions, idempotency) are visible. */
  readonly global: Kysely<DB>
  /** One transaction in the org's tenant scope; the participant completes inside it. */
  tx<T>(ctx: TxContext, work: (tx: Tx) => Promise<T>, options?: TxOptions): Promise<T>
  /** How the group commit has done so far (bench and metrics). */
  readonly groupCommit: GroupCommitStats
  /** Statements prepared and executed so far (src/db/statement-cache.ts). */
  readonly preparedStatements: StatementCacheStats
  /** Reads in the org's tenant scope, each statement one round trip. */
  read<T>(orgId: string, work: (db: Reader) => Promise<T>): Promise<T>
  /** A transaction with no tenant (users and sessions only). */
  globalTx<T>(work: (tx: Tx) => Promise<T>): Promise<T>
  /** Runs `hook` when this org transaction's work is done, before its participant and COMMIT (throws for any other transaction). */
  beforeCommit(tx: Tx, hook: () => Promise<void>): void
  /** Several statements of an org transaction in one round trip; each one's rows, in order. */
  batch(tx: Tx, queries: readonly Compilable[]): Promise<Record<string, unknown>[][]>
  /**
   * A write of an org transaction whose result nobody reads: sent with its COMMIT, in the same
   * round trip. `chain` writes (the org's chain append and what follows it) go after every plain one.
   */
  deferToCommit(tx: Tx, query: Compilable, phase?: DeferPhase): void
  /**
   * A deferred write (deferToCommit) that others made by the same `merge` may share: a
   * transaction, or a group commit, sends them as the one statement `merge` makes of their
   * parts (src/db/driver.ts `MergeableWrite`).
   */
  deferMergeable(tx: Tx, write: MergeableWrite, phase?: DeferPhase): void
  readonly migrations: MigrationFile[]
  close(): Promise<void>
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

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const backend = await openBackend(options)
  const migrations = await readMigrations()
  if (options.migrate !== false) await migrate(backend, migrations)
  const db = createDatabase(backend, migrations)
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
export function createDatabase(
  backend: SqlBackend,
  migrations: MigrationFile[],
  options: { statements?: StatementCacheOptions } = {},
): Database {
  const statements = new StatementCache(options.statements)
  const group = createGroupCommit(statements)
  const driver = new ScopedDriver(backend, group, statements)
  const dialect = createScopedDialect(driver)
  const kysely = new Kysely<DB>({ dialect })
  const scoped = (scope: OrgScope) => scopedKysely(kysely, dialect, driver, scope)
  // Each open org transaction's scope (through which its connection is reached) and commit hooks.
  const open = new WeakMap<Tx, { scope: OrgScope; hooks: (() => Promise<void>)[] }>()

  function openTx(tx: Tx): { scope: OrgScope; hooks: (() => Promise<void>)[] } {
    const entry = open.get(tx)
    if (!entry) throw new Error('not an open org transaction of this database (db.tx)')
    return entry
  }

  function connectionOf(tx: Tx): ScopedConnection {
    const connection = openTx(tx).scope.connection
    if (!connection) throw new Error('the transaction has no connection yet')
    return connection
  }

  return {
    kind: backend.kind,
    backend,
    global: kysely,
    migrations,
    groupCommit: group.stats,
    preparedStatements: statements.stats,
    async tx(ctx, work, options) {
      const lead = ctx.participant?.lead
      const scope: OrgScope = {
        orgId: ctx.orgId,
        ...(options?.grouped ? { grouped: true } : {}),
        ...(lead ? { lead } : {}),
      }
      const result = await scoped(scope)
        .transaction()
        .execute(async (tx) => {
          const entry = { scope, hooks: [] as (() => Promise<void>)[] }
          open.set(tx, entry)
          try {
            const result = await work(tx)
            // A hook may register another (an append while flushing): run until none is left.
            for (let hook = entry.hooks.shift(); hook; hook = entry.hooks.shift()) await hook()
            if (ctx.participant) {
              const connection = connectionOf(tx)
              // Grouped with writes to commit and nothing sent: its claim goes inside, carrying the result.
              const carried =
                scope.grouped === true &&
                connection.hasDeferredWrites() &&
                ctx.participant.completeInline?.(result) === true
              if (!carried) connection.defer(ctx.participant.commitWrite(tx, result).compile(), 'chain')
            }
            return result
          } finally {
            open.delete(tx)
          }
        })
      ctx.participant?.afterCommit()
      return result
    },
    beforeCommit(tx, hook) {
      openTx(tx).hooks.push(hook)
    },
    batch(tx, queries) {
      return connectionOf(tx).batch(queries.map((query) => query.compile()))
    },
    deferToCommit(tx, query, phase) {
      connectionOf(tx).defer(query.compile(), phase)
    },
    deferMergeable(tx, write, phase) {
      connectionOf(tx).defer(write, phase)
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
