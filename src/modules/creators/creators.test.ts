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
import { createCreator, creatorBody } from '../../../test/records-fixtures.js'

let t: TestApp
let owner: OrgAccount
let other: OrgAccount

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
  other = await ownerWithOrg(t.app, { name: 'Other Label' })
})
afterAll(() => t.close())

const post = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  call(t.app, { method: 'POST', url: '/api/creators', token, body, headers })

describe('creating and reading creators', () => {
  it('creates a creator with defaults and normalised identifiers, and logs creator.created', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const response = await post(owner.token, {
      name: ' Nina Simone ',
      legalName: 'Eunice Kathleen Waymon',
      kind: 'person',
      roles: ['artist', 'composer'],
      email: 'nina@example.com',
      country: 'US',
      ipi: '00052210040',
      isni: '0000 0001 2281 955x',
      payoutCurrency: 'USD',
    })
    expect(response.statusCode, response.body).toBe(201)
    const creator = response.json()
    expect(creator).toMatchObject({
      name: 'Nina Simone',
      legalName: 'Eunice Kathleen Waymon',
      roles: ['artist', 'composer'],
      country: 'US',
      ipi: '00052210040',
      isni: '000000012281955X',
      payoutCurrency: 'USD',
      minimumPayout: '0.00',
      openingBalance: '0.00',
      createdBy: owner.userId,
    })
    expect(creator.id).toMatch(/^crt_[0-9A-Z]{26}$/)
    expect(creator.createdAt).toBe(t.clock.now().toISOString())
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    const events = await call(t.app, { url: '/api/org-events?action=creator.created', token: owner.token })
    const event = events.json().data.at(-1)
    expect(event.resource).toEqual({ type: 'creator', id: creator.id })
    expect(event.data).toEqual(creator)

    const fetched = await call(t.app, { url: `/api/creators/${creator.id}`, token: owner.token })
    expect(fetched.statusCode).toBe(200)
    expect(fetched.json()).toEqual(creator)
  })

  it('keeps an advance as a negative opening balance and a minimum in the currency minor unit', async () => {
    const creator = await createCreator(t.app, owner.token, {
      payoutCurrency: 'JPY',
      minimumPayout: '5000',
      openingBalance: '-250000.5',
    })
    expect(creator.minimumPayout).toBe('5000')
    expect(creator.openingBalance).toBe('-250000.5')
    const kwd = await createCreator(t.app, owner.token, {
      payoutCurrency: 'KWD',
      minimumPayout: '10.125',
      openingBalance: '0.000001',
    })
    expect(kwd.minimumPayout).toBe('10.125')
    expect(kwd.openingBalance).toBe('0.000001')
  })

  it('lists newest first with keyset pagination and only the org’s own creators', async () => {
    const mine = [] as string[]
    for (const name of ['One', 'Two', 'Three']) {
      mine.push((await createCreator(t.app, owner.token, { name })).id)
      t.clock.advance(1000)
    }
    await createCreator(t.app, other.token, { name: 'Not yours' })
    const first = await call(t.app, { url: '/api/creators?limit=2', token: owner.token })
    expect(first.statusCode).toBe(200)
    const page1 = first.json()
    expect(page1.data.map((c: { name: string }) => c.name)).toEqual(['Three', 'Two'])
    expect(page1.pagination.hasMore).toBe(true)
    const second = await call(t.app, {
      url: `/api/creators?limit=2&cursor=${page1.pagination.cursor}`,
      token: owner.token,
    })
    const page2 = second.json()
    expect(page2.data[0].name).toBe('One')
    const all = await call(t.app, { url: '/api/creators?limit=100', token: owner.token })
    expect(all.json().data.map((c: { name: string }) => c.name)).not.toContain('Not yours')
    expect(all.json().pagination).toEqual({ cursor: null, hasMore: false })
  })

  it('replays a create sent twice with the same Idempotency-Key', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const body = creatorBody({ name: 'Once Only' })
    const first = await post(owner.token, body, { 'idempotency-key': 'creator-once' })
    const second = await post(owner.token, body, { 'idempotency-key': 'creator-once' })
    expect(second.headers['idempotent-replayed']).toBe('true')
    expect(second.json()).toEqual(first.json())
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
  })
})

