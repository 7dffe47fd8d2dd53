import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOUR } from '../../platform/clock.js'
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
import { createCreator, createEntry, eventBody } from '../../../test/records-fixtures.js'

let t: TestApp
let owner: OrgAccount
let other: OrgAccount
let performer: string
let work: string
let recording: string
let stranger: string

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
  other = await ownerWithOrg(t.app, { name: 'Other Promoter' })
  performer = (await createCreator(t.app, owner.token, { name: 'Headliner', roles: ['artist'] })).id
  stranger = (await createCreator(t.app, other.token, { name: 'Stranger' })).id
  const split = [{ creatorId: performer, role: 'composer', shareBps: 10000 }]
  work = (await createEntry(t.app, owner.token, { kind: 'work', title: 'Anthem', splits: split })).id
  recording = (await createEntry(t.app, owner.token, { kind: 'recording', title: 'Anthem (Studio)', splits: split })).id
})
afterAll(() => t.close())

const post = (body: unknown, token = owner.token) => call(t.app, { method: 'POST', url: '/api/events', token, body })
const action = (id: string, verb: 'publish' | 'cancel', token = owner.token) =>
  call(t.app, { method: 'POST', url: `/api/events/${id}/${verb}`, token })
const inHours = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR).toISOString()

describe('ticketed events', () => {
  it('creates a draft event with venue, tickets, performers and works, and logs it', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const response = await post(eventBody({ startsAt: inHours(48), performerIds: [performer], catalogIds: [work] }))
    expect(response.statusCode, response.body).toBe(201)
    const event = response.json()
    expect(event).toMatchObject({
      name: 'Summer Night',
      venue: { name: 'Columbiahalle', city: 'Berlin', country: 'DE' },
      endsAt: null,
      timezone: 'Europe/Berlin',
      currency: 'EUR',
      capacity: 500,
      ticketTypes: [
        { name: 'Standing', price: '39.00', quantity: 400 },
        { name: 'Balcony', price: '59.50', quantity: 100 },
      ],
      performerIds: [performer],
      catalogIds: [work],
      status: 'draft',
      lifecycle: 'upcoming',
      createdBy: owner.userId,
    })
    expect(event.id).toMatch(/^tev_/)
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    const logged = (await call(t.app, { url: '/api/org-events?action=ticketed_event.created', token: owner.token }))
      .json()
      .data.at(-1)
    expect(logged.data).toEqual(event)
    expect((await call(t.app, { url: `/api/events/${event.id}`, token: owner.token })).json()).toEqual(event)
    const list = (await call(t.app, { url: '/api/events', token: owner.token })).json()
    expect(list.data[0]).toEqual(event)
  })

  it('prices tickets in the currency minor unit: whole yen, three places for dinars', async () => {
    const yen = await post(
      eventBody({
        currency: 'JPY',
        venue: { name: 'Budokan', country: 'JP' },
        timezone: 'Asia/Tokyo',
        ticketTypes: [
          { name: 'S', price: '12000', quantity: 10 },
          { name: 'Free', price: '0', quantity: 5 },
        ],
      }),
    )
    expect(yen.statusCode, yen.body).toBe(201)
    expect(yen.json().ticketTypes.map((type: { price: string }) => type.price)).toEqual(['12000', '0'])
    const dinar = await post(
      eventBody({ currency: 'KWD', ticketTypes: [{ name: 'A', price: '12.125', quantity: 10 }] }),
    )
    expect(dinar.json().ticketTypes[0].price).toBe('12.125')
    expectProblem(
      await post(eventBody({ currency: 'JPY', ticketTypes: [{ name: 'S', price: '12000.5', quantity: 10 }] })),
      400,
      'parameter_invalid',
    )
  })

  it('derives the lifecycle from the clock, a day long without endsAt', async () => {
    const create = async (change: Record<string, unknown>) => (await post(eventBody(change))).json().id as string
    const read = async (id: string) =>
      (await call(t.app, { url: `/api/events/${id}`, token: owner.token })).json().lifecycle
    const soon = await create({ startsAt: inHours(1) })
    const bounded = await create({ startsAt: inHours(1), endsAt: inHours(3) })
    const startedHoursAgo = await create({ startsAt: inHours(-23) })
    const startedDaysAgo = await create({ startsAt: inHours(-25) })
    expect([await read(soon), await read(bounded), await read(startedHoursAgo), await read(startedDaysAgo)]).toEqual([
      'upcoming',
      'upcoming',
      'ongoing',
      'ended',
    ])
    t.clock.advance(2 * HOUR)
    expect([await read(soon), await read(bounded), await read(startedHoursAgo)]).toEqual([
      'ongoing',
      'ongoing',
      'ended',
    ])
    t.clock.advance(2 * HOUR)
    expect([await read(soon), await read(bounded)]).toEqual(['ongoing', 'ended'])
  })

  it('publishes a draft and cancels it, each an org event; other moves are invalid_state', async () => {
    const event = (await post(eventBody({ startsAt: inHours(24) }))).json()
    const before = await eventCount(t.db, owner.orgId)
    const published = await action(event.id, 'publish')
    expect(published.statusCode, published.body).toBe(200)
    expect(published.json().status).toBe('published')
    expectProblem(await action(event.id, 'publish'), 422, 'invalid_state')
    const cancelled = await action(event.id, 'cancel')
    expect(cancelled.statusCode).toBe(200)
    expect(cancelled.json()).toMatchObject({ id: event.id, status: 'cancelled' })
    expectProblem(await action(event.id, 'cancel'), 422, 'invalid_state')
    expectProblem(await action(event.id, 'publish'), 422, 'invalid_state')
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 2)
    const actions = (await call(t.app, { url: '/api/org-events?limit=100', token: owner.token }))
      .json()
      .data.slice(-2)
      .map((e: { action: string }) => e.action)
    expect(actions).toEqual(['ticketed_event.published', 'ticketed_event.cancelled'])
    expect((await call(t.app, { url: `/api/events/${event.id}`, token: owner.token })).json().status).toBe('cancelled')
  })

  it('cannot cancel an event that has ended', async () => {
    const event = (await post(eventBody({ startsAt: inHours(1), endsAt: inHours(2), status: 'published' }))).json()
    expect(event.status).toBe('published')
    t.clock.advance(3 * HOUR)
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(await action(event.id, 'cancel'), 422, 'invalid_state')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })
})

