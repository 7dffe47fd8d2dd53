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

let t: TestApp
let owner: OrgAccount
let other: OrgAccount
let ada: string
let ben: string
let stranger: string

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
  other = await ownerWithOrg(t.app, { name: 'Other Label' })
  ada = (await createCreator(t.app, owner.token, { name: 'Ada' })).id
  ben = (await createCreator(t.app, owner.token, { name: 'Ben' })).id
  stranger = (await createCreator(t.app, other.token, { name: 'Stranger' })).id
})
afterAll(() => t.close())

const post = (body: unknown, token = owner.token) => call(t.app, { method: 'POST', url: '/api/catalog', token, body })
const halves = () => [
  { creatorId: ada, role: 'composer', shareBps: 5000 },
  { creatorId: ben, role: 'lyricist', shareBps: 5000 },
]
let isrcCounter = 0
const nextIsrc = () => `DE-A12-26-${String((isrcCounter += 1)).padStart(5, '0')}`

describe('catalog entries', () => {
  it('creates a work, a recording linked to it and a release, with normalised identifiers', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const work = await createEntry(t.app, owner.token, {
      kind: 'work',
      title: 'Feeling Good',
      identifiers: { iswc: 'T0345246801' },
      splits: halves(),
    })
    expect(work).toMatchObject({
      kind: 'work',
      identifiers: { isrc: null, iswc: 'T-034.524.680-1', upc: null },
      territories: ['WORLD'],
      status: 'active',
      supersedes: null,
      supersededBy: null,
      splits: halves(),
      createdBy: owner.userId,
    })
    const recording = await createEntry(t.app, owner.token, {
      kind: 'recording',
      title: 'Feeling Good',
      versionTitle: 'Live',
      displayArtist: 'Nina Simone',
      identifiers: { isrc: 'us-rc1-76-07839' },
      territories: ['DE', 'AT'],
      workId: work.id,
      releaseDate: '2026-05-01',
      splits: [{ creatorId: ada, role: 'artist', shareBps: 10000 }],
    })
    expect(recording).toMatchObject({
      identifiers: { isrc: 'USRC17607839' },
      workId: work.id,
      territories: ['DE', 'AT'],
      releaseDate: '2026-05-01',
    })
    const release = await createEntry(t.app, owner.token, {
      kind: 'release',
      title: 'Album',
      identifiers: { upc: '036000291452' },
      splits: halves(),
    })
    expect(release.identifiers).toEqual({ isrc: null, iswc: null, upc: '036000291452' })
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 3)

    const fetched = await call(t.app, { url: `/api/catalog/${recording.id}`, token: owner.token })
    expect(fetched.statusCode).toBe(200)
    expect(fetched.json()).toEqual(recording)
    const event = (await call(t.app, { url: '/api/org-events?action=catalog.created', token: owner.token }))
      .json()
      .data.at(-1)
    expect(event.data).toEqual(release)
  })

  it('corrects an entry by supersession: the old one shows superseded and supersededBy', async () => {
    const isrc = nextIsrc()
    const original = await createEntry(t.app, owner.token, {
      kind: 'recording',
      title: 'Tpyo',
      identifiers: { isrc },
      splits: halves(),
    })
    const before = await eventCount(t.db, owner.orgId)
    const fixed = await createEntry(t.app, owner.token, {
      kind: 'recording',
      title: 'Typo',
      identifiers: { isrc },
      splits: halves(),
      supersedes: original.id,
    })
    expect(fixed).toMatchObject({ supersedes: original.id, status: 'active' })
    const old = (await call(t.app, { url: `/api/catalog/${original.id}`, token: owner.token })).json()
    expect(old).toMatchObject({ status: 'superseded', supersededBy: fixed.id, title: 'Tpyo' })
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 2)
    const superseded = (await call(t.app, { url: '/api/org-events?action=catalog.superseded', token: owner.token }))
      .json()
      .data.at(-1)
    expect(superseded.resource).toEqual({ type: 'catalog', id: original.id })
    expect(superseded.data).toEqual(old)

    // Once only, same kind only, own entries only; nothing is written by a refusal.
    const after = await eventCount(t.db, owner.orgId)
    const again = await post({ kind: 'recording', title: 'Twice', splits: halves(), supersedes: original.id })
    expectProblem(again, 409, 'conflict')
    expect(again.json().param).toBe('supersedes')
    const work = await createEntry(t.app, owner.token, { kind: 'work', title: 'W', splits: halves() })
    const afterWork = await eventCount(t.db, owner.orgId)
    expectProblem(
      await post({ kind: 'recording', title: 'Kind change', splits: halves(), supersedes: work.id }),
      422,
      'unprocessable',
    )
    expect((await call(t.app, { url: `/api/catalog/${work.id}`, token: owner.token })).json().status).toBe('active')
    const theirs = await createEntry(t.app, other.token, {
      kind: 'work',
      title: 'Theirs',
      splits: [{ creatorId: stranger, role: 'composer', shareBps: 10000 }],
    })
    expectProblem(
      await post({ kind: 'work', title: 'Steal', splits: halves(), supersedes: theirs.id }),
      422,
      'unprocessable',
    )
    expect(await eventCount(t.db, owner.orgId)).toBe(afterWork)
    expect(afterWork).toBe(after + 1)
  })

  it('keeps an ISRC unique among active entries: 409 conflict', async () => {
    const isrc = nextIsrc()
    await createEntry(t.app, owner.token, {
      kind: 'recording',
      title: 'First',
      identifiers: { isrc },
      splits: halves(),
    })
    const before = await eventCount(t.db, owner.orgId)
    const duplicate = await post({
      kind: 'recording',
      title: 'Second',
      identifiers: { isrc: isrc.replaceAll('-', '').toLowerCase() },
      splits: halves(),
    })
    expectProblem(duplicate, 409, 'conflict')
    expect(duplicate.json().param).toBe('identifiers.isrc')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    // Another org may hold the same ISRC.
    const elsewhere = await call(t.app, {
      method: 'POST',
      url: '/api/catalog',
      token: other.token,
      body: {
        kind: 'recording',
        title: 'Theirs',
        identifiers: { isrc },
        splits: [{ creatorId: stranger, role: 'artist', shareBps: 10000 }],
      },
    })
    expect(elsewhere.statusCode).toBe(201)
  })

  it('lets only one of two simultaneous entries with the same ISRC through', async () => {
    const isrc = nextIsrc()
    const body = (title: string) => ({ kind: 'recording', title, identifiers: { isrc }, splits: halves() })
    const results = await Promise.all([post(body('A')), post(body('B')), post(body('C'))])
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409])
  })

  it('filters by kind, isrc, creatorId and q, with cursors bound to their filters', async () => {
    const solo = await createCreator(t.app, owner.token, { name: 'Solo' })
    const isrc = nextIsrc()
    const a = await createEntry(t.app, owner.token, {
      kind: 'recording',
      title: 'Blue 100% Moon',
      identifiers: { isrc },
      splits: [{ creatorId: solo.id, role: 'artist', shareBps: 10000 }],
    })
    t.clock.advance(1000)
    const b = await createEntry(t.app, owner.token, {
      kind: 'work',
      title: 'Blue_Sky',
      displayArtist: 'The Solos',
      splits: [{ creatorId: solo.id, role: 'composer', shareBps: 10000 }],
    })
    const list = async (query: string) => {
      const response = await call(t.app, { url: `/api/catalog?${query}`, token: owner.token })
      expect(response.statusCode, response.body).toBe(200)
      return response.json()
    }
    expect((await list(`creatorId=${solo.id}`)).data.map((e: { id: string }) => e.id)).toEqual([b.id, a.id])
    expect((await list(`creatorId=${solo.id}&kind=work`)).data.map((e: { id: string }) => e.id)).toEqual([b.id])
    expect((await list(`isrc=${isrc.toLowerCase()}`)).data.map((e: { id: string }) => e.id)).toEqual([a.id])
    expect((await list('q=100%25')).data.map((e: { id: string }) => e.id)).toEqual([a.id])
    expect((await list('q=blue_')).data.map((e: { id: string }) => e.id)).toEqual([b.id])
    expect((await list('q=SOLOS')).data.map((e: { id: string }) => e.id)).toEqual([b.id])
    const page = await list(`creatorId=${solo.id}&limit=1`)
    expect(page.pagination.hasMore).toBe(true)
    const next = await list(`creatorId=${solo.id}&limit=1&cursor=${page.pagination.cursor}`)
    expect(next.data.map((e: { id: string }) => e.id)).toEqual([a.id])
    expect(next.pagination.hasMore).toBe(false)
    expectProblem(
      await call(t.app, { url: `/api/catalog?kind=work&limit=1&cursor=${page.pagination.cursor}`, token: owner.token }),
      400,
      'invalid_cursor',
    )
    expectProblem(await call(t.app, { url: '/api/catalog?isrc=nope', token: owner.token }), 400, 'parameter_invalid')
    expectProblem(await call(t.app, { url: '/api/catalog?kind=album', token: owner.token }), 400, 'parameter_invalid')
    expect((await list('limit=100')).data.every((e: { title: string }) => e.title !== 'Theirs')).toBe(true)
  })
})

