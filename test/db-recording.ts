import { readFile } from 'node:fs/promises'
import type { Generated } from 'kysely'
import { monotonicFactory } from 'ulid'
import { createPgliteBackend } from '../src/db/pglite-backend.js'
import { createPgBackend, type SqlBackend, type SqlSession } from '../src/db/sql-backend.js'

/** The suite's backend on its own: the server's test database (a pool of `poolSize`), or an in-memory PGlite from the migrated template. */
export async function openTestBackend(poolSize: number): Promise<SqlBackend> {
  const url = process.env.OEUVRE_TEST_DATABASE_URL
  if (url) return createPgBackend(url, { max: poolSize })
  const file = process.env.OEUVRE_PGLITE_TEMPLATE
  return createPgliteBackend('memory://', file ? { template: new Blob([await readFile(file)]) } : {})
}

/**
 * The backend with every message its sessions send appended to `sent`, in order: `simple: ...`
 * (one round trip, maybe several statements) or `query: ...`. `beforeSimple` may hold a simple
 * message back before it is sent.
 */
export function recordingBackend(
  backend: SqlBackend,
  sent: string[],
  beforeSimple: (text: string) => Promise<void> = async () => undefined,
): SqlBackend {
  const wrap = (session: SqlSession): SqlSession => ({
    prepared: session.prepared,
    query: (text, params) => {
      sent.push(`query: ${text}`)
      return session.query(text, params)
    },
    simple: async (text) => {
      await beforeSimple(text)
      sent.push(`simple: ${text}`)
      return session.simple(text)
    },
    simpleAll: (text) => {
      sent.push(`simple: ${text}`)
      return session.simpleAll(text)
    },
    copyOut: (query, onData) => {
      sent.push(`copy: ${query}`)
      return session.copyOut(query, onData)
    },
    release: () => session.release(),
  })
  return {
    ...backend,
    acquire: async () => wrap(await backend.acquire()),
    acquireOwner: async () => wrap(await backend.acquireOwner()),
  }
}

/**
 * The tables the database layer's own tests write, as they see them: src/db knows no schema of
 * the application's (src/schema.ts), so its tests name theirs.
 */
export interface TestSchema {
  orgs: {
    org_id: string
    name: string
    environment: 'sandbox' | 'production'
    region: string
    system_user_id: string
    created_at: Date
    created_by: string
  }
  idempotency_keys: {
    caller: string
    method: string
    path: string
    key: string
    request_hash: string
    state: 'running' | 'done'
    response_status: number | null
    response_body: string | null
    locked_until: Date
    created_at: Date
  }
  schema_migrations: { name: string; checksum: string; applied_at: Generated<Date> }
}

const ulid = monotonicFactory()
/** A new id of the shape ids have (`org_` and a ULID): tenant scopes take only org ids. */
export const testId = (prefix: string): string => `${prefix}_${ulid()}`
