import type { Kysely, Transaction } from 'kysely'
import {
  createDatabase as createGenericDatabase,
  openDatabase as openGenericDatabase,
  type Database as GenericDatabase,
  type DatabaseOptions,
} from './db/database.js'
import type { MigrationFile } from './db/migrate.js'
import type { SqlBackend } from './db/sql-backend.js'
import type { StatementCacheOptions } from './db/statement-cache.js'
import type { DB } from './schema.js'

/** The database layer (src/db/) bound to this application's schema (src/schema.ts): what modules use. */
export type Database = GenericDatabase<DB>
export type Tx = Transaction<DB>
export type Reader = Kysely<DB>
export type { CommitWith, CommitWrite, KeyedWrite, TxContext, TxOptions, DatabaseOptions } from './db/database.js'

export function openDatabase(options: DatabaseOptions): Promise<Database> {
  return openGenericDatabase<DB>(options)
}

export function createDatabase(
  backend: SqlBackend,
  migrations: MigrationFile[],
  options: { statements?: StatementCacheOptions } = {},
): Database {
  return createGenericDatabase<DB>(backend, migrations, options)
}
