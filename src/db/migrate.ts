import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { SqlBackend } from './sql-backend.js'

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url))

export interface MigrationFile {
  name: string
  sql: string
  checksum: string
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort()
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(dir + name, 'utf8')
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') }
    }),
  )
}

export class MigrationError extends Error {}

/**
 * Applies pending migrations as the table owner, each in its own transaction.
 * Migrations are append-only: an applied file whose text changed stops the start.
 */
export async function migrate(backend: SqlBackend, files?: MigrationFile[]): Promise<string[]> {
  const migrations = files ?? (await readMigrations())
  const session = await backend.acquireOwner()
  const applied: string[] = []
  try {
    const conforming = await session.simple('show standard_conforming_strings')
    if (conforming.rows[0]?.standard_conforming_strings !== 'on') {
      throw new MigrationError('standard_conforming_strings must be on')
    }
    // Two processes starting at once: the second waits, then finds nothing to do.
    if (backend.kind === 'pg') await session.simple('select pg_advisory_lock(7318402291)')
    await session.simple(`create table if not exists schema_migrations (
      name text primary key, checksum text not null, applied_at timestamptz not null default now())`)
    const done = new Map(
      (await session.query('select name, checksum from schema_migrations', [])).rows.map((row) => [
        String(row.name),
        String(row.checksum),
      ]),
    )
    for (const migration of migrations) {
      const recorded = done.get(migration.name)
      if (recorded !== undefined) {
        if (recorded !== migration.checksum) {
          throw new MigrationError(
            `migration ${migration.name} was changed after it was applied; add a new file instead`,
          )
        }
        continue
      }
      await session.simple('begin')
      try {
        await session.simple(migration.sql)
        await session.query('insert into schema_migrations (name, checksum) values ($1, $2)', [
          migration.name,
          migration.checksum,
        ])
        await session.simple('commit')
      } catch (error) {
        await session.simple('rollback')
        throw new MigrationError(`migration ${migration.name} failed: ${(error as Error).message}`)
      }
      applied.push(migration.name)
    }
    await session.simple('grant select on schema_migrations to oeuvre_app')
    if (backend.kind === 'pg') await session.simple('select pg_advisory_unlock(7318402291)')
    return applied
  } finally {
    session.release()
  }
}

/** True when every migration file has been applied (for /readyz). */
export async function migrationsCurrent(backend: SqlBackend, files: MigrationFile[]): Promise<boolean> {
  const session = await backend.acquire()
  try {
    const rows = (await session.query('select name from schema_migrations', [])).rows
    const names = new Set(rows.map((row) => String(row.name)))
    return files.every((file) => names.has(file.name))
  } finally {
    session.release()
  }
}
