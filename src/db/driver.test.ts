import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase, type Database as GenericDatabase } from './database.js'
import { readMigrations } from './migrate.js'
import { openTestBackend, recordingBackend, testId, type TestSchema } from '../../test/db-recording.js'
import { eventually } from '../../test/eventually.js'

/** Every message sent to the server, in order: `simple` (one round trip, maybe several statements) or `query`. */
const sent: string[] = []

/** While set, the first simple message matching `pattern` waits for `open` before it is sent (once). */
let gate: { pattern: RegExp; open: Promise<void>; reached: () => void } | null = null

async function passGate(text: string): Promise<void> {
  const held = gate
  if (!held || !held.pattern.test(text)) return
  gate = null
  held.reached()
  await held.open
}

type Database = GenericDatabase<TestSchema>

const ids = { next: (prefix: 'org') => testId(prefix) }
const orgA = ids.next('org')
const orgB = ids.next('org')

let db: Database

beforeAll(async () => {
  // These tests read the messages' layout: statements inlined, none prepared (statement-cache.test.ts covers EXECUTE).
  // Room for the group commit test's five transactions: each waits for its group holding its connection.
  db = createDatabase<TestSchema>(recordingBackend(await openTestBackend(6), sent, passGate), await readMigrations(), {
    statements: { enabled: false },
  })
  for (const orgId of [orgA, orgB]) {
    await db.tx({ orgId }, (tx) =>
      tx
        .insertInto('orgs')
        .values({
          org_id: orgId,
          name: `driver ${orgId}`,
          environment: 'sandbox',
          region: 'eu-west',
          system_user_id: 'usr_system',
          created_at: new Date(),
          created_by: 'usr_test',
        })
        .execute(),
    )
  }
})
afterAll(() => db.close())
beforeEach(() => {
  sent.length = 0
  gate = null
})

const orgsSeen = (reader: Parameters<Parameters<Database['read']>[1]>[0]) =>
  reader.selectFrom('orgs').select('org_id').execute()

/** Holds the next message that inserts an idempotency key at the server's door: reached once it is held, sent once opened. */
function holdFirstKeyInsert(): { firstReached: Promise<void>; open: () => void } {
  let reached!: () => void
  let open!: () => void
  const firstReached = new Promise<void>((resolve) => (reached = resolve))
  gate = { pattern: /insert into "idempotency_keys"/, open: new Promise<void>((resolve) => (open = resolve)), reached }
  return { firstReached, open }
}

/** An idempotency key row of the test run `caller`, named `name`. */
const keyRow = (caller: string) => (name: string) => ({
  caller,
  method: 'POST',
  path: '/driver',
  key: name,
  request_hash: 'h',
  state: 'done' as const,
  locked_until: new Date(),
  created_at: new Date(),
})

/** Waits (bounded) until `count` commits wait behind the one in flight, rather than guessing how long they take to arrive. */
const queued = (count: number) =>
  eventually(() => db.stats.groupCommit.queued >= count, `${count} commits queued`, { everyMs: 5 })

describe('the scoped driver', () => {
  it('sends BEGIN and the tenant scope with a transaction’s first statement: two statements and a commit are three round trips', async () => {
    const seen = await db.tx({ orgId: orgA }, async (tx) => {
      await tx.selectFrom('orgs').select('name').where('org_id', '=', orgA).execute()
      return orgsSeen(tx)
    })
    expect(seen).toEqual([{ org_id: orgA }])
    expect(sent).toHaveLength(3)
    expect(sent[0]).toMatch(
      /^simple: begin; select set_config\('app.org_id', 'org_\w+', true\); select "name" from "orgs" where "org_id" = 'org_\w+'$/,
    )
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
    expect(sent).toEqual([
      expect.stringMatching(
        /^simple: select set_config\('app.org_id', 'org_\w+', true\); select "org_id" from "orgs"$/,
      ),
    ])
  })

  it('sends nothing for a transaction that ran no statement', async () => {
    expect(await db.tx({ orgId: orgA }, async () => 'nothing')).toBe('nothing')
    expect(sent).toEqual([])
  })

  it('sends BEGIN on its own when the first statement carries a string literal, and keeps its parameters bound', async () => {
    const rows = await db.tx({ orgId: orgA }, (tx) =>
      sql<{ v: string; org: string }>`select 'it''s' as v, ${orgA}::text as org`.execute(tx),
    )
    expect(rows.rows).toEqual([{ v: "it's", org: orgA }])
    expect(sent[0]).toMatch(/^simple: begin; select set_config/)
    expect(sent[1]).toMatch(/^query: select 'it''s' as v, \$1::text as org$/)
  })

  it('rolls back a transaction whose first statement fails, and the connection serves the next one', async () => {
    await expect(
      db.tx({ orgId: orgA }, (tx) =>
        tx
          .insertInto('orgs')
          .values({
            org_id: orgA,
            name: 'duplicate',
            environment: 'sandbox',
            region: 'eu-west',
            system_user_id: 'usr_system',
            created_at: new Date(),
            created_by: 'usr_test',
          })
          .execute(),
      ),
    ).rejects.toThrow(/duplicate key/)
    expect(sent.at(-1)).toBe('simple: rollback')
    expect(await db.tx({ orgId: orgA }, (tx) => orgsSeen(tx))).toEqual([{ org_id: orgA }])
    expect(await db.read(orgA, (reader) => reader.selectFrom('orgs').select('name').execute())).toEqual([
      { name: `driver ${orgA}` },
    ])
  })

  it('inlines every kind of parameter exactly as the extended protocol would bind it', async () => {
    const values = {
      text: "quote ' and \\ backslash",
      number: 42,
      big: 9007199254740993n,
      flag: true,
      when: new Date('2026-11-22T10:15:30.123Z'),
      list: ['a', 'b"c', 'd\\e'],
      nothing: null,
    }
    const query = (reader: Parameters<Parameters<Database['read']>[1]>[0]) =>
      sql<
        Record<string, unknown>
      >`select ${values.text}::text as text, ${values.number}::int as number, ${values.big}::bigint as big, ${values.flag}::boolean as flag,
        ${values.when}::timestamptz as "when", ${values.list}::text[] as list, ${values.nothing}::text as nothing`.execute(
        reader,
      )
    const inlined = await db.read(orgA, query)
    expect(sent[0]).toMatch(/^simple: /)
    const bound = await db.globalTx(query)
    expect(inlined.rows).toEqual(bound.rows)
    expect(inlined.rows[0]).toEqual({ ...values, big: 9007199254740993n })
  })
})

