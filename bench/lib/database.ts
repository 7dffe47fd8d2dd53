import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { migrate } from '../../src/db/migrate.js'
import { createPgBackend } from '../../src/db/sql-backend.js'

/** A scenario's own database on the bench's PostgreSQL server, migrated, with an owner pool for seeding. */
export interface ScenarioDatabase {
  name: string
  url: string
  /** Connects as the URL's user (the table owner): seeding and floors, bypassing the app's role. */
  owner: pg.Pool
  drop(): Promise<void>
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl)
  url.pathname = `/${database}`
  return url.toString()
}

/** CREATE DATABASE bench_<label>_<random> and runs the migrations on it. */
export async function createScenarioDatabase(serverUrl: string, label: string): Promise<ScenarioDatabase> {
  const name = `bench_${label.replace(/[^a-z0-9_]/g, '_')}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.end()
  }
  const url = withDatabase(serverUrl, name)
  const drop = async () => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    try {
      // FORCE: a child process killed mid-query may still hold a connection for a moment.
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    } finally {
      await client.end()
    }
  }
  try {
    const backend = createPgBackend(url, { max: 1 })
    try {
      await migrate(backend)
    } finally {
      await backend.end()
    }
  } catch (error) {
    await drop()
    throw error
  }
  const owner = new pg.Pool({ connectionString: url, max: 4 })
  owner.on('error', () => undefined)
  return {
    name,
    url,
    owner,
    async drop() {
      await owner.end()
      await drop()
    },
  }
}

/** Runs `work` on a fresh scenario database that is dropped afterwards, even on failure. */
export async function withScenarioDatabase<T>(
  serverUrl: string,
  label: string,
  work: (db: ScenarioDatabase) => Promise<T>,
): Promise<T> {
  const db = await createScenarioDatabase(serverUrl, label)
  try {
    return await work(db)
  } finally {
    await db.drop()
  }
}