describe('refusing bad events, writing nothing', () => {
  const cases: [string, () => Record<string, unknown>, number, string, string][] = [
    ['ticket types over capacity', () => ({ capacity: 450 }), 422, 'unprocessable', 'ticketTypes'],
    ['an unknown time zone', () => ({ timezone: 'Europe/Atlantis' }), 400, 'parameter_invalid', 'timezone'],
    ['an unknown currency', () => ({ currency: 'EUX' }), 400, 'parameter_invalid', 'currency'],
    [
      'an unknown venue country',
      () => ({ venue: { name: 'Hall', country: 'XX' } }),
      400,
      'parameter_invalid',
      'venue.country',
    ],
    ['an end before the start', () => ({ endsAt: '2027-06-01T17:00:00.000Z' }), 400, 'parameter_invalid', 'endsAt'],
    [
      'a price sent as a JSON number',
      () => ({ ticketTypes: [{ name: 'A', price: 39, quantity: 1 }] }),
      400,
      'parameter_invalid',
      'ticketTypes.0.price',
    ],
    [
      'a negative price',
      () => ({ ticketTypes: [{ name: 'A', price: '-1.00', quantity: 1 }] }),
      400,
      'parameter_invalid',
      'ticketTypes.0.price',
    ],
    [
      'a ticket type named twice',
      () => ({
        ticketTypes: [
          { name: 'A', price: '1.00', quantity: 1 },
          { name: 'A', price: '2.00', quantity: 1 },
        ],
      }),
      400,
      'parameter_invalid',
      'ticketTypes.1.name',
    ],
    [
      'a performer of another org',
      () => ({ performerIds: [performer, stranger] }),
      422,
      'unprocessable',
      'performerIds.1',
    ],
    ['a recording among the works', () => ({ catalogIds: [recording] }), 422, 'unprocessable', 'catalogIds.0'],
    ['a cancelled status at creation', () => ({ status: 'cancelled' }), 400, 'parameter_invalid', 'status'],
    ['a capacity of zero', () => ({ capacity: 0, ticketTypes: [] }), 400, 'parameter_invalid', 'capacity'],
  ]
  for (const [label, change, status, code, param] of cases) {
    it(`refuses ${label}`, async () => {
      const before = await eventCount(t.db, owner.orgId)
      const response = await post(eventBody(change()))
      expectProblem(response, status, code)
      expect(response.json().param).toBe(param)
      expect(await eventCount(t.db, owner.orgId)).toBe(before)
    })
  }
})

describe('ticketed event access', () => {
  it('needs a session, and the editor role or above to write', async () => {
    expectProblem(await call(t.app, { url: '/api/events' }), 401, 'authentication_required')
    expectProblem(
      await call(t.app, { method: 'POST', url: '/api/events', body: eventBody() }),
      401,
      'authentication_required',
    )
    const editor = await memberWithRole(t.app, owner, 'editor')
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    const finance = await memberWithRole(t.app, owner, 'finance')
    const event = (await post(eventBody(), editor.token)).json()
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(await post(eventBody(), viewer.token), 403, 'forbidden')
    expectProblem(await post(eventBody(), finance.token), 403, 'forbidden')
    expectProblem(await action(event.id, 'publish', viewer.token), 403, 'forbidden')
    expectProblem(await action(event.id, 'cancel', viewer.token), 403, 'forbidden')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    expect((await call(t.app, { url: `/api/events/${event.id}`, token: viewer.token })).statusCode).toBe(200)
  })

  it('answers another org’s event with 404, for reads and actions', async () => {
    const theirs = (await post(eventBody(), other.token)).json()
    const before = await eventCount(t.db, other.orgId)
    expectProblem(await call(t.app, { url: `/api/events/${theirs.id}`, token: owner.token }), 404, 'resource_missing')
    expectProblem(await action(theirs.id, 'cancel'), 404, 'resource_missing')
    expectProblem(await action(theirs.id, 'publish'), 404, 'resource_missing')
    expect(await eventCount(t.db, other.orgId)).toBe(before)
    expect((await call(t.app, { url: `/api/events/${theirs.id}`, token: other.token })).json().status).toBe('draft')
  })
})
