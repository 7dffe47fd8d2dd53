import fc from 'fast-check'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../../database.js'
import { readMigrations } from '../../db/migrate.js'
import { openTestBackend, recordingBackend } from '../../../test/db-recording.js'
import { eventually } from '../../../test/eventually.js'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  ownerWithOrg,
  type OrgAccount,
  type TestApp,
} from '../../../test/helpers.js'
import { createCreator, createEntry, revenueBody } from '../../../test/records-fixtures.js'
import { allocate } from '../../shared/money/money.allocation.js'
import { formatAmount } from '../../shared/money/money.decimal.js'
import { EntryCache } from './revenue.entry-cache.js'

/**
 * A revenue line whose catalog reference this process has read before is written without
 * reading it again: the guard, rows, idempotency key (carrying its response) and event in one round trip. The guard
 * makes every answer the same as the uncached path's (read, then write).
 */

/** Every message sent to the database, in order (statements inlined, none prepared, so they can be read). */
const sent: string[] = []
/** While set, each message is handed to it before it is sent (and waits for what it returns). */
let beforeSend: ((text: string) => Promise<void>) | null = null
let t: TestApp
let owner: OrgAccount
let other: OrgAccount
let creators: { a: string; b: string; c: string }

beforeAll(async () => {
  const backend = recordingBackend(await openTestBackend(5), sent, (text) => beforeSend?.(text) ?? Promise.resolve())
  const db = createDatabase(backend, await readMigrations(), { statements: { enabled: false } })
  t = await buildTestApp({ db })
  owner = await ownerWithOrg(t.app)
  other = await ownerWithOrg(t.app, { name: 'Other Label' })
  creators = {
    a: (await createCreator(t.app, owner.token, { name: 'A' })).id,
    b: (await createCreator(t.app, owner.token, { name: 'B' })).id,
    c: (await createCreator(t.app, owner.token, { name: 'C' })).id,
  }
})
afterAll(async () => {
  await t.close()
  await t.db.close()
})
beforeEach(() => {
  sent.length = 0
  beforeSend = null
})

/**
 * Holds the next message that carries a guard at the database's door until `open()`, so that
 * the lines posted meanwhile queue behind it and go as one group commit.
 */
function holdNextGuarded(): { reached: Promise<void>; open: () => void } {
  let reach!: () => void
  let open!: () => void
  const reached = new Promise<void>((resolve) => (reach = resolve))
  const opened = new Promise<void>((resolve) => (open = resolve))
  beforeSend = async (text) => {
    if (!text.includes('expect_sole_id')) return
    beforeSend = null
    reach()
    await opened
  }
  return { reached, open }
}
const guardsIn = (text: string) => text.split('expect_sole_id').length - 1
/** The line refs (of `refs`) whose entries a message writes. */
const linesIn = (text: string, refs: string[]) => refs.filter((ref) => text.includes(ref))

const post = (body: unknown, headers: Record<string, string> = {}, token = owner.token) =>
  call(t.app, { method: 'POST', url: '/api/revenue', token, body, headers })
/** The messages that touched revenue or read the catalog (authentication and rate limits aside). */
const revenueMessages = () => sent.filter((text) => /revenue_entries|catalog_splits|expect_sole_id/.test(text))
const byIsrc = (isrc: string, overrides: Record<string, unknown> = {}) =>
  revenueBody('', { catalogId: undefined, isrc, ...overrides })
const byIswc = (iswc: string, overrides: Record<string, unknown> = {}) =>
  revenueBody('', { catalogId: undefined, iswc, ...overrides })
const catalogReads = () => sent.filter((text) => /from "catalog_splits"/.test(text))

async function work(isrc: string, split: [string, number][]): Promise<string> {
  const entry = await createEntry(t.app, owner.token, {
    kind: 'recording',
    title: `Track ${isrc}`,
    identifiers: { isrc },
    splits: split.map(([creatorId, shareBps]) => ({ creatorId, role: 'artist', shareBps })),
  })
  return entry.id
}