describe('refusing bad creators, writing nothing', () => {
  const cases: [string, Record<string, unknown>, number, string, string][] = [
    ['an IPI of 10 digits', { ipi: '1234567890' }, 400, 'parameter_invalid', 'ipi'],
    ['an ISNI with a wrong check character', { isni: '0000000122819550' }, 400, 'parameter_invalid', 'isni'],
    ['an unknown currency', { payoutCurrency: 'XYZ' }, 400, 'parameter_invalid', 'payoutCurrency'],
    ['a lower-case currency', { payoutCurrency: 'eur' }, 400, 'parameter_invalid', 'payoutCurrency'],
    ['an unknown country', { country: 'UK' }, 400, 'parameter_invalid', 'country'],
    [
      'a minimum with more places than the currency has',
      { minimumPayout: '10.001' },
      400,
      'parameter_invalid',
      'minimumPayout',
    ],
    ['a negative minimum', { minimumPayout: '-1.00' }, 400, 'parameter_invalid', 'minimumPayout'],
    ['a minimum sent as a JSON number', { minimumPayout: 10 }, 400, 'parameter_invalid', 'minimumPayout'],
    ['an opening balance with an exponent', { openingBalance: '1e3' }, 400, 'parameter_invalid', 'openingBalance'],
    ['an opening balance with 7 places', { openingBalance: '0.0000001' }, 400, 'parameter_invalid', 'openingBalance'],
    ['an unknown role', { roles: ['drummer'] }, 400, 'parameter_invalid', 'roles.0'],
    ['no roles', { roles: [] }, 400, 'parameter_invalid', 'roles'],
    ['an unknown field', { payoutAccount: 'DE89' }, 400, 'parameter_unknown', 'payoutAccount'],
  ]
  for (const [label, change, status, code, param] of cases) {
    it(`refuses ${label}`, async () => {
      const before = await eventCount(t.db, owner.orgId)
      const response = await post(owner.token, creatorBody(change))
      expectProblem(response, status, code)
      expect(response.json().param).toBe(param)
      expect(await eventCount(t.db, owner.orgId)).toBe(before)
    })
  }

  it('says clearly that an amount must be a decimal string', async () => {
    const response = await post(owner.token, creatorBody({ openingBalance: -500 }))
    expect(response.json().detail).toMatch(/decimal string/)
  })

  it('refuses a missing name', async () => {
    const { name: _name, ...body } = creatorBody()
    const response = await post(owner.token, body)
    expectProblem(response, 400, 'parameter_missing')
    expect(response.json().param).toBe('name')
  })
})

describe('creator access', () => {
  it('needs a session: 401 without a token', async () => {
    expectProblem(await call(t.app, { url: '/api/creators' }), 401, 'authentication_required')
    expectProblem(
      await call(t.app, { method: 'POST', url: '/api/creators', body: creatorBody() }),
      401,
      'authentication_required',
    )
    expectProblem(
      await call(t.app, { url: '/api/creators/crt_01ARZ3NDEKTSV4RRFFQ69G5FAV' }),
      401,
      'authentication_required',
    )
  })

  it('lets editors write and viewers and finance only read', async () => {
    const editor = await memberWithRole(t.app, owner, 'editor')
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    const finance = await memberWithRole(t.app, owner, 'finance')
    expect((await post(editor.token, creatorBody())).statusCode).toBe(201)
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(await post(viewer.token, creatorBody()), 403, 'forbidden')
    expectProblem(await post(finance.token, creatorBody()), 403, 'forbidden')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    expect((await call(t.app, { url: '/api/creators', token: viewer.token })).statusCode).toBe(200)
  })

  it('answers another org’s creator, and one that does not exist, with 404', async () => {
    const theirs = await createCreator(t.app, other.token)
    expectProblem(await call(t.app, { url: `/api/creators/${theirs.id}`, token: owner.token }), 404, 'resource_missing')
    expectProblem(
      await call(t.app, { url: '/api/creators/crt_01ARZ3NDEKTSV4RRFFQ69G5FAV', token: owner.token }),
      404,
      'resource_missing',
    )
    expectProblem(await call(t.app, { url: '/api/creators/not-an-id', token: owner.token }), 404, 'resource_missing')
  })

  it('refuses a cursor made with another list', async () => {
    expectProblem(await call(t.app, { url: '/api/creators?cursor=bm9wZQ', token: owner.token }), 400, 'invalid_cursor')
  })
})
