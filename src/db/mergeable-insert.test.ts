import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase, type Database as GenericDatabase } from './database.js'
import { mergeableInsert } from './mergeable-insert.js'
import { readMigrations } from './migrate.js'
import { openTestBackend, recordingBackend, testId, type TestSchema } from '../../test/db-recording.js'

type Database = GenericDatabase<TestSchema>

/** Every message sent to the server, in order. */
const sent: string[] = []
const ids = { next: (kind: 'org' | 'user') => testId(kind === 'org' ? 'org' : 'usr') }
const orgId = ids.next('org')
// Statements as text (the messages show them), and kept prepared (sent as EXECUTE with the same literals).
let inlined: Database
let prepared: Database

beforeAll(async () => {
  inlined = createDatabase<TestSchema>(recordingBackend(await openTestBackend(1), sent), await readMigrations(), {
    statements: { enabled: false },
  })
  prepared = createDatabase<TestSchema>(recordingBackend(await openTestBackend(1), sent), await readMigrations())
})
afterAll(async () => {
  await inlined.close()
  await prepared.close()
})

const insertKey = mergeableInsert('idempotency_keys', [
  ['caller', 'text'],
  ['method', 'text'],
  ['path', 'text'],
  ['key', 'text'],
  ['request_hash', 'text'],
  ['state', 'text'],
  ['locked_until', 'timestamptz'],
  ['created_at', 'timestamptz'],
])

/** Text with what a literal or an array element must escape, and what looks like SQL, an array or NULL. */
const awkward = fc
  .string({
    unit: fc.oneof(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
      fc.constantFrom("'", '\\', '"', '{', '}', ',', 'NULL', '$1', ');', '\n', ' '),
    ),
    maxLength: 20,
  })
  .filter((value) => !value.includes('\0'))
const instant = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2100-01-01T00:00:00Z'),
  noInvalidDate: true,
})
const row = fc.record({ key: awkward, hash: awkward, lockedUntil: instant, createdAt: instant })

const insertsIn = (message: string) =>
  message.split('; ').filter((statement) => /^(insert into idempotency_keys|execute oeuvre_)/.test(statement)).length

describe('mergeable inserts (keyed `insert:<table>`)', () => {
  it.each([
    ['inlined', () => inlined],
    ['prepared', () => prepared],
  ])(
    'write the rows of one transaction in one statement, exactly as an insert of each would (%s)',
    async (_, database) => {
      const db = database()
      await fc.assert(
        fc.asyncProperty(fc.uniqueArray(row, { selector: (r) => r.key, minLength: 1, maxLength: 6 }), async (rows) => {
          const caller = ids.next('user')
          sent.length = 0
          await db.tx({ orgId }, async (tx) => {
            for (const r of rows)
              db.atCommit(
                tx,
                insertKey([caller, 'POST', '/merge', r.key, r.hash, 'running', r.lockedUntil, r.createdAt]),
              )
          })
          const commits = sent.filter((message) => message.includes(caller))
          expect(commits).toHaveLength(1)
          expect(insertsIn(commits[0]!)).toBe(1)
          const stored = await db.global
            .selectFrom('idempotency_keys')
            .select(['key', 'request_hash', 'locked_until', 'created_at'])
            .where('caller', '=', caller)
            .execute()
          const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
          expect(
            stored
              .map((s) => ({
                key: s.key,
                hash: s.request_hash,
                lockedUntil: s.locked_until.toISOString(),
                createdAt: s.created_at.toISOString(),
              }))
              .sort(byKey),
          ).toEqual(
            rows
              .map((r) => ({
                key: r.key,
                hash: r.hash,
                lockedUntil: r.lockedUntil.toISOString(),
                createdAt: r.createdAt.toISOString(),
              }))
              .sort(byKey),
          )
        }),
        { numRuns: 40 },
      )
    },
  )

  it('send a row alone as a plain insert of its values, and several as one insert from arrays', async () => {
    const caller = ids.next('user')
    const key = (name: string) =>
      insertKey([
        caller,
        'POST',
        '/merge',
        name,
        'h',
        'running',
        new Date('2026-11-25T10:00:00Z'),
        new Date('2026-11-25T10:00:00Z'),
      ])
    sent.length = 0
    await inlined.tx({ orgId }, async (tx) => inlined.atCommit(tx, key('alone')))
    await inlined.tx({ orgId }, async (tx) => {
      inlined.atCommit(tx, key('one'))
      inlined.atCommit(tx, key('two'))
    })
    expect(sent.filter((message) => message.includes(caller))).toEqual([
      expect.stringContaining(
        `insert into idempotency_keys (caller, method, path, key, request_hash, state, locked_until, created_at) values ('${caller}', 'POST', '/merge', 'alone', 'h', 'running', '2026-11-25T10:00:00.000Z', '2026-11-25T10:00:00.000Z')`,
      ),
      expect.stringContaining(
        `insert into idempotency_keys (caller, method, path, key, request_hash, state, locked_until, created_at) select * from unnest('{"${caller}","${caller}"}'::text[], '{"POST","POST"}'::text[], '{"/merge","/merge"}'::text[], '{"one","two"}'::text[]`,
      ),
    ])
  })

  it('refuse a row with the wrong number of values', () => {
    expect(() => insertKey(['only', 'three', 'values'])).toThrow(/takes 8 values, not 3/)
  })
})
