import fc from 'fast-check'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Kysely } from 'kysely'
import { createDatabase, type Database as GenericDatabase } from './database.js'
import { readMigrations } from './migrate.js'
import { openTestBackend, recordingBackend, testId, type TestSchema } from '../../test/db-recording.js'

type Database = GenericDatabase<TestSchema>
type Reader = Kysely<TestSchema>

/** Every message sent to the server, in order. */
const sent: string[] = []

const url = process.env.OEUVRE_TEST_DATABASE_URL

const ids = { next: (kind: 'org' | 'user') => testId(kind === 'org' ? 'org' : 'usr') }
const orgId = ids.next('org')
let db: Database

beforeAll(async () => {
  // One connection: which connection a statement was prepared on is then never in doubt.
  db = createDatabase<TestSchema>(recordingBackend(await openTestBackend(1), sent), await readMigrations())
  await db.tx({ orgId }, (tx) =>
    tx
      .insertInto('orgs')
      .values({
        org_id: orgId,
        name: 'statements',
        environment: 'sandbox',
        region: 'eu-west',
        system_user_id: 'usr_system',
        created_at: new Date(),
        created_by: 'usr_test',
      })
      .execute(),
  )
})
afterAll(() => db.close())
beforeEach(() => {
  sent.length = 0
})

/** Text with what a literal must escape, and what looks like SQL or a placeholder, mixed in. */
const sqlishString = fc
  .string({
    unit: fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
      fc.constantFrom("'", "''", '\\', '"', '{', '}', ',', '$1', ');', '\n'),
    ),
    maxLength: 30,
  })
  .filter((value) => !value.includes('\0'))

const prepares = () => sent.filter((message) => /^simple: prepare /.test(message))

