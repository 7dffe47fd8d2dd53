import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDecimal } from '../../shared/money/money.decimal.js'
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
import { createCreator, createEntry, createRevenue, eventBody, revenueBody } from '../../../test/records-fixtures.js'
import { verifyChain } from '../verification/index.js'

let t: TestApp
let owner: OrgAccount
let other: OrgAccount
let ids: { a: string; b: string; c: string }
let trio: string
let recording: { id: string; isrc: string }
let theirEntry: string

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
  other = await ownerWithOrg(t.app, { name: 'Other Label' })
  ids = {
    a: (await createCreator(t.app, owner.token, { name: 'A' })).id,
    b: (await createCreator(t.app, owner.token, { name: 'B' })).id,
    c: (await createCreator(t.app, owner.token, { name: 'C' })).id,
  }
  trio = (
    await createEntry(t.app, owner.token, {
      kind: 'work',
      title: 'Trio',
      identifiers: { iswc: 'T-034.524.680-1' },
      splits: [
        { creatorId: ids.a, role: 'composer', shareBps: 3333 },
        { creatorId: ids.b, role: 'composer', shareBps: 3333 },
        { creatorId: ids.c, role: 'lyricist', shareBps: 3334 },
      ],
    })
  ).id
  const rec = await createEntry(t.app, owner.token, {
    kind: 'recording',
    title: 'Solo',
    identifiers: { isrc: 'GB-AYE-03-00021' },
    splits: [{ creatorId: ids.a, role: 'artist', shareBps: 10000 }],
  })
  recording = { id: rec.id, isrc: 'GBAYE0300021' }
  const stranger = await createCreator(t.app, other.token)
  theirEntry = (
    await createEntry(t.app, other.token, { splits: [{ creatorId: stranger.id, role: 'composer', shareBps: 10000 }] })
  ).id
})
afterAll(() => t.close())

const post = (body: unknown, token = owner.token) => call(t.app, { method: 'POST', url: '/api/revenue', token, body })
const micros = (amount: string): bigint => {
  const parsed = parseDecimal(amount)
  if (!parsed.ok) throw new Error(`not a decimal: ${amount}`)
  return parsed.micros
}
const sum = (allocations: { amount: string }[]) => allocations.reduce((total, a) => total + micros(a.amount), 0n)

