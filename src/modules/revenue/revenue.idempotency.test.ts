import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IDEMPOTENCY_RETENTION_MS, requestFingerprint } from '../../platform/idempotency.js'
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

/**
 * POST /api/revenue claims its Idempotency-Key in the round trip of its transaction's first
 * statement (claimWithTransaction), not in one of its own ahead of the handler: every answer
 * an up-front claim gives must still come out of it.
 */

let t: TestApp
let owner: OrgAccount
let other: OrgAccount
let entry: string
let theirEntry: string

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
  other = await ownerWithOrg(t.app, { name: 'Other Label' })
  const creator = await createCreator(t.app, owner.token)
  entry = (
    await createEntry(t.app, owner.token, { splits: [{ creatorId: creator.id, role: 'composer', shareBps: 10000 }] })
  ).id
  const stranger = await createCreator(t.app, other.token)
  theirEntry = (
    await createEntry(t.app, other.token, { splits: [{ creatorId: stranger.id, role: 'composer', shareBps: 10000 }] })
  ).id
})
afterAll(() => t.close())

const post = (body: unknown, key: string) =>
  call(t.app, { method: 'POST', url: '/api/revenue', token: owner.token, body, headers: { 'idempotency-key': key } })
const line = (lineRef: string, overrides: Record<string, unknown> = {}) =>
  revenueBody(entry, { statementRef: 'IDEM-2026-09', lineRef, ...overrides })

async function entriesFor(lineRef: string): Promise<number> {
  const rows = await t.db.read(owner.orgId, (reader) =>
    reader
      .selectFrom('revenue_entries')
      .select('id')
      .where('org_id', '=', owner.orgId)
      .where('statement_ref', '=', 'IDEM-2026-09')
      .where('line_ref', '=', lineRef)
      .execute(),
  )
  return rows.length
}

async function storedKey(key: string) {
  return t.db.global
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('caller', '=', owner.userId)
    .where('key', '=', key)
    .executeTakeFirst()
}

/** A key row as another request (or node) left it. */
async function plantKey(
  key: string,
  body: unknown,
  row: { state: 'running' | 'done'; lockedUntil: Date; createdAt: Date; status?: number; response?: string },
) {
  await t.db.global
    .insertInto('idempotency_keys')
    .values({
      caller: owner.userId,
      method: 'POST',
      path: '/api/revenue',
      key,
      request_hash: requestFingerprint(body),
      state: row.state,
      locked_until: row.lockedUntil,
      created_at: row.createdAt,
      response_status: row.status ?? null,
      response_body: row.response ?? null,
    })
    .execute()
}

