import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { Kysely, type Transaction } from 'kysely'
import { createScopedDialect, orgScope } from './driver.js'
import { migrate, readMigrations, type MigrationFile } from './migrate.js'
import type { DB } from './schema.js'
import { createPgBackend, createPgliteBackend, type SqlBackend } from './sql-backend.js'

export type Tx = Transaction<DB>
export type Reader = Kysely<DB>

/** Work that must commit with a transaction's domain rows (idempotency completion). */
export interface TxParticipant {
  beforeCommit(tx: Tx, result: unknown): Promise<void>
  afterCommit(): void
}

export interface TxContext {
  orgId: string
  participant?: TxParticipant
}

export interface Database {
  readonly kind: SqlBackend['kind']
  readonly backend: SqlBackend
  /** Unscoped: only tables without org_id (users, sessions, idempotency) are visible. */
  readonly global: Kysely<DB>
  /** One transaction in the org's tenant scope; the participant completes inside it. */
  tx<T>(ctx: TxContext, work: (tx: Tx) => Promise<T>): Promise<T>
  /** Reads in the org's tenant scope, each statement one round trip. */
  read<T>(orgId: string, work: (db: Reader) => Promise<T>): Promise<T>
  /** A transaction with no tenant (users and sessions only). */
  globalTx<T>(work: (tx: Tx) => Promise<T>): Promise<T>
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
  return createDatabase(backend, migrations)
}

/** The Database over an open, migrated backend. */
export function createDatabase(backend: SqlBackend, migrations: MigrationFile[]): Database {
  const kysely = new Kysely<DB>({ dialect: createScopedDialect(backend) })

  return {
    kind: backend.kind,
    backend,
    global: kysely,
    migrations,
    async tx(ctx, work) {
      const result = await orgScope.run({ orgId: ctx.orgId }, () =>
        kysely.transaction().execute(async (tx) => {
          const result = await work(tx)
          if (ctx.participant) await ctx.participant.beforeCommit(tx, result)
          return result
        }),
      )
      ctx.participant?.afterCommit()
      return result
    },
    read(orgId, work) {
      return orgScope.run({ orgId }, () => work(kysely))
    },
    globalTx(work) {
      return orgScope.exit(() => kysely.transaction().execute(work))
    },
    close: () => kysely.destroy(),
  }
}