describe('recording revenue', () => {
  it('allocates an entry among its creators exactly, by largest remainder, and logs revenue.created', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const revenue = await createRevenue(t.app, owner.token, trio, {
      amount: '0.00001',
      statementRef: 'SPOT-2026-09',
      lineRef: '1',
    })
    expect(revenue).toMatchObject({
      catalogId: trio,
      eventId: null,
      source: 'Spotify',
      type: 'stream',
      periodStart: '2026-09-01',
      periodEnd: '2026-09-30',
      territory: 'DE',
      units: 1000,
      amount: '0.00001',
      currency: 'EUR',
      statementRef: 'SPOT-2026-09',
      lineRef: '1',
      reverses: null,
      createdBy: owner.userId,
    })
    // 10 micro-units by 3333/3333/3334: floors 3/3/3, remainders 0.333/0.333/0.334 -> C gets the 10th.
    const expected = [
      { creatorId: ids.a, amount: '0.000003' },
      { creatorId: ids.b, amount: '0.000003' },
      { creatorId: ids.c, amount: '0.000004' },
    ].sort((x, y) => (x.creatorId < y.creatorId ? -1 : 1))
    expect(revenue.allocations).toEqual(expected)
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    const logged = (await call(t.app, { url: '/api/org-events?action=revenue.created', token: owner.token }))
      .json()
      .data.at(-1)
    expect(logged.data).toEqual(revenue)
    expect(logged.resource).toEqual({ type: 'revenue', id: revenue.id })
  })

  it('keeps sub-cent and whole amounts exact in every currency', async () => {
    for (const [amount, currency, shown] of [
      ['123.456789', 'EUR', '123.456789'],
      ['-0.004217', 'USD', '-0.004217'],
      ['1500', 'JPY', '1500'],
      ['0.5', 'JPY', '0.5'],
      ['7.1', 'KWD', '7.100'],
    ] as const) {
      const revenue = await createRevenue(t.app, owner.token, trio, { amount, currency })
      expect(revenue.amount).toBe(shown)
      expect(sum(revenue.allocations as { amount: string }[])).toBe(sum([{ amount }]))
    }
  })

  it('resolves an entry by ISRC, ISWC or UPC (any GTIN length) to the active entry', async () => {
    const byIsrc = await createRevenue(t.app, owner.token, recording.id, {
      catalogId: undefined,
      isrc: 'gb-aye-03-00021',
    })
    expect(byIsrc.catalogId).toBe(recording.id)
    expect(byIsrc.allocations).toEqual([{ creatorId: ids.a, amount: '10.00' }])
    const byIswc = await createRevenue(t.app, owner.token, trio, { catalogId: undefined, iswc: 'T0345246801' })
    expect(byIswc.catalogId).toBe(trio)
    const release = await createEntry(t.app, owner.token, {
      kind: 'release',
      title: 'LP',
      identifiers: { upc: '036000291452' },
      splits: [{ creatorId: ids.b, role: 'label', shareBps: 10000 }],
    })
    const byEan = await createRevenue(t.app, owner.token, release.id, {
      catalogId: undefined,
      upc: '0036000291452',
      type: 'physical',
    })
    expect(byEan.catalogId).toBe(release.id)
  })

  it('refuses a re-sent statement line with 409 and writes nothing, so imports can be re-run', async () => {
    const line = { statementRef: 'APPLE-2026-09', lineRef: '42' }
    await createRevenue(t.app, owner.token, trio, { source: 'Apple Music', ...line })
    const before = await eventCount(t.db, owner.orgId)
    const again = await post(revenueBody(trio, { source: 'Apple Music', ...line }))
    expectProblem(again, 409, 'conflict')
    expect(again.json().param).toBe('lineRef')
    const simultaneous = await Promise.all(
      [1, 2, 3].map(() => post(revenueBody(trio, { source: 'Deezer', statementRef: 'DZ-1', lineRef: '7' }))),
    )
    expect(simultaneous.map((r) => r.statusCode).sort()).toEqual([201, 409, 409])
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    // The same references from another source are another line.
    expect((await post(revenueBody(trio, { source: 'Tidal', ...line }))).statusCode).toBe(201)
  })

  it('records a burst of concurrent lines, committed in groups, as one gapless chain: an event per line, in time order', async () => {
    const label = await ownerWithOrg(t.app, { name: 'Burst Label' })
    const creator = await createCreator(t.app, label.token, { name: 'Solo' })
    const entry = await createEntry(t.app, label.token, {
      splits: [{ creatorId: creator.id, role: 'composer', shareBps: 10000 }],
    })
    const before = { ...t.db.stats.groupCommit }
    const lines = Array.from({ length: 24 }, (_, i) => String(i))
    const responses = await Promise.all(
      lines.map((lineRef) => post(revenueBody(entry.id, { statementRef: 'BURST-1', lineRef }), label.token)),
    )
    expect(responses.map((r) => r.statusCode)).toEqual(lines.map(() => 201))
    if (t.db.kind === 'pg') {
      // Several lines went in each commit (one chain append per group, src/db/group-commit.ts).
      expect(t.db.stats.groupCommit.units - before.units).toBe(lines.length)
      expect(t.db.stats.groupCommit.flushes - before.flushes).toBeLessThan(lines.length)
    }
    const events = await t.db.read(label.orgId, (db) =>
      db
        .selectFrom('org_events')
        .select(['sequence', 'action', 'resource_id', 'created_at'])
        .orderBy('sequence')
        .execute(),
    )
    const created = events.filter((event) => event.action === 'revenue.created')
    expect(created.map((event) => event.resource_id).sort()).toEqual(
      responses.map((r) => r.json<{ id: string }>().id).sort(),
    )
    expect(events.map((event) => Number(event.sequence))).toEqual(events.map((_, i) => i + 1))
    for (let i = 1; i < events.length; i += 1)
      expect(events[i]!.created_at.getTime()).toBeGreaterThanOrEqual(events[i - 1]!.created_at.getTime())
    expect(await verifyChain(t.db, label.orgId)).toEqual({ orgId: label.orgId, ok: true, events: events.length })
  })

  it('reverses an entry once, with exactly negated allocations', async () => {
    const original = await createRevenue(t.app, owner.token, trio, {
      amount: '100.000001',
      units: 7,
      statementRef: 'S1',
      lineRef: 'L1',
    })
    const mirror = revenueBody(trio, {
      amount: '-100.000001',
      units: -7,
      reverses: original.id,
      statementRef: 'S2',
      lineRef: 'L1',
    })
    const before = await eventCount(t.db, owner.orgId)
    for (const [change, param] of [
      [{ amount: '-100.00' }, 'amount'],
      [{ amount: '100.000001' }, 'amount'],
      [{ units: 7 }, 'units'],
      [{ territory: 'AT' }, 'territory'],
      [{ periodEnd: '2026-09-29' }, 'periodEnd'],
      [{ source: 'Deezer' }, 'source'],
      [{ catalogId: recording.id }, 'catalogId'],
    ] as const) {
      const response = await post({ ...mirror, ...change })
      expectProblem(response, 422, 'unprocessable')
      expect(response.json().param).toBe(param)
    }
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    const reversal = (await post(mirror)).json()
    expect(reversal.reverses).toBe(original.id)
    expect(reversal.allocations).toEqual(
      (original.allocations as { creatorId: string; amount: string }[]).map((a) => ({
        creatorId: a.creatorId,
        amount: `-${a.amount}`,
      })),
    )
    const twice = await post({ ...mirror, statementRef: 'S3' })
    expectProblem(twice, 409, 'conflict')
    expect(twice.json().param).toBe('reverses')
    const ofReversal = await post(revenueBody(trio, { amount: '100.000001', units: 7, reverses: reversal.id }))
    expectProblem(ofReversal, 422, 'unprocessable')
    expectProblem(
      await post(revenueBody(trio, { amount: '-1.00', reverses: 'rev_01ARZ3NDEKTSV4RRFFQ69G5FAV' })),
      422,
      'unprocessable',
    )
  })

  it('reverses an entry whose catalog entry was superseded since, but books new revenue only on active entries', async () => {
    const old = await createEntry(t.app, owner.token, {
      kind: 'recording',
      title: 'Old',
      identifiers: { isrc: 'DE-X12-26-00001' },
      splits: [{ creatorId: ids.b, role: 'artist', shareBps: 10000 }],
    })
    const original = await createRevenue(t.app, owner.token, old.id, { amount: '3.00' })
    const fixed = await createEntry(t.app, owner.token, {
      kind: 'recording',
      title: 'New',
      identifiers: { isrc: 'DE-X12-26-00001' },
      supersedes: old.id,
      splits: [{ creatorId: ids.c, role: 'artist', shareBps: 10000 }],
    })
    const stale = await post(revenueBody(old.id))
    expectProblem(stale, 422, 'unprocessable')
    expect(stale.json().detail).toContain(fixed.id)
    const reversal = await post(revenueBody(old.id, { amount: '-3.00', units: -1000, reverses: original.id }))
    expect(reversal.statusCode, reversal.body).toBe(201)
    expect(reversal.json().allocations).toEqual([{ creatorId: ids.b, amount: '-3.00' }])
    // The ISRC now resolves to the correction, which pays its own creator.
    expect(
      (await createRevenue(t.app, owner.token, fixed.id, { catalogId: undefined, isrc: 'DEX122600001' })).allocations,
    ).toEqual([{ creatorId: ids.c, amount: '10.00' }])
  })

  it('records ticket sales against an event of the org', async () => {
    const event = (
      await call(t.app, { method: 'POST', url: '/api/events', token: owner.token, body: eventBody() })
    ).json()
    const sale = await createRevenue(t.app, owner.token, trio, {
      type: 'ticket_sale',
      eventId: event.id,
      source: 'Box office',
      units: 12,
      amount: '468.00',
    })
    expect(sale).toMatchObject({ type: 'ticket_sale', eventId: event.id })
    const theirs = (
      await call(t.app, { method: 'POST', url: '/api/events', token: other.token, body: eventBody() })
    ).json()
    const response = await post(revenueBody(trio, { type: 'ticket_sale', eventId: theirs.id }))
    expectProblem(response, 422, 'unprocessable')
    expect(response.json().param).toBe('eventId')
  })

  it('lists with filters for catalog, creator, period and currency', async () => {
    const solo = await createCreator(t.app, owner.token, { name: 'Filter' })
    const entry = await createEntry(t.app, owner.token, {
      splits: [{ creatorId: solo.id, role: 'composer', shareBps: 10000 }],
    })
    const july = await createRevenue(t.app, owner.token, entry.id, {
      periodStart: '2026-07-01',
      periodEnd: '2026-07-31',
    })
    t.clock.advance(1000)
    const august = await createRevenue(t.app, owner.token, entry.id, {
      periodStart: '2026-08-01',
      periodEnd: '2026-08-31',
      currency: 'USD',
    })
    const list = async (query: string) => {
      const response = await call(t.app, { url: `/api/revenue?${query}`, token: owner.token })
      expect(response.statusCode, response.body).toBe(200)
      return response.json().data.map((r: { id: string }) => r.id)
    }
    expect(await list(`catalogId=${entry.id}`)).toEqual([august.id, july.id])
    expect(await list(`creatorId=${solo.id}`)).toEqual([august.id, july.id])
    expect(await list(`creatorId=${solo.id}&currency=USD`)).toEqual([august.id])
    expect(await list(`creatorId=${solo.id}&periodFrom=2026-08-01`)).toEqual([august.id])
    expect(await list(`creatorId=${solo.id}&periodTo=2026-07-31`)).toEqual([july.id])
    expect(await list(`creatorId=${solo.id}&periodFrom=2026-07-15&periodTo=2026-08-15`)).toEqual([august.id, july.id])
    const page = (await call(t.app, { url: `/api/revenue?creatorId=${solo.id}&limit=1`, token: owner.token })).json()
    expect(page.pagination.hasMore).toBe(true)
    expect(await list(`creatorId=${solo.id}&limit=1&cursor=${page.pagination.cursor}`)).toEqual([july.id])
    expectProblem(
      await call(t.app, { url: `/api/revenue?currency=USD&cursor=${page.pagination.cursor}`, token: owner.token }),
      400,
      'invalid_cursor',
    )
    expectProblem(
      await call(t.app, { url: '/api/revenue?periodFrom=july', token: owner.token }),
      400,
      'parameter_invalid',
    )
  })

  it('has no fetch by id', async () => {
    const revenue = await createRevenue(t.app, owner.token, trio)
    expectProblem(await call(t.app, { url: `/api/revenue/${revenue.id}`, token: owner.token }), 404, 'resource_missing')
  })
})