describe('statements kept prepared', () => {
  it('are prepared the second time their text is sent, once per connection, and executed from then on with the rows inlining gives', async () => {
    const name = (reader: Reader) =>
      reader.selectFrom('orgs').select(['org_id', 'name']).where('name', '=', 'statements').execute()
    const first = await db.read(orgId, name)
    expect(sent).toEqual([
      expect.stringMatching(
        /^simple: select set_config\(.*\); select "org_id", "name" from "orgs" where "name" = 'statements'$/,
      ),
    ])

    sent.length = 0
    const second = await db.read(orgId, name)
    expect(sent).toEqual([
      expect.stringMatching(/^simple: prepare oeuvre_\d+ as select "org_id", "name" from "orgs" where "name" = \$1$/),
      expect.stringMatching(/^simple: select set_config\(.*\); execute oeuvre_\d+\('statements'\)$/),
    ])

    sent.length = 0
    const third = await db.read(orgId, name)
    expect(sent).toEqual([
      expect.stringMatching(/^simple: select set_config\(.*\); execute oeuvre_\d+\('statements'\)$/),
    ])
    expect(first).toEqual([{ org_id: orgId, name: 'statements' }])
    expect(second).toEqual(first)
    expect(third).toEqual(first)
  })

  it('bind every kind of parameter exactly as the extended protocol does', async () => {
    const values = {
      text: "quote ' and \\ backslash",
      number: 42,
      big: 9007199254740993n,
      flag: true,
      when: new Date('2026-11-22T10:15:30.123Z'),
      list: ['a', 'b"c', 'd\\e'],
      nothing: null,
    }
    const query = (reader: Reader) =>
      sql<
        Record<string, unknown>
      >`select ${values.text}::text as text, ${values.number}::int as number, ${values.big}::bigint as big, ${values.flag}::boolean as flag,
        ${values.when}::timestamptz as "when", ${values.list}::text[] as list, ${values.nothing}::text as nothing`.execute(
        reader,
      )
    await db.read(orgId, query)
    await db.read(orgId, query)
    sent.length = 0
    const executed = await db.read(orgId, query)
    expect(sent).toEqual([expect.stringMatching(/; execute oeuvre_\d+\(/)])
    const bound = await db.globalTx(query)
    expect(executed.rows).toEqual(bound.rows)
    expect(executed.rows[0]).toEqual({ ...values, big: 9007199254740993n })
  })

  it('give back any string as it was sent (property)', async () => {
    const echo = (value: string) => (reader: Reader) => sql<{ v: string }>`select ${value}::text as v`.execute(reader)
    await db.read(orgId, echo('warm'))
    await db.read(orgId, echo('warm'))
    await fc.assert(
      fc.asyncProperty(sqlishString, async (value) => {
        const { rows } = await db.read(orgId, echo(value))
        expect(rows).toEqual([{ v: value }])
      }),
      { numRuns: 60 },
    )
    expect(sent.some((message) => /; execute oeuvre_\d+\(/.test(message))).toBe(true)
  })

  it('fall back to inlining a statement the server cannot prepare (a parameter of no inferable type), which keeps answering', async () => {
    const refusedBefore = db.stats.preparedStatements.refused
    const untyped = (reader: Reader) => sql<{ v: boolean }>`select ${'five'} is null as v`.execute(reader)
    for (let round = 0; round < 3; round += 1) expect((await db.read(orgId, untyped)).rows).toEqual([{ v: false }])
    expect(db.stats.preparedStatements.refused).toBe(refusedBefore + 1)
    // Refused once, then inlined without asking again.
    expect(prepares()).toHaveLength(1)
    expect(sent.at(-1)).toMatch(/; select 'five' is null as v$/)
  })

  it('are never prepared inside an open transaction, where a refused PREPARE would abort it', async () => {
    const rows = await db.tx({ orgId }, async (tx) => {
      await tx.selectFrom('orgs').select('org_id').execute()
      const untyped = {
        compile: () => sql`select ${'six'} is null as v, ${orgId} = org_id as mine from orgs`.compile(tx),
      }
      const seen = []
      // BEGIN has gone with the first statement: what is sent after it is inlined, unless already prepared.
      for (let round = 0; round < 3; round += 1) seen.push(...(await db.batch(tx, [untyped])))
      return seen
    })
    expect(rows).toEqual([[{ v: false, mine: true }], [{ v: false, mine: true }], [{ v: false, mine: true }]])
    expect(prepares().filter((message) => message.includes(' as v'))).toEqual([])
    expect(
      sent.filter((message) =>
        /^simple: select 'six' is null as v, 'org_\w+' = org_id as mine from orgs$/.test(message),
      ),
    ).toHaveLength(3)
  })

  it('commit writes sent with the commit as EXECUTE through the group commit, with the rows every transaction wrote', async () => {
    const caller = ids.next('user')
    const write = (key: string) =>
      db.groupedTx({ orgId }, async (tx) => {
        const claim = tx.insertInto('idempotency_keys').values({
          caller,
          method: 'POST',
          path: '/statements',
          key,
          request_hash: 'h',
          state: 'running',
          locked_until: new Date(),
          created_at: new Date(),
        })
        db.atCommit(tx, claim.compile())
      })
    for (const key of ['one', 'two', 'three']) await write(key)
    expect(sent.at(-1)).toMatch(
      /^simple: begin; select set_config\(.*\); execute oeuvre_\d+\('usr_\w+', 'POST', '\/statements', 'three', .*\); commit$/,
    )
    const keys = await db.global
      .selectFrom('idempotency_keys')
      .select('key')
      .where('caller', '=', caller)
      .orderBy('key')
      .execute()
    expect(keys.map((row) => row.key)).toEqual(['one', 'three', 'two'])
  })

  it('are counted: prepared once per connection and statement, executed each time after', () => {
    expect(db.stats.preparedStatements.prepared).toBeGreaterThan(0)
    expect(db.stats.preparedStatements.executed).toBeGreaterThan(db.stats.preparedStatements.prepared)
  })
})

if (url) {
  // A server connection can be lost; PGlite's one in-process connection cannot.
  describe('statements kept prepared, on a server', () => {
    it('are prepared again on the connection that replaces a lost one', async () => {
      const name = (reader: Reader) => reader.selectFrom('orgs').select('name').where('org_id', '=', orgId).execute()
      await db.read(orgId, name)
      await db.read(orgId, name)
      const [connection] = (
        await db.read(orgId, (reader) => sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(reader))
      ).rows
      const owner = new pg.Client({ connectionString: url })
      await owner.connect()
      try {
        await owner.query('select pg_terminate_backend($1)', [connection!.pid])
      } finally {
        await owner.end()
      }
      sent.length = 0
      // The pool hears of the loss at once (an idle client's error) or on the next use; then it connects afresh.
      await db.read(orgId, name).catch(() => undefined)
      expect(await db.read(orgId, name)).toEqual([{ name: 'statements' }])
      expect(prepares()).toHaveLength(1)
      expect(sent.at(-1)).toMatch(/; execute oeuvre_\d+\('org_\w+'\)$/)
    })
  })
}