describe('Idempotency-Key claimed with the transaction (POST /api/revenue)', () => {
  it('writes once and replays the stored response for the same key and body', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const first = await post(line('1'), 'rev-once')
    expect(first.statusCode).toBe(201)
    const second = await post(line('1'), 'rev-once')
    expect(second.statusCode).toBe(201)
    expect(second.headers['idempotent-replayed']).toBe('true')
    expect(second.json()).toEqual(first.json())
    expect(await entriesFor('1')).toBe(1)
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    expect(await storedKey('rev-once')).toMatchObject({ state: 'done', response_status: 201 })
  })

  it('refuses the same key with another body (422 idempotency_key_reused) and writes nothing', async () => {
    expect((await post(line('2'), 'rev-reused')).statusCode).toBe(201)
    const reused = await post(line('2b'), 'rev-reused')
    expectProblem(reused, 422, 'idempotency_key_reused')
    expect(await entriesFor('2b')).toBe(0)
  })

  it('answers 409 idempotency_key_in_use with Retry-After while another request holds the key, and writes nothing', async () => {
    const now = t.clock.now()
    await plantKey('rev-in-flight', line('3'), {
      state: 'running',
      lockedUntil: new Date(now.getTime() + 60_000),
      createdAt: now,
    })
    const before = await eventCount(t.db, owner.orgId)
    const response = await post(line('3'), 'rev-in-flight')
    expectProblem(response, 409, 'idempotency_key_in_use')
    expect(response.headers['retry-after']).toBe('1')
    expect(await entriesFor('3')).toBe(0)
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    // The holder's row is untouched.
    expect(await storedKey('rev-in-flight')).toMatchObject({ state: 'running', response_status: null })
  })

  it('takes over a claim abandoned by a crashed node (same body, lease run out) and writes once', async () => {
    const now = t.clock.now()
    await plantKey('rev-abandoned', line('4'), {
      state: 'running',
      lockedUntil: new Date(now.getTime() - 1),
      createdAt: new Date(now.getTime() - 120_000),
    })
    const response = await post(line('4'), 'rev-abandoned')
    expect(response.statusCode).toBe(201)
    expect(response.headers['idempotent-replayed']).toBeUndefined()
    expect(await entriesFor('4')).toBe(1)
    expect(await storedKey('rev-abandoned')).toMatchObject({
      state: 'done',
      response_status: 201,
      response_body: response.body,
    })
  })

  it('runs again for a key past its retention instead of replaying it', async () => {
    const past = new Date(t.clock.now().getTime() - IDEMPOTENCY_RETENTION_MS - 60_000)
    await plantKey('rev-expired', line('5'), {
      state: 'done',
      lockedUntil: past,
      createdAt: past,
      status: 201,
      response: '{"stale":true}',
    })
    const response = await post(line('5'), 'rev-expired')
    expect(response.statusCode).toBe(201)
    expect(response.headers['idempotent-replayed']).toBeUndefined()
    expect(response.json()).toMatchObject({ lineRef: '5' })
    expect(await entriesFor('5')).toBe(1)
  })

  it('writes once when the same request arrives many times at once; every other answer is the replay or 409', async () => {
    const responses = await Promise.all(Array.from({ length: 8 }, () => post(line('6'), 'rev-burst')))
    const created = responses.filter((response) => response.statusCode === 201)
    expect(created.length).toBeGreaterThanOrEqual(1)
    for (const response of responses) {
      if (response.statusCode === 201) expect(response.body).toBe(created[0]!.body)
      else expectProblem(response, 409, 'idempotency_key_in_use')
    }
    expect(created.filter((response) => response.headers['idempotent-replayed'] === undefined)).toHaveLength(1)
    expect(await entriesFor('6')).toBe(1)
  })

  it('stores and replays an error found after the first statement (another org’s entry)', async () => {
    const body = revenueBody(theirEntry, { statementRef: 'IDEM-2026-09', lineRef: '7' })
    const first = await post(body, 'rev-their-entry')
    expectProblem(first, 422, 'unprocessable')
    const replay = await post(body, 'rev-their-entry')
    expect(replay.statusCode).toBe(422)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(first.json())
  })

  it('claims the key when the handler answers before any statement: the error is stored, replayed, and the key cannot be reused', async () => {
    const backwards = line('8', { periodStart: '2026-09-30', periodEnd: '2026-09-01' })
    const first = await post(backwards, 'rev-no-statement')
    expectProblem(first, 400, 'parameter_invalid')
    expect(await storedKey('rev-no-statement')).toMatchObject({
      state: 'done',
      response_status: 400,
      response_body: first.body,
    })
    const replay = await post(backwards, 'rev-no-statement')
    expect(replay.statusCode).toBe(400)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json()).toEqual(first.json())
    // A correct body under the same key is another request: refused, not run.
    expectProblem(await post(line('8'), 'rev-no-statement'), 422, 'idempotency_key_reused')
    expect(await entriesFor('8')).toBe(0)
  })

  it('answers a request that fails before any statement from a key another request holds (409), storing nothing', async () => {
    const backwards = line('9', { periodStart: '2026-09-30', periodEnd: '2026-09-01' })
    const now = t.clock.now()
    await plantKey('rev-held-no-statement', backwards, {
      state: 'running',
      lockedUntil: new Date(now.getTime() + 60_000),
      createdAt: now,
    })
    const response = await post(backwards, 'rev-held-no-statement')
    expectProblem(response, 409, 'idempotency_key_in_use')
    expect(response.headers['retry-after']).toBe('1')
    expect(await storedKey('rev-held-no-statement')).toMatchObject({ state: 'running', response_status: null })
  })

  it('keeps keys per caller: another org’s user with the same key writes its own entry', async () => {
    const body = revenueBody(theirEntry, { statementRef: 'IDEM-2026-09', lineRef: '10' })
    const theirs = await call(t.app, {
      method: 'POST',
      url: '/api/revenue',
      token: other.token,
      body,
      headers: { 'idempotency-key': 'rev-once' },
    })
    expect(theirs.statusCode).toBe(201)
    expect(theirs.headers['idempotent-replayed']).toBeUndefined()
  })
})