/** A correction of `old`, the recording `isrc`, paying `creatorId` alone. */
function correct(isrc: string, old: string, creatorId: string) {
  return createEntry(t.app, owner.token, {
    kind: 'recording',
    title: 'Fixed',
    identifiers: { isrc },
    supersedes: old,
    splits: [{ creatorId, role: 'artist', shareBps: 10000 }],
  })
}

describe('a revenue line on a catalog reference read before', () => {
  it('is written in one round trip: guard, rows, the key with its response and event, with no read', async () => {
    const entry = await work('DE-K01-26-00001', [
      [creators.a, 5000],
      [creators.b, 5000],
    ])
    const first = await post(revenueBody(entry, { statementRef: 'K1', lineRef: '1' }), { 'idempotency-key': 'kept-1' })
    expect(first.statusCode, first.body).toBe(201)
    expect(catalogReads()).toHaveLength(1)
    sent.length = 0
    const before = await eventCount(t.db, owner.orgId)
    const second = await post(revenueBody(entry, { statementRef: 'K1', lineRef: '2', amount: '0.000003' }), {
      'idempotency-key': 'kept-2',
    })
    expect(second.statusCode, second.body).toBe(201)
    expect(second.json().allocations).toEqual([
      { creatorId: creators.a, amount: '0.000002' },
      { creatorId: creators.b, amount: '0.000001' },
    ])
    const messages = revenueMessages()
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatch(
      /^simple: begin; select set_config\('app\.org_id', 'org_\w+', true\); select expect_sole_id\(array\(.*"catalog_entries"\."id" = 'cat_\w+'.*\), 'cat_\w+'\) as "cached"; insert into revenue_entries .*; insert into revenue_allocations .*; insert into idempotency_keys .*'kept-2', '\w+', 'done', .*, '201', .*append_org_events[^;]*; commit$/s,
    )
    // The claim was written completed: no completion follows it.
    expect(messages[0]).not.toMatch(/update idempotency_keys/)
    expect(catalogReads()).toEqual([])
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    const stored = await t.db.global
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('caller', '=', owner.userId)
      .where('key', '=', 'kept-2')
      .executeTakeFirst()
    expect(stored).toMatchObject({ state: 'done', response_status: 201, response_body: second.body })
    // The key replays what it stored.
    const replay = await post(revenueBody(entry, { statementRef: 'K1', lineRef: '2', amount: '0.000003' }), {
      'idempotency-key': 'kept-2',
    })
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.body).toBe(second.body)
  })

  it('books on the correction once the cached entry is superseded (the guard fails, the uncached path (read, then write) reads again)', async () => {
    const old = await work('DE-K01-26-00002', [[creators.a, 10000]])
    expect((await post(byIsrc('DEK012600002'))).json().catalogId).toBe(old)
    const fixed = await correct('DE-K01-26-00002', old, creators.c)
    sent.length = 0
    const line = await post(byIsrc('DEK012600002'))
    expect(line.statusCode, line.body).toBe(201)
    expect(line.json()).toMatchObject({
      catalogId: fixed.id,
      allocations: [{ creatorId: creators.c, amount: '10.00' }],
    })
    // One try under the guard, refused, then the read and the write; the reference is kept again, for the correction.
    expect(sent.filter((text) => text.includes('expect_sole_id'))).toHaveLength(1)
    expect(catalogReads()).toHaveLength(1)
    sent.length = 0
    expect((await post(byIsrc('DEK012600002'))).json().catalogId).toBe(fixed.id)
    expect(catalogReads()).toEqual([])
    // By its id, the superseded entry is refused as the uncached path (read, then write) refuses it, naming the correction.
    const stale = await post(revenueBody(old))
    expectProblem(stale, 422, 'unprocessable')
    expect(stale.json().detail).toContain(fixed.id)
  })

  it('sends one guard for the lines of a group commit that name the same cached reference', async () => {
    const entry = await work('DE-K01-26-00011', [[creators.a, 10000]])
    expect((await post(byIsrc('DEK012600011'))).statusCode).toBe(201)
    const refs = ['grouped-line-1', 'grouped-line-2', 'grouped-line-3', 'grouped-line-4']
    const { reached, open } = holdNextGuarded()
    const first = post(byIsrc('DEK012600011', { statementRef: 'G', lineRef: refs[0] }))
    await reached
    const rest = refs.slice(1).map((lineRef) => post(byIsrc('DEK012600011', { statementRef: 'G', lineRef })))
    // On PostgreSQL the three queue behind the held commit; PGlite's one connection is held by it, and they follow one at a time.
    if (t.db.kind === 'pg')
      await eventually(() => t.db.stats.groupCommit.queued >= 3, 'three commits queued', { everyMs: 5 })
    sent.length = 0
    open()
    const answers = await Promise.all([first, ...rest])
    expect(answers.map((answer) => [answer.statusCode, answer.json().catalogId])).toEqual(
      answers.map(() => [201, entry]),
    )
    const messages = revenueMessages()
    // Every message carries its lines' guard once, however many lines it writes.
    for (const message of messages) expect(guardsIn(message)).toBe(1)
    expect(messages.map((message) => linesIn(message, refs))).toEqual(
      t.db.kind === 'pg' ? [refs.slice(0, 1), refs.slice(1)] : refs.map((ref) => [ref]),
    )
  })

  it('books every line of a group whose shared guard fails on the correction, each the uncached path (read, then write)', async () => {
    const old = await work('DE-K01-26-00012', [[creators.a, 10000]])
    expect((await post(byIsrc('DEK012600012'))).json().catalogId).toBe(old)
    const { reached, open } = holdNextGuarded()
    const before = { ...t.db.stats.groupCommit }
    const first = post(byIsrc('DEK012600012', { statementRef: 'S', lineRef: 's1' }))
    await reached
    // Superseded while the cached entry's next lines are on their way (on PostgreSQL: another connection).
    if (t.db.kind === 'pglite') open()
    const fixed = await correct('DE-K01-26-00012', old, creators.b)
    const rest = ['s2', 's3'].map((lineRef) => post(byIsrc('DEK012600012', { statementRef: 'S', lineRef })))
    if (t.db.kind === 'pg') {
      await eventually(() => t.db.stats.groupCommit.queued >= 2, 'two commits queued', { everyMs: 5 })
      open()
    }
    const answers = await Promise.all([first, ...rest])
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201])
    // On PostgreSQL the first line was still held when the correction came; on PGlite it had committed on the entry it kept.
    const expected = t.db.kind === 'pg' ? [fixed.id, fixed.id, fixed.id] : [old, fixed.id, fixed.id]
    expect(answers.map((answer) => answer.json().catalogId)).toEqual(expected)
    for (const [i, answer] of answers.entries())
      expect(answer.json().allocations).toEqual([
        { creatorId: expected[i] === old ? creators.a : creators.b, amount: '10.00' },
      ])
    const booked = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('revenue_entries')
        .select(['line_ref', 'catalog_id'])
        .where('statement_ref', '=', 'S')
        .orderBy('line_ref')
        .execute(),
    )
    expect(booked).toEqual([
      { line_ref: 's1', catalog_id: expected[0] },
      { line_ref: 's2', catalog_id: fixed.id },
      { line_ref: 's3', catalog_id: fixed.id },
    ])
    // On PostgreSQL s2 and s3 went as one group under their one (stale) guard, which failed: then each alone, the uncached path (read, then write).
    if (t.db.kind === 'pg') expect(t.db.stats.groupCommit.retried - before.retried).toBe(1)
  })

  it('refuses a reference that has come to name two active entries, writing nothing', async () => {
    const iswc = 'T-123.456.789-4'
    const first = await createEntry(t.app, owner.token, {
      kind: 'work',
      title: 'One',
      identifiers: { iswc },
      splits: [{ creatorId: creators.a, role: 'composer', shareBps: 10000 }],
    })
    expect((await post(byIswc(iswc))).json().catalogId).toBe(first.id)
    await createEntry(t.app, owner.token, {
      kind: 'work',
      title: 'Two',
      identifiers: { iswc },
      splits: [{ creatorId: creators.b, role: 'composer', shareBps: 10000 }],
    })
    const before = await eventCount(t.db, owner.orgId)
    const response = await post(byIswc(iswc, { statementRef: 'K3', lineRef: '1' }), { 'idempotency-key': 'kept-two' })
    expectProblem(response, 422, 'unprocessable')
    expect(response.json().detail).toMatch(/more than one/)
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    // The refusal is stored under the key, as the uncached path (read, then write) stores it.
    const stored = await t.db.global
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('caller', '=', owner.userId)
      .where('key', '=', 'kept-two')
      .executeTakeFirst()
    expect(stored).toMatchObject({ state: 'done', response_status: 422, response_body: response.body })
  })

  it('answers a statement line already recorded with the entry that recorded it (409), writing nothing', async () => {
    const entry = await work('DE-K01-26-00004', [[creators.a, 10000]])
    const recorded = await post(revenueBody(entry, { statementRef: 'K4', lineRef: '1' }))
    expect(recorded.statusCode).toBe(201)
    const before = await eventCount(t.db, owner.orgId)
    const again = await post(revenueBody(entry, { statementRef: 'K4', lineRef: '1', amount: '2.00' }))
    expectProblem(again, 409, 'conflict')
    expect(again.json().detail).toContain(recorded.json().id)
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })

  it('answers a key another request holds (409 in use) and a key already done (replay) from the key stored at commit', async () => {
    const entry = await work('DE-K01-26-00005', [[creators.b, 10000]])
    expect((await post(revenueBody(entry, { statementRef: 'K5', lineRef: '0' }))).statusCode).toBe(201)
    const body = revenueBody(entry, { statementRef: 'K5', lineRef: '1' })
    const now = t.clock.now()
    await t.db.global
      .insertInto('idempotency_keys')
      .values({
        caller: owner.userId,
        method: 'POST',
        path: '/api/revenue',
        key: 'kept-held',
        request_hash: 'elsewhere',
        state: 'running',
        locked_until: new Date(now.getTime() + 60_000),
        created_at: now,
      })
      .execute()
    sent.length = 0
    const before = await eventCount(t.db, owner.orgId)
    // Another body under the key: the key stored at commit fails the transaction, and the key's row answers.
    expectProblem(await post(body, { 'idempotency-key': 'kept-held' }), 422, 'idempotency_key_reused')
    expect(
      sent.filter((text) => /insert into revenue_entries .*insert into idempotency_keys /s.test(text)),
    ).toHaveLength(1)
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    // Many at once under one new key: one line written, every other answer its replay or 409.
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => post(body, { 'idempotency-key': 'kept-burst' })),
    )
    const created = responses.filter((response) => response.statusCode === 201)
    for (const response of responses) {
      if (response.statusCode === 201) expect(response.body).toBe(created[0]!.body)
      else expectProblem(response, 409, 'idempotency_key_in_use')
    }
    expect(created.filter((response) => response.headers['idempotent-replayed'] === undefined)).toHaveLength(1)
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
  })

  it('is kept per org: another org naming this org’s entry is answered 422 as the uncached path (read, then write) answers it', async () => {
    const entry = await work('DE-K01-26-00006', [[creators.a, 10000]])
    expect((await post(revenueBody(entry))).statusCode).toBe(201)
    sent.length = 0
    const theirs = await post(revenueBody(entry), {}, other.token)
    expectProblem(theirs, 422, 'unprocessable')
    expect(catalogReads()).toHaveLength(1)
  })
})