describe('refusing bad revenue, writing nothing', () => {
  const cases: [string, () => Record<string, unknown>, number, string, string][] = [
    ['a zero amount', () => ({ amount: '0.000000' }), 400, 'parameter_invalid', 'amount'],
    ['an amount sent as a JSON number', () => ({ amount: 10.5 }), 400, 'parameter_invalid', 'amount'],
    ['an amount with 7 places', () => ({ amount: '0.0000001' }), 400, 'parameter_invalid', 'amount'],
    ['an amount with an exponent', () => ({ amount: '1e2' }), 400, 'parameter_invalid', 'amount'],
    ['an unknown currency', () => ({ currency: 'ABC' }), 400, 'parameter_invalid', 'currency'],
    ['an unknown territory', () => ({ territory: 'UK' }), 400, 'parameter_invalid', 'territory'],
    [
      'a period ending before it starts',
      () => ({ periodStart: '2026-09-30', periodEnd: '2026-09-01' }),
      400,
      'parameter_invalid',
      'periodEnd',
    ],
    ['a fractional unit count', () => ({ units: 1.5 }), 400, 'parameter_invalid', 'units'],
    ['no catalog reference', () => ({ catalogId: undefined }), 400, 'parameter_missing', 'catalogId'],
    ['two catalog references', () => ({ isrc: 'GBAYE0300021' }), 400, 'parameter_invalid', 'isrc'],
    ['an invalid ISRC', () => ({ catalogId: undefined, isrc: 'GB-AYE-03-0002' }), 400, 'parameter_invalid', 'isrc'],
    [
      'an ISRC no active entry has',
      () => ({ catalogId: undefined, isrc: 'USRC17607839' }),
      422,
      'unprocessable',
      'isrc',
    ],
    ['another org’s catalog entry', () => ({ catalogId: theirEntry }), 422, 'unprocessable', 'catalogId'],
    ['a ticket sale without an event', () => ({ type: 'ticket_sale' }), 400, 'parameter_invalid', 'eventId'],
    [
      'an event on a stream',
      () => ({ eventId: 'tev_01ARZ3NDEKTSV4RRFFQ69G5FAV' }),
      400,
      'parameter_invalid',
      'eventId',
    ],
    ['an unknown type', () => ({ type: 'gift' }), 400, 'parameter_invalid', 'type'],
    ['an unknown field', () => ({ allocations: [] }), 400, 'parameter_unknown', 'allocations'],
  ]
  for (const [label, change, status, code, param] of cases) {
    it(`refuses ${label}`, async () => {
      const before = await eventCount(t.db, owner.orgId)
      const response = await post(revenueBody(trio, change()))
      expectProblem(response, status, code)
      expect(response.json().param).toBe(param)
      expect(await eventCount(t.db, owner.orgId)).toBe(before)
    })
  }

  it('refuses an ISWC that names two active works', async () => {
    await createEntry(t.app, owner.token, {
      kind: 'work',
      title: 'Trio (dup)',
      identifiers: { iswc: 'T-034.524.680-1' },
      splits: [{ creatorId: ids.a, role: 'composer', shareBps: 10000 }],
    })
    const response = await post(revenueBody(trio, { catalogId: undefined, iswc: 'T-034.524.680-1' }))
    expectProblem(response, 422, 'unprocessable')
    expect(response.json().detail).toMatch(/more than one/)
  })
})

