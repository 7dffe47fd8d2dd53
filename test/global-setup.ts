import { randomBytes } from 'node:crypto'
import { writeFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { migrate } from '../src/db/migrate.js'
import { createPgliteBackend } from '../src/db/pglite-backend.js'
import { createPgBackend } from '../src/db/sql-backend.js'

/**
 * With DATABASE_URL: a fresh database for this run, migrated once, dropped at the end.
 * Without: a migrated PGlite data directory that every test file starts from.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const serverUrl = process.env.DATABASE_URL
  if (serverUrl) {
    const name = `oeuvre_test_${Date.now()}_${randomBytes(3).toString('hex')}`
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    const backend = createPgBackend(url.toString(), { max: 2 })
    await migrate(backend)
    await backend.end()
    process.env.OEUVRE_TEST_DATABASE_URL = url.toString()
    return async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl })
      await cleanup.connect()
      await cleanup.query(`drop database if exists ${name} with (force)`)
      await cleanup.end()
    }
  }
  const backend = await createPgliteBackend('memory://')
  await migrate(backend)
  const template = await backend.dump!()
  await backend.end()
  const file = path.join(os.tmpdir(), `oeuvre-pglite-template-${process.pid}.tar`)
  await writeFile(file, Buffer.from(await template.arrayBuffer()))
  process.env.OEUVRE_PGLITE_TEMPLATE = file
  return async () => {
    await rm(file, { force: true })
  }
}