describe('lines on cached references, against a model of the catalog', () => {
  it('book every line on the entry active when it is written, allocated by that entry’s splits, however corrections interleave', async () => {
    const creatorIds = [creators.a, creators.b, creators.c]
    // A split: one to three of the creators, shares summing to 10,000 basis points.
    const split = fc
      .subarray([0, 1, 2], { minLength: 1 })
      .chain((picked) =>
        fc
          .array(fc.integer({ min: 1, max: 100 }), { minLength: picked.length, maxLength: picked.length })
          .map((weights) => ({ picked, weights })),
      )
      .map(({ picked, weights }): [string, number][] => {
        const total = weights.reduce((sum, weight) => sum + weight, 0)
        const bps = weights.map((weight) => Math.floor((weight * 10_000) / total))
        bps[0]! += 10_000 - bps.reduce((sum, share) => sum + share, 0)
        return picked.flatMap((index, at) => (bps[at]! > 0 ? [[creatorIds[index]!, bps[at]!] as [string, number]] : []))
      })
      .filter((parts) => parts.length > 0 && parts.every(([, bps]) => bps > 0))
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('line' as const),
        by: fc.constantFrom('isrc', 'catalogId', 'superseded'),
        micros: fc.bigInt({ min: 1n, max: 10_000_000_000n }),
      }),
      fc.record({ kind: fc.constant('correct' as const), split }),
    )
    let round = 0
    await fc.assert(
      fc.asyncProperty(split, fc.array(step, { minLength: 1, maxLength: 8 }), async (first, steps) => {
        round += 1
        const isrc = `DE-M${String(round).padStart(2, '0')}-26-${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`
        const normalised = isrc.replaceAll('-', '')
        // The model: the active entry and its splits, and the entries it superseded.
        let active = { id: await work(isrc, first), split: first }
        const superseded: string[] = []
        for (const action of steps) {
          if (action.kind === 'correct') {
            const fixed = await createEntry(t.app, owner.token, {
              kind: 'recording',
              title: 'Corrected',
              identifiers: { isrc },
              supersedes: active.id,
              splits: action.split.map(([creatorId, shareBps]) => ({ creatorId, role: 'artist', shareBps })),
            })
            superseded.push(active.id)
            active = { id: fixed.id, split: action.split }
            continue
          }
          const amount = formatAmount(action.micros, 'EUR')
          if (action.by === 'superseded' && superseded.length > 0) {
            expectProblem(await post(revenueBody(superseded.at(-1)!, { amount })), 422, 'unprocessable')
            continue
          }
          const response = await post(
            action.by === 'isrc' ? byIsrc(normalised, { amount }) : revenueBody(active.id, { amount }),
          )
          expect(response.statusCode, response.body).toBe(201)
          const expected = allocate(
            action.micros,
            active.split.map(([creatorId, shareBps]) => ({ creatorId, shareBps })),
          )
            .sort((x, y) => (x.creatorId < y.creatorId ? -1 : 1))
            .map((part) => ({ creatorId: part.creatorId, amount: formatAmount(part.amount, 'EUR') }))
          expect(response.json()).toMatchObject({ catalogId: active.id, amount, allocations: expected })
        }
      }),
      { numRuns: 12 },
    )
  })
})

