import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  memberWithRole,
  ownerWithOrg,
  type OrgAccount,
  type TestApp,
} from '../../../test/helpers.js'
import { createCreator, createEntry } from '../../../test/records-fixtures.js'
import { IMPORT_BODY_LIMIT } from './revenue.import-route.js'

const HEADER = 'isrc,territory,period_start,period_end,units,amount,currency,statement_ref,line_ref'
const ISRC = 'GB-AYE-03-00021'
const URL = '/api/revenue/imports'

let t: TestApp
let owner: OrgAccount
let finance: OrgAccount
let viewer: OrgAccount
let other: OrgAccount

const line = (isrc: string, ref: string, units = '10', amount = '1.50') =>
  `${isrc},DE,2026-09-01,2026-09-30,${units},${amount},EUR,S1,${ref}`
const csv = (...lines: string[]) => `${[HEADER, ...lines].join('\n')}\n`

function upload(
  token: string | null,
  body: string | Buffer,
  options: { query?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  t.clock.advance(1_000)
  return t.app.inject({
    method: 'POST',
    url: `${URL}${options.query ?? '?source=Spotify'}`,
    headers: {
      'content-type': 'text/csv',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...options.headers,
    },
    payload: body,
  })
}

async function revenueCount(orgId: string): Promise<number> {
  const row = await t.db.read(orgId, (reader) =>
    reader
      .selectFrom('revenue_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow(),
  )
  return Number(row.n)
}

/** What a refused request must leave as it was. */
async function state(): Promise<number[]> {
  return [await eventCount(t.db, owner.orgId), await revenueCount(owner.orgId)]
}

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
  finance = await memberWithRole(t.app, owner, 'finance')
  viewer = await memberWithRole(t.app, owner, 'viewer')
  other = await ownerWithOrg(t.app)
  const creator = await createCreator(t.app, owner.token, { name: 'A' })
  await createEntry(t.app, owner.token, {
    kind: 'recording',
    title: 'Solo',
    identifiers: { isrc: ISRC },
    splits: [{ creatorId: creator.id, role: 'artist', shareBps: 10000 }],
  })
  // Another org's recording: its ISRC names nothing in the owner's org.
  const theirs = await createCreator(t.app, other.token, { name: 'B' })
  await createEntry(t.app, other.token, {
    kind: 'recording',
    title: 'Theirs',
    identifiers: { isrc: 'USRC17607839' },
    splits: [{ creatorId: theirs.id, role: 'artist', shareBps: 10000 }],
  })
})
afterAll(() => t.close())