describe('revenue access', () => {
  it('needs a session, and finance or above to write', async () => {
    expectProblem(await call(t.app, { url: '/api/revenue' }), 401, 'authentication_required')
    expectProblem(
      await call(t.app, { method: 'POST', url: '/api/revenue', body: revenueBody(trio) }),
      401,
      'authentication_required',
    )
    const finance = await memberWithRole(t.app, owner, 'finance')
    const editor = await memberWithRole(t.app, owner, 'editor')
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    expect((await post(revenueBody(trio), finance.token)).statusCode).toBe(201)
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(await post(revenueBody(trio), editor.token), 403, 'forbidden')
    expectProblem(await post(revenueBody(trio), viewer.token), 403, 'forbidden')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    expect((await call(t.app, { url: '/api/revenue', token: viewer.token })).statusCode).toBe(200)
  })

  it('never lists another org’s revenue', async () => {
    const stranger = await createCreator(t.app, other.token)
    const entry = await createEntry(t.app, other.token, {
      splits: [{ creatorId: stranger.id, role: 'composer', shareBps: 10000 }],
    })
    const theirs = await createRevenue(t.app, other.token, entry.id)
    const mine = (await call(t.app, { url: '/api/revenue?limit=100', token: owner.token }))
      .json()
      .data.map((r: { id: string }) => r.id)
    expect(mine).not.toContain(theirs.id)
    expect((await call(t.app, { url: `/api/revenue?catalogId=${entry.id}`, token: owner.token })).json().data).toEqual(
      [],
    )
  })
})