describe('EntryCache', () => {
  it('forgets the oldest reference past its size, and a reference once forgotten', async () => {
    const cached = new EntryCache(2)
    const orgId = owner.orgId
    // Caching compiles the guard (in the transaction's dialect); it sends nothing.
    await t.db.tx({ orgId }, async (tx) => {
      cached.keep(tx, orgId, { isrc: 'A' }, 'cat_a', [])
      cached.keep(tx, orgId, { isrc: 'B' }, 'cat_b', [])
      cached.keep(tx, orgId, { isrc: 'A' }, 'cat_a2', [])
      cached.keep(tx, orgId, { isrc: 'C' }, 'cat_c', [])
    })
    expect(sent).toEqual([])
    expect(cached.get(orgId, { isrc: 'B' })).toBeUndefined()
    expect(cached.get(orgId, { isrc: 'A' })?.catalogId).toBe('cat_a2')
    expect(cached.get(orgId, { isrc: 'A' })?.guard.query.parameters).toContain('cat_a2')
    expect(cached.get(orgId, { isrc: 'C' })?.catalogId).toBe('cat_c')
    expect(cached.get(other.orgId, { isrc: 'C' })).toBeUndefined()
    expect(cached.get(orgId, { iswc: 'C' })).toBeUndefined()
    cached.forget(orgId, { isrc: 'C' })
    expect(cached.get(orgId, { isrc: 'C' })).toBeUndefined()
  })
})
