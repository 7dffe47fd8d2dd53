import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, call, eventCount, expectProblem, type OrgAccount, type TestApp } from './helpers.js'
import { accessToken, sandboxPartner, type ClientCredentials } from './partner-helpers.js'
import { creatorBody, createCreator, eventBody, revenueBody } from './records-fixtures.js'

const WRITE_SCOPES = [
  'events:read',
  'creators:read',
  'creators:write',
  'catalog:read',
  'catalog:write',
  'revenue:read',
  'revenue:write',
  'payouts:read',
  'payouts:write',
  'ticketing:read',
  'ticketing:write',
]

let t: TestApp
let owner: OrgAccount
let client: ClientCredentials
let token: string

beforeAll(async () => {
  t = await buildTestApp()
  ;({ owner, client, token } = await sandboxPartner(t.app, WRITE_SCOPES))
})
afterAll(() => t.close())

const v1 = (path: string) => `/v1/orgs/${owner.orgId}${path}`
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(t.app, { method: 'POST', url: v1(path), token, body, headers })
const get = (path: string) => call(t.app, { url: v1(path), token })

describe('the record families under /v1/orgs/:orgId', () => {
  it('create, fetch and list with the bodies of /api, acting as the client’s service user', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const creator = await post('/creators', creatorBody())
    expect(creator.statusCode, creator.body).toBe(201)
    const creatorId = creator.json().id
    expect(creator.json().createdBy).toBe(client.userId)

    const work = await post('/catalog', {
      kind: 'work',
      title: 'A Song',
      splits: [{ creatorId, role: 'composer', shareBps: 10000 }],
    })
    expect(work.statusCode, work.body).toBe(201)
    const revenue = await post('/revenue', revenueBody(work.json().id))
    expect(revenue.statusCode, revenue.body).toBe(201)
    const show = await post('/ticketed-events', eventBody())
    expect(show.statusCode, show.body).toBe(201)
    const payout = await post('/payouts', { creatorId })
    expect(payout.statusCode, payout.body).toBe(201)
    expect(payout.json()).toMatchObject({ creatorId, amount: '10.00', currency: 'EUR' })

    // Every event these writes caused names the client's service user.
    const events = (await get(`/events?limit=100&since=${encodeURIComponent(t.clock.now().toISOString())}`)).json()
      .data as { sequence: number; userId: string; action: string }[]
    const caused = events.filter((event) => event.sequence > before)
    expect(caused.map((event) => event.action)).toEqual([
      'creator.created',
      'catalog.created',
      'revenue.created',
      'ticketed_event.created',
      'payout.created',
    ])
    for (const event of caused) expect(event.userId).toBe(client.userId)

    for (const [path, id] of [
      ['/creators', creatorId],
      ['/catalog', work.json().id],
      ['/ticketed-events', show.json().id],
      ['/payouts', payout.json().id],
    ] as const) {
      const fetched = await get(`${path}/${id}`)
      expect(fetched.statusCode, `${path} ${fetched.body}`).toBe(200)
      expect(fetched.json().id).toBe(id)
      const list = await get(path)
      expect(list.json().data.map((record: { id: string }) => record.id)).toContain(id)
      // The same service serves the session surface: the owner sees the very same record.
      const session = await call(t.app, {
        url: `${path === '/ticketed-events' ? '/api/events' : `/api${path}`}/${id}`,
        token: owner.token,
      })
      expect(session.json()).toEqual(fetched.json())
    }
    expect((await get('/revenue')).json().data.map((entry: { id: string }) => entry.id)).toContain(revenue.json().id)
  })

  it('answers business and validation errors as /api does, writing nothing', async () => {
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(await post('/creators', creatorBody({ isAdmin: true })), 400, 'parameter_unknown')
    expectProblem(
      await post('/catalog', {
        kind: 'work',
        title: 'Bad split',
        splits: [{ creatorId: 'crt_01M81B5H804211MF72VW5EZ040', role: 'composer', shareBps: 5000 }],
      }),
      422,
      'splits_invalid',
    )
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })

  it('replays an idempotent create for the same client and key', async () => {
    const first = await post('/creators', creatorBody({ name: 'Once' }), { 'idempotency-key': 'partner-creator-1' })
    const again = await post('/creators', creatorBody({ name: 'Once' }), { 'idempotency-key': 'partner-creator-1' })
    expect(first.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json().id).toBe(first.json().id)
  })

  it('does not find another org’s records under the client’s own org path', async () => {
    const other = await sandboxPartner(t.app, WRITE_SCOPES)
    const theirs = await createCreator(t.app, other.owner.token)
    expectProblem(await get(`/creators/${theirs.id}`), 404, 'resource_missing')
    expect((await get('/creators?limit=100')).body).not.toContain(theirs.id)
  })

  it('needs the family’s write scope to create', async () => {
    const readOnly = await accessToken(t.app, client, 'creators:read')
    const refused = await call(t.app, { method: 'POST', url: v1('/creators'), token: readOnly, body: creatorBody() })
    expectProblem(refused, 403, 'insufficient_scope')
    expect(refused.json().scope).toBe('creators:write')
  })
})