describe('refusing bad entries, writing nothing', () => {
  const cases: [string, () => Record<string, unknown>, number, string, string][] = [
    [
      'splits summing to 9999',
      () => ({
        splits: [
          { creatorId: ada, role: 'composer', shareBps: 4999 },
          { creatorId: ben, role: 'lyricist', shareBps: 5000 },
        ],
      }),
      422,
      'splits_invalid',
      'splits',
    ],
    [
      'splits summing to 10001',
      () => ({
        splits: [
          { creatorId: ada, role: 'composer', shareBps: 5001 },
          { creatorId: ben, role: 'lyricist', shareBps: 5000 },
        ],
      }),
      422,
      'splits_invalid',
      'splits',
    ],
    [
      'a creator of another org in a split',
      () => ({
        splits: [
          { creatorId: ada, role: 'composer', shareBps: 5000 },
          { creatorId: stranger, role: 'lyricist', shareBps: 5000 },
        ],
      }),
      422,
      'splits_invalid',
      'splits.1.creatorId',
    ],
    [
      'a creator that does not exist',
      () => ({ splits: [{ creatorId: 'crt_01ARZ3NDEKTSV4RRFFQ69G5FAV', role: 'composer', shareBps: 10000 }] }),
      422,
      'splits_invalid',
      'splits.0.creatorId',
    ],
    [
      'the same creator and role twice',
      () => ({
        splits: [
          { creatorId: ada, role: 'composer', shareBps: 5000 },
          { creatorId: ada, role: 'composer', shareBps: 5000 },
        ],
      }),
      422,
      'splits_invalid',
      'splits.1',
    ],
    ['no splits', () => ({ splits: [] }), 400, 'parameter_invalid', 'splits'],
    [
      'a zero share',
      () => ({
        splits: [
          { creatorId: ada, role: 'composer', shareBps: 0 },
          { creatorId: ben, role: 'lyricist', shareBps: 10000 },
        ],
      }),
      400,
      'parameter_invalid',
      'splits.0.shareBps',
    ],
    [
      'a fractional share',
      () => ({
        splits: [
          { creatorId: ada, role: 'composer', shareBps: 5000.5 },
          { creatorId: ben, role: 'lyricist', shareBps: 4999.5 },
        ],
      }),
      400,
      'parameter_invalid',
      'splits.0.shareBps',
    ],
    [
      'an invalid ISRC',
      () => ({ kind: 'recording', identifiers: { isrc: 'US-RC1-76-0783' } }),
      400,
      'parameter_invalid',
      'identifiers.isrc',
    ],
    [
      'an ISRC on a work',
      () => ({ kind: 'work', identifiers: { isrc: 'USRC17607839' } }),
      400,
      'parameter_invalid',
      'identifiers.isrc',
    ],
    [
      'an ISWC with a wrong check digit',
      () => ({ kind: 'work', identifiers: { iswc: 'T-034.524.680-2' } }),
      400,
      'parameter_invalid',
      'identifiers.iswc',
    ],
    [
      'a UPC with a wrong check digit',
      () => ({ kind: 'release', identifiers: { upc: '036000291453' } }),
      400,
      'parameter_invalid',
      'identifiers.upc',
    ],
    [
      'a UPC on a recording',
      () => ({ kind: 'recording', identifiers: { upc: '036000291452' } }),
      400,
      'parameter_invalid',
      'identifiers.upc',
    ],
    ['an unknown territory', () => ({ territories: ['UK'] }), 400, 'parameter_invalid', 'territories'],
    ['WORLD with a country', () => ({ territories: ['WORLD', 'DE'] }), 400, 'parameter_invalid', 'territories'],
    [
      'a workId on a work',
      () => ({ kind: 'work', workId: 'cat_01ARZ3NDEKTSV4RRFFQ69G5FAV' }),
      400,
      'parameter_invalid',
      'workId',
    ],
    [
      'a workId that is not a work of the org',
      () => ({ kind: 'recording', workId: 'cat_01ARZ3NDEKTSV4RRFFQ69G5FAV' }),
      422,
      'unprocessable',
      'workId',
    ],
    ['an invalid release date', () => ({ releaseDate: '2026-02-30' }), 400, 'parameter_invalid', 'releaseDate'],
    ['an unknown kind', () => ({ kind: 'album' }), 400, 'parameter_invalid', 'kind'],
    ['an unknown field', () => ({ status: 'active' }), 400, 'parameter_unknown', 'status'],
  ]
  for (const [label, change, status, code, param] of cases) {
    it(`refuses ${label}`, async () => {
      const before = await eventCount(t.db, owner.orgId)
      const response = await post({ kind: 'work', title: 'Bad', splits: halves(), ...change() })
      expectProblem(response, status, code)
      expect(response.json().param).toBe(param)
      expect(await eventCount(t.db, owner.orgId)).toBe(before)
    })
  }

  it('refuses a recording whose work belongs to another org', async () => {
    const theirs = await createEntry(t.app, other.token, {
      kind: 'work',
      title: 'Theirs',
      splits: [{ creatorId: stranger, role: 'composer', shareBps: 10000 }],
    })
    const response = await post({ kind: 'recording', title: 'Cover', workId: theirs.id, splits: halves() })
    expectProblem(response, 422, 'unprocessable')
    expect(response.json().param).toBe('workId')
  })
})