const rowOf = (orgId: string, name: string) => ({
  org_id: orgId,
  name,
  environment: 'sandbox' as const,
  region: 'eu-west',
  system_user_id: 'usr_system',
  created_at: new Date(),
  created_by: 'usr_test',
})

describe('batches and writes sent with the commit', () => {
  it('sends a batch in one round trip (with BEGIN and the scope when it opens the transaction) and gives each statement its rows', async () => {
    const [orgs, counted] = await db.tx({ orgId: orgA }, (tx) =>
      db.batch(tx, [
        tx.selectFrom('orgs').select('org_id'),
        tx.selectFrom('orgs').select((eb) => eb.fn.countAll().as('n')),
      ]),
    )
    expect(orgs).toEqual([{ org_id: orgA }])
    expect(counted).toEqual([{ n: 1n }])
    expect(sent).toHaveLength(2)
    expect(sent[1]).toBe('simple: commit')
    expect(sent[0]).toMatch(
      /^simple: begin; select set_config\('app.org_id', 'org_\w+', true\); select "org_id" from "orgs"; select count\(\*\) as "n" from "orgs"$/,
    )
  })

  it('sends writes made at commit with COMMIT in one round trip, and nothing before it', async () => {
    const orgId = ids.next('org')
    await db.tx({ orgId }, async (tx) => {
      db.atCommit(tx, tx.insertInto('orgs').values(rowOf(orgId, 'deferred')).compile())
      expect(sent).toEqual([])
    })
    expect(sent).toEqual([
      expect.stringMatching(/^simple: begin; select set_config\(.*\); insert into "orgs" .*; commit$/),
    ])
    expect(await db.read(orgId, (reader) => reader.selectFrom('orgs').select('name').execute())).toEqual([
      { name: 'deferred' },
    ])
  })

  it('rolls back everything when a write sent at commit fails, and tells the caller', async () => {
    const orgId = ids.next('org')
    await expect(
      db.tx({ orgId }, async (tx) => {
        await tx.insertInto('orgs').values(rowOf(orgId, 'first')).execute()
        db.atCommit(tx, tx.insertInto('orgs').values(rowOf(orgId, 'duplicate')).compile())
      }),
    ).rejects.toThrow(/duplicate key/)
    expect(sent.at(-1)).toBe('simple: rollback')
    expect(await db.read(orgId, (reader) => reader.selectFrom('orgs').select('name').execute())).toEqual([])
  })

  it('refuses to send at commit or batch a statement whose text holds a string literal (it could not be inlined safely)', async () => {
    await expect(db.tx({ orgId: orgA }, async (tx) => db.atCommit(tx, sql`select 'x'`.compile(tx)))).rejects.toThrow(
      /string literal/,
    )
    await expect(
      db.tx({ orgId: orgA }, (tx) => db.batch(tx, [{ compile: () => sql`select 'x'`.compile(tx) }])),
    ).rejects.toThrow(/string literal/)
  })

  it('refuses a write at commit for a transaction that is not an org transaction of this database', async () => {
    await expect(
      db.globalTx(async (tx) => db.atCommit(tx, tx.selectFrom('orgs').select('org_id').compile())),
    ).rejects.toThrow(/not an open org transaction/)
  })

  it('commits the write made from the work’s result given with the transaction, and tells it once committed (not when the commit fails)', async () => {
    const orgId = ids.next('org')
    const told: string[] = []
    const commitWith = (name: string) => ({
      write: (result: unknown) =>
        db.global
          .insertInto('orgs')
          .values(rowOf(orgId, `${name}:${String(result)}`))
          .compile(),
      committed: () => told.push(name),
    })
    expect(await db.tx({ orgId }, async () => 'done', { commitWith: commitWith('first') })).toBe('done')
    await expect(db.tx({ orgId }, async () => 'done', { commitWith: commitWith('again') })).rejects.toThrow(
      /duplicate key/,
    )
    expect(told).toEqual(['first'])
    expect(await db.read(orgId, (reader) => reader.selectFrom('orgs').select('name').execute())).toEqual([
      { name: 'first:done' },
    ])
  })
})

