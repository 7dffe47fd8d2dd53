import { readFile } from 'node:fs/promises'
import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { systemClock } from '../platform/clock.js'
import { createIdGenerator } from '../platform/ids.js'
import { createDatabase, type Database } from './database.js'
import { readMigrations } from './migrate.js'
import { createPgBackend, createPgliteBackend, type SqlBackend, type SqlSession } from './sql-backend.js'

/** Every message sent to the server, in order: `simple` (one round trip, maybe several statements) or `query`. */
const sent: string[] = []

function recording(backend: SqlBackend): SqlBackend {
  const wrap = (session: SqlSession): SqlSession => ({
    query: (text, params) => {
      sent.push(`query: ${text}`)
      return session.query(text, params)
    },
    simple: (text) => {
      sent.push(`simple: ${text}`)
      return session.simple(text)
    },
    release: () => session.release(),
  })
  return { ...backend, acquire: async () => wrap(await backend.acquire()), acquireOwner: async () => wrap(await backend.acquireOwner()) }
}

async function openBackend(): Promise<SqlBackend> {
  const url = process.env.OEUVRE_TEST_DATABASE_URL
  if (url) return createPgBackend(url, { max: 2 })
  const file = process.env.OEUVRE_PGLITE_TEMPLATE
  return createPgliteBackend('memory://', file ? { template: new Blob([await readFile(file)]) } : {})
}

const ids = createIdGenerator(systemClock)
const orgA = ids.next('org')
const orgB = ids.next('org')

let db: Database

beforeAll(async () => {
  db = createDatabase(recording(await openBackend()), await readMigrations())
  for (const orgId of [orgA, orgB]) {
    await db.tx({ orgId }, (tx) =>
      tx
        .insertInto('orgs')
        .values({ org_id: orgId, name: `driver ${orgId}`, environment: 'sandbox', region: 'eu-west', system_user_id: 'usr_system', created_at: new Date(), created_by: 'usr_test' })
        .execute(),
    )
  }
})
afterAll(() => db.close())
beforeEach(() => {
  sent.length = 0
})

const orgsSeen = (reader: Parameters<Parameters<Database['read']>[1]>[0]) => reader.selectFrom('orgs').select('org_id').execute()

describe('the scoped driver', () => {
  it('sends BEGIN and the tenant scope with a transaction’s first statement: two statements and a commit are three round trips', async () => {
    const seen = await db.tx({ orgId: orgA }, async (tx) => {
      await tx.selectFrom('orgs').select('name').where('org_id', '=', orgA).execute()
      return orgsSeen(tx)
    })
    expect(seen).toEqual([{ org_id: orgA }])
    expect(sent).toHaveLength(3)
    expect(sent[0]).toMatch(/^simple: begin; select set_config\('app.org_id', 'org_\w+', true\); select "name" from "orgs" where "org_id" = 'org_\w+'$/)
    expect(sent[1]).toMatch(/^query: select "org_id" from "orgs"$/)
    expect(sent[2]).toBe('simple: commit')
  })

  it('scopes every transaction and read to its own org, whatever ran before on the connection', async () => {
    expect(await db.tx({ orgId: orgB }, (tx) => orgsSeen(tx))).toEqual([{ org_id: orgB }])
    expect(await db.read(orgA, (reader) => orgsSeen(reader))).toEqual([{ org_id: orgA }])
    expect(await db.read(orgB, (reader) => orgsSeen(reader))).toEqual([{ org_id: orgB }])
    // No tenant at all: the org table shows nothing.
    expect(await db.globalTx((tx) => tx.selectFrom('orgs').select('org_id').execute())).toEqual([])
  })

  it('makes a single tenant read one round trip', async () => {
    await db.read(orgA, (reader) => orgsSeen(reader))
    expect(sent).toEqual([expect.stringMatching(/^simple: select set_config\('app.org_id', 'org_\w+', true\); select "org_id" from "orgs"$/)])
  })

  it('sends nothing for a transaction that ran no statement', async () => {
    expect(await db.tx({ orgId: orgA }, async () => 'nothing')).toBe('nothing')
    expect(sent).toEqual([])
  })

  it('sends BEGIN on its own when the first statement carries a string literal, and keeps its parameters bound', async () => {
    const rows = await db.tx({ orgId: orgA }, (tx) => sql<{ v: string; org: string }>`select 'it''s' as v, ${orgA}::text as org`.execute(tx))
    expect(rows.rows).toEqual([{ v: "it's", org: orgA }])
    expect(sent[0]).toMatch(/^simple: begin; select set_config/)
    expect(sent[1]).toMatch(/^query: select 'it''s' as v, \$1::text as org$/)
  })

  it('rolls back a transaction whose first statement fails, and the connection serves the next one', async () => {
    await expect(
      db.tx({ orgId: orgA }, (tx) =>
        tx.insertInto('orgs').values({ org_id: orgA, name: 'duplicate', environment: 'sandbox', region: 'eu-west', system_user_id: 'usr_system', created_at: new Date(), created_by: 'usr_test' }).execute(),
      ),
    ).rejects.toThrow(/duplicate key/)
    expect(sent.at(-1)).toBe('simple: rollback')
    expect(await db.tx({ orgId: orgA }, (tx) => orgsSeen(tx))).toEqual([{ org_id: orgA }])
    expect(await db.read(orgA, (reader) => reader.selectFrom('orgs').select('name').execute())).toEqual([{ name: `driver ${orgA}` }])
  })

  it('inlines every kind of parameter exactly as the extended protocol would bind it', async () => {
    const values = { text: "quote ' and \\ backslash", number: 42, big: 9007199254740993n, flag: true, when: new Date('2026-11-22T10:15:30.123Z'), list: ['a', 'b"c', 'd\\e'], nothing: null }
    const query = (reader: Parameters<Parameters<Database['read']>[1]>[0]) =>
      sql<Record<string, unknown>>`select ${values.text}::text as text, ${values.number}::int as number, ${values.big}::bigint as big, ${values.flag}::boolean as flag,
        ${values.when}::timestamptz as "when", ${values.list}::text[] as list, ${values.nothing}::text as nothing`.execute(reader)
    const inlined = await db.read(orgA, query)
    expect(sent[0]).toMatch(/^simple: /)
    const bound = await db.globalTx(query)
    expect(inlined.rows).toEqual(bound.rows)
    expect(inlined.rows[0]).toEqual({ ...values, big: 9007199254740993n })
  })
})