describe('POST /api/revenue/imports', () => {
  const statement = csv(
    line(ISRC, 'a'),
    line('USRC17607839', 'b'),
    line(ISRC, 'c', 'many'),
    '',
    line(ISRC, 'd', '3', '0.25'),
  )

  it('books the statement and reports rejected lines with their numbers', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const response = await upload(finance.token, statement)
    expect(response.statusCode, response.body).toBe(200)
    const report = response.json()
    expect(report).toMatchObject({ source: 'Spotify', lines: 4, imported: 2, skipped: 0, rejected: 2 })
    expect(report.bytes).toBe(Buffer.byteLength(statement))
    expect(report.rejections).toEqual([
      { line: 3, reason: 'isrc USRC17607839 does not name an active catalog entry of this org' },
      { line: 4, reason: 'units "many" is not a whole number' },
    ])
    expect(report.skippedLines).toEqual([])
    expect(report.batches).toHaveLength(1)
    expect(report.batches[0].lineCount).toBe(2)
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)

    // The lines are there, in the batch, created by whoever uploaded them.
    const listed = await call(t.app, {
      url: `/api/revenue?batchId=${report.batches[0].batchId}`,
      token: owner.token,
    })
    expect(listed.statusCode, listed.body).toBe(200)
    const entries = listed.json().data
    expect(entries.map((entry: { lineRef: string }) => entry.lineRef).sort()).toEqual(['a', 'd'])
    for (const entry of entries) expect(entry).toMatchObject({ source: 'Spotify', createdBy: finance.userId })
    expect(await revenueCount(other.orgId)).toBe(0)
  })

  it('skips every line already booked when run again, listing them', async () => {
    const before = await state()
    const response = await upload(owner.token, statement)
    expect(response.statusCode, response.body).toBe(200)
    const report = response.json()
    expect(report).toMatchObject({ imported: 0, skipped: 2, rejected: 2, batches: [] })
    expect(report.skippedLines).toEqual([
      { line: 2, statementRef: 'S1', lineRef: 'a' },
      { line: 6, statementRef: 'S1', lineRef: 'd' },
    ])
    expect(await state()).toEqual(before)
  })

  it('lists a line given twice in one statement as skipped', async () => {
    const response = await upload(owner.token, csv(line(ISRC, 'twice'), line(ISRC, 'twice')))
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({
      imported: 1,
      skipped: 1,
      skippedLines: [{ line: 3, statementRef: 'S1', lineRef: 'twice' }],
    })
  })

  it('rejects a line holding a NUL character, and answers invalid UTF-8 as replaced text', async () => {
    const nul = line(ISRC, 'nul').replace(',DE,', ',D\u0000E,')
    const response = await upload(owner.token, csv(nul))
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({
      imported: 0,
      rejections: [{ line: 2, reason: 'territory holds a NUL character' }],
    })
    const bytes = Buffer.concat([Buffer.from(`${HEADER}\n`), Buffer.from([0xff, 0xfe]), Buffer.from(',x\n')])
    const invalid = await upload(owner.token, bytes, {
      headers: { 'content-type': 'text/csv; charset=utf-8' },
    })
    expect(invalid.statusCode, invalid.body).toBe(200)
    expect(invalid.json()).toMatchObject({ imported: 0, rejected: 1 })
  })

  it('takes the source from a source column', async () => {
    const text = `${HEADER},source\n${line(ISRC, 'own')},Deezer\n`
    const response = await upload(owner.token, text, { query: '' })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ source: null, imported: 1 })
  })

  it('refuses a header that is not a statement with 400, writing nothing', async () => {
    const before = await state()
    const response = await upload(owner.token, `name,amount\n${line(ISRC, 'x')}\n`)
    expectProblem(response, 400, 'parameter_invalid')
    expect(response.json().detail).toContain('the statement has no isrc')
    expectProblem(await upload(owner.token, ''), 400, 'parameter_invalid')
    expect(await state()).toEqual(before)
  })

  it('refuses a statement without a source (no column, no query) with 400 naming source, writing nothing', async () => {
    const before = await state()
    const response = await upload(owner.token, csv(line(ISRC, 'nosource')), { query: '' })
    expectProblem(response, 400, 'parameter_missing')
    expect(response.json().param).toBe('source')
    expect(await state()).toEqual(before)
  })

  it('answers 415 to anything but text/csv, writing nothing', async () => {
    const before = await state()
    const json = await call(t.app, { method: 'POST', url: `${URL}?source=Spotify`, token: owner.token, body: {} })
    expectProblem(json, 415, 'unsupported_media_type')
    expect(json.json().detail).toContain('text/csv')
    const none = await call(t.app, { method: 'POST', url: `${URL}?source=Spotify`, token: owner.token })
    expectProblem(none, 415, 'unsupported_media_type')
    const text = await upload(owner.token, statement, { headers: { 'content-type': 'text/plain' } })
    expectProblem(text, 415, 'unsupported_media_type')
    expect(await state()).toEqual(before)
  })

  it('answers 413 to a statement over the limit, writing nothing', async () => {
    const before = await state()
    const response = await t.app.inject({
      method: 'POST',
      url: `${URL}?source=Spotify`,
      headers: {
        'content-type': 'text/csv',
        authorization: `Bearer ${owner.token}`,
        'content-length': String(IMPORT_BODY_LIMIT + 1),
      },
      payload: statement,
    })
    expectProblem(response, 413, 'payload_too_large')
    expect(response.json().detail).toContain('50 MiB')
    expect(await state()).toEqual(before)
  })

  it('answers 400 to an unknown query parameter', async () => {
    expectProblem(await upload(owner.token, statement, { query: '?sauce=x' }), 400, 'parameter_unknown')
  })

  it('answers 401 without a session and 403 to a viewer, writing nothing', async () => {
    const before = await state()
    expectProblem(await upload(null, statement), 401, 'authentication_required')
    expectProblem(await upload(viewer.token, statement), 403, 'forbidden')
    expect(await state()).toEqual(before)
  })

  it('books only in the caller’s org: another org’s catalog is not matched, its revenue untouched', async () => {
    const response = await upload(other.token, csv(line(ISRC, 'theirs')))
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json()).toMatchObject({ imported: 0, rejected: 1 })
    expect(await revenueCount(other.orgId)).toBe(0)
  })

  it('replays the report for the same Idempotency-Key', async () => {
    const body = csv(line(ISRC, 'keyed'))
    const headers = { 'idempotency-key': 'import-keyed' }
    const first = await upload(owner.token, body, { headers })
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json().imported).toBe(1)
    const again = await upload(owner.token, body, { headers })
    expect(again.statusCode).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json()).toEqual(first.json())
    // Another source under the same key is another request.
    expectProblem(await upload(owner.token, body, { headers, query: '?source=Deezer' }), 422, 'idempotency_key_reused')
  })
})