describe('grouped transactions', () => {
  it('read on their own in the tenant scope and refuse a write or a locking read before the commit, with nothing written', async () => {
    const orgId = ids.next('org')
    expect(await db.groupedTx({ orgId: orgA }, (tx) => orgsSeen(tx))).toEqual([{ org_id: orgA }])
    expect(sent).toEqual([
      expect.stringMatching(
        /^simple: select set_config\('app.org_id', 'org_\w+', true\); select "org_id" from "orgs"$/,
      ),
    ])
    await expect(
      db.groupedTx({ orgId }, (tx) => tx.insertInto('orgs').values(rowOf(orgId, 'now')).execute()),
    ).rejects.toThrow(/only reads/)
    await expect(
      db.groupedTx({ orgId: orgA }, (tx) => tx.selectFrom('orgs').select('org_id').forUpdate().execute()),
    ).rejects.toThrow(/only reads/)
    expect(await db.read(orgId, (reader) => reader.selectFrom('orgs').select('name').execute())).toEqual([])
  })

  it('commit together when they arrive while another of their org commits, and one failing never fails the others', async () => {
    const run = ids.next('org')
    const key = keyRow(run)
    const before = { ...db.stats.groupCommit }
    const { firstReached, open } = holdFirstKeyInsert()
    const grouped = (names: string[]) =>
      db
        .groupedTx({ orgId: orgA }, async (tx) => {
          await orgsSeen(tx)
          for (const name of names) db.atCommit(tx, tx.insertInto('idempotency_keys').values(key(name)).compile())
          return names[0]
        })
        .then(
          (value) => ({ value }),
          (error: Error) => ({ error: error.message }),
        )
    // The first commit is held at the server's door; the others arrive meanwhile and wait for it.
    const first = grouped(['held'])
    await firstReached
    // 'c' repeats the committed 'held' key (not a key of its group, whose order of arrival is not
    // fixed): the group of four fails as one, then each commits alone and only 'c' fails.
    const rest = [grouped(['a']), grouped(['b']), grouped(['c', 'held']), grouped(['d'])]
    // On PostgreSQL the four reach the queue behind the held commit; PGlite's one connection is held by it.
    if (db.kind === 'pg') await queued(4)
    open()
    expect(await first).toEqual({ value: 'held' })
    const outcomes = await Promise.all(rest)
    expect(outcomes.slice(0, 2)).toEqual([{ value: 'a' }, { value: 'b' }])
    expect(outcomes[2]).toEqual({ error: expect.stringMatching(/duplicate key/) })
    expect(outcomes[3]).toEqual({ value: 'd' })
    expect(db.stats.groupCommit.units - before.units).toBe(5)
    if (db.kind === 'pg') {
      // Five transactions in two groups (held; a, b, c, d), the second retried one by one.
      expect(db.stats.groupCommit.flushes - before.flushes).toBe(2)
      expect(db.stats.groupCommit.retried - before.retried).toBe(1)
    } else {
      // PGlite's one connection is held by the first until it commits: the others follow one at a time.
      expect(db.stats.groupCommit.flushes - before.flushes).toBe(5)
      expect(db.stats.groupCommit.retried - before.retried).toBe(0)
    }
    const stored = await db.global
      .selectFrom('idempotency_keys')
      .select('key')
      .where('caller', '=', run)
      .orderBy('key')
      .execute()
    expect(stored.map((row) => row.key)).toEqual(['a', 'b', 'd', 'held'])
  })

  it('send every transaction’s rows before any chain statement, so a group never writes rows under the chain lock', async () => {
    const run = ids.next('org')
    const key = keyRow(run)
    const { firstReached, open } = holdFirstKeyInsert()
    const grouped = (name: string) =>
      db.groupedTx({ orgId: orgA }, async (tx) => {
        await orgsSeen(tx)
        db.atCommit(
          tx,
          tx
            .insertInto('idempotency_keys')
            .values(key(`${name}-chain`))
            .compile(),
          'chain',
        )
        db.atCommit(
          tx,
          tx
            .insertInto('idempotency_keys')
            .values(key(`${name}-row`))
            .compile(),
        )
      })
    const first = grouped('held')
    await firstReached
    const rest = [grouped('a'), grouped('b')]
    if (db.kind === 'pg') await queued(2)
    open()
    await Promise.all([first, ...rest])
    const messages = sent.filter((text) => text.includes(run))
    const order = (text: string) => [...text.matchAll(/'((?:held|a|b)-(?:row|chain))'/g)].map((match) => match[1])
    expect(order(messages[0]!)).toEqual(['held-row', 'held-chain'])
    if (db.kind === 'pg') {
      // The two arrived in either order; both rows come before both chain statements.
      const grouped = order(messages[1]!)
      expect(grouped.slice(0, 2).sort()).toEqual(['a-row', 'b-row'])
      expect(grouped.slice(2).sort()).toEqual(['a-chain', 'b-chain'])
    } else
      expect(messages.slice(1).map(order)).toEqual([
        ['a-row', 'a-chain'],
        ['b-row', 'b-chain'],
      ])
  })

  it('send each phase’s keyed writes as one statement made by their merge, where the first of their key stood', async () => {
    const run = ids.next('org')
    const key = keyRow(run)
    const merges: string[][] = []
    // A keyed write inserts its key; merged, the keys of every write of its key in one insert.
    const insertAll = (parts: readonly unknown[]) => {
      merges.push(parts as string[])
      return db.global
        .insertInto('idempotency_keys')
        .values((parts as string[]).map(key))
        .compile()
    }
    const keyed = (tx: Parameters<Parameters<Database['tx']>[1]>[0], mergeKey: string, name: string) => ({
      key: mergeKey,
      query: tx.insertInto('idempotency_keys').values(key(name)).compile(),
      part: name,
      merge: insertAll,
    })
    const { firstReached, open } = holdFirstKeyInsert()
    // Two keys: writes are merged only with writes of the same key.
    const grouped = (name: string) =>
      db.groupedTx({ orgId: orgA }, async (tx) => {
        await orgsSeen(tx)
        db.atCommit(tx, keyed(tx, 'runs', `${name}-run`), 'chain')
        db.atCommit(
          tx,
          tx
            .insertInto('idempotency_keys')
            .values(key(`${name}-chain`))
            .compile(),
          'chain',
        )
        db.atCommit(tx, keyed(tx, 'rows', `${name}-row`))
        db.atCommit(
          tx,
          tx
            .insertInto('idempotency_keys')
            .values(key(`${name}-plain`))
            .compile(),
        )
      })
    const first = grouped('held')
    await firstReached
    const rest = [grouped('a'), grouped('b'), grouped('c')]
    if (db.kind === 'pg') await queued(3)
    open()
    await Promise.all([first, ...rest])
    const messages = sent.filter((text) => text.includes(run))
    const order = (text: string) =>
      [...text.matchAll(/'((?:held|a|b|c)-(?:row|plain|run|chain))'/g)].map((match) => match[1]!)
    // Alone, a transaction sends its own statements, in the order given (rows before chain).
    expect(order(messages[0]!)).toEqual(['held-row', 'held-plain', 'held-run', 'held-chain'])
    if (db.kind === 'pg') {
      // The three arrived in some order: their rows in one statement, then the plain writes,
      // then their runs in one statement, then the chain's plain writes, each in that order.
      const names = order(messages[1]!)
      const arrival = names.slice(0, 3).map((name) => name.replace('-row', ''))
      expect(arrival.slice().sort()).toEqual(['a', 'b', 'c'])
      const each = (suffix: string) => arrival.map((name) => `${name}-${suffix}`)
      expect(names).toEqual([...each('row'), ...each('plain'), ...each('run'), ...each('chain')])
      const statements = messages[1]!.split('; ')
      expect(statements.filter((statement) => statement.includes('-row')).length).toBe(1)
      expect(statements.filter((statement) => statement.includes('-run')).length).toBe(1)
      expect(merges).toEqual([each('row'), each('run')])
    } else {
      // PGlite's one connection: each transaction alone, nothing merged.
      expect(messages.slice(1).map(order)).toEqual(
        ['a', 'b', 'c'].map((name) => [`${name}-row`, `${name}-plain`, `${name}-run`, `${name}-chain`]),
      )
      expect(merges).toEqual([])
    }
    const stored = await db.global.selectFrom('idempotency_keys').select('key').where('caller', '=', run).execute()
    expect(stored).toHaveLength(16)
  })
})