describe('catalog access', () => {
  it('needs a session, and the editor role or above to write', async () => {
    expectProblem(await call(t.app, { url: '/api/catalog' }), 401, 'authentication_required')
    expectProblem(await call(t.app, { method: 'POST', url: '/api/catalog', body: {} }), 401, 'authentication_required')
    const editor = await memberWithRole(t.app, owner, 'editor')
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    const finance = await memberWithRole(t.app, owner, 'finance')
    const body = { kind: 'work', title: 'Roles', splits: halves() }
    expect((await post(body, editor.token)).statusCode).toBe(201)
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(await post(body, viewer.token), 403, 'forbidden')
    expectProblem(await post(body, finance.token), 403, 'forbidden')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    expect((await call(t.app, { url: '/api/catalog', token: viewer.token })).statusCode).toBe(200)
  })

  it('answers another org’s entry with 404', async () => {
    const theirs = await createEntry(t.app, other.token, {
      kind: 'work',
      title: 'Theirs',
      splits: [{ creatorId: stranger, role: 'composer', shareBps: 10000 }],
    })
    expectProblem(await call(t.app, { url: `/api/catalog/${theirs.id}`, token: owner.token }), 404, 'resource_missing')
    expectProblem(
      await call(t.app, { url: '/api/catalog/cat_01ARZ3NDEKTSV4RRFFQ69G5FAV', token: owner.token }),
      404,
      'resource_missing',
    )
  })
})
