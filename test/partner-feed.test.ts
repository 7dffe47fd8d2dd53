import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MINUTE, SECOND } from '../src/platform/clock.js'
import { buildTestApp, call, expectProblem, memberWithRole, type TestApp } from './helpers.js'
import { accessToken, sandboxPartner, type ClientCredentials } from './partner-helpers.js'
import type { OrgAccount } from './helpers.js'

interface FeedEvent {
  id: string
  orgId: string
  action: string
  userId: string
  createdAt: string
  hash: string
  sequence: number
  resource: { type: string; id: string } | null
  data: unknown
}
interface FeedPage {
  data: FeedEvent[]
  pagination: { cursor: string; hasMore: boolean }
}

let t: TestApp
let owner: OrgAccount
let client: ClientCredentials
let token: string

beforeAll(async () => {
  t = await buildTestApp()
  ;({ owner, client, token } = await sandboxPartner(t.app))
})
afterAll(() => t.close())

async function page(query: Record<string, string | number> = {}): Promise<FeedPage> {
  const search = new URLSearchParams(
    Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
  )
  const response = await call(t.app, {
    url: `/v1/orgs/${owner.orgId}/events?${search}`,
    token,
    headers: { accept: 'application/json' },
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}

/** Reads from `cursor` until a page says nothing more follows; returns the events and the cursor to poll with. */
async function drain(cursor: string | undefined, limit: number): Promise<{ events: FeedEvent[]; cursor: string }> {
  const events: FeedEvent[] = []
  for (;;) {
    const result = await page({ limit, ...(cursor ? { cursor } : {}) })
    events.push(...result.data)
    expect(typeof result.pagination.cursor).toBe('string')
    cursor = result.pagination.cursor
    if (!result.pagination.hasMore) return { events, cursor }
  }
}

const invite = (n: number) =>
  call(t.app, {
    method: 'POST',
    url: '/api/members/invitations',
    token: owner.token,
    body: { email: `feed-${n}@example.com`, role: 'viewer' },
  })

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const ULID = '[0-9A-HJKMNP-TV-Z]{26}'

function expectSpecFields(event: FeedEvent): void {
  expect(event.id).toMatch(new RegExp(`^evt_${ULID}$`))
  expect(event.orgId).toBe(owner.orgId)
  expect(event.orgId).toMatch(new RegExp(`^org_${ULID}$`))
  expect(event.action).toMatch(/^[a-z_]+(\.[a-z_]+)+$/)
  expect(event.userId).toMatch(new RegExp(`^usr_${ULID}$`))
  expect(event.createdAt).toMatch(ISO_MS_UTC)
  expect(new Date(event.createdAt).toISOString()).toBe(event.createdAt)
  expect(event.hash).toMatch(/^sha256:[0-9a-f]{64}$/)
  expect(Number.isInteger(event.sequence)).toBe(true)
  expect(event).toHaveProperty('resource')
  expect(event).toHaveProperty('data')
}

describe('GET /v1/orgs/:orgId/events', () => {
  it('returns the org events oldest first with every SPEC field, and a cursor on the last page too', async () => {
    for (let n = 0; n < 4; n += 1) expect((await invite(n)).statusCode).toBe(201)
    const { events, cursor } = await drain(undefined, 2)
    expect(events.map((event) => event.sequence)).toEqual(events.map((_, index) => index + 1))
    expect(events.map((event) => event.action).slice(0, 2)).toEqual(['org.created', 'client.created'])
    for (const event of events) expectSpecFields(event)
    // The client's token request is not an event; the owner's invitations are.
    expect(events.filter((event) => event.action === 'member.invited')).toHaveLength(4)

    // Polling with the stored cursor: nothing new is an empty page that still carries a cursor.
    const empty = await page({ cursor })
    expect(empty.data).toEqual([])
    expect(empty.pagination.hasMore).toBe(false)
    expect(typeof empty.pagination.cursor).toBe('string')
    expect((await page({ cursor: empty.pagination.cursor })).data).toEqual([])

    expect((await invite(99)).statusCode).toBe(201)
    const next = await page({ cursor: empty.pagination.cursor })
    expect(next.data.map((event) => event.action)).toEqual(['member.invited'])
    expect(next.data[0]!.sequence).toBe(events.length + 1)
  })

  it('serves each event alone, and 404 for an unknown one', async () => {
    const first = (await page({ limit: 1 })).data[0]!
    const response = await call(t.app, { url: `/v1/orgs/${owner.orgId}/events/${first.id}`, token })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual(first)
    expectProblem(
      await call(t.app, { url: `/v1/orgs/${owner.orgId}/events/evt_01M81B5H804211MF72VW5EZ040`, token }),
      404,
      'resource_missing',
    )
  })

  it('filters by action, since and until, and binds the cursor to its filters', async () => {
    const invited = await drain(undefined, 100).then(({ events }) =>
      events.filter((event) => event.action === 'member.invited'),
    )
    const filtered = await page({ action: 'member.invited', limit: 2 })
    expect(filtered.data.map((event) => event.id)).toEqual(invited.slice(0, 2).map((event) => event.id))
    const rest = await page({ action: 'member.invited', limit: 100, cursor: filtered.pagination.cursor })
    expect(rest.data.map((event) => event.id)).toEqual(invited.slice(2).map((event) => event.id))

    expectProblem(
      await call(t.app, { url: `/v1/orgs/${owner.orgId}/events?cursor=${filtered.pagination.cursor}`, token }),
      400,
      'invalid_cursor',
    )
    expectProblem(
      await call(t.app, { url: `/v1/orgs/${owner.orgId}/events?cursor=not-a-cursor`, token }),
      400,
      'invalid_cursor',
    )
    expectProblem(
      await call(t.app, { url: `/v1/orgs/${owner.orgId}/events?limit=101`, token }),
      400,
      'parameter_invalid',
    )
    expectProblem(await call(t.app, { url: `/v1/orgs/${owner.orgId}/events?page=2`, token }), 400, 'parameter_unknown')

    const now = t.clock.now()
    t.clock.advance(MINUTE)
    expect((await invite(200)).statusCode).toBe(201)
    const later = new Date(t.clock.now().getTime() + 1).toISOString()
    const since = await page({ since: new Date(now.getTime() + 1).toISOString() })
    expect(since.data.map((event) => event.action)).toEqual(['member.invited'])
    const until = await page({ until: new Date(now.getTime() + 1).toISOString(), limit: 100 })
    expect(until.data.every((event) => event.createdAt <= now.toISOString())).toBe(true)
    expect(until.data.length).toBeGreaterThan(0)
    expect((await page({ since: later })).data).toEqual([])
  })
})

describe('polling while events are being written', () => {
  it('sees every event exactly once, in sequence order', async () => {
    const start = await drain(undefined, 100)
    const firstNew = start.events.length + 1
    const writers = 24
    let finished = false
    const writes = Promise.all(Array.from({ length: writers }, (_, n) => invite(1000 + n))).then((responses) => {
      for (const response of responses) expect(response.statusCode, response.body).toBe(201)
      finished = true
    })
    const seen: FeedEvent[] = []
    let pagesWhileWriting = 0
    let cursor = start.cursor
    for (;;) {
      // Only a read that began after every write committed may end the loop.
      const writesDone = finished
      // A poller waits between polls: a second of the manual clock refills the token it spends, and
      // yielding to the event loop lets the writers' requests (whose bodies arrive as stream events) run.
      t.clock.advance(SECOND)
      await new Promise((resolve) => setImmediate(resolve))
      const result = await page({ limit: 3, cursor })
      seen.push(...result.data)
      if (!writesDone && result.data.length > 0) pagesWhileWriting += 1
      cursor = result.pagination.cursor
      if (writesDone && !result.pagination.hasMore) break
    }
    await writes
    // The polls really overlapped the writes.
    expect(pagesWhileWriting).toBeGreaterThan(0)
    expect(seen.map((event) => event.sequence)).toEqual(Array.from({ length: writers }, (_, index) => firstNew + index))
    expect(new Set(seen.map((event) => event.id)).size).toBe(writers)
    expect(seen.every((event) => event.action === 'member.invited')).toBe(true)
    for (const event of seen) expectSpecFields(event)
    expect((await page({ cursor })).data).toEqual([])
  })
})

describe('the cursor (property)', () => {
  it('never skips or repeats an event, for any page sizes and interleaved appends', async () => {
    type Step = { kind: 'append'; count: number } | { kind: 'read'; limit: number }
    const step = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), count: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ kind: fc.constant('read' as const), limit: fc.integer({ min: 1, max: 5 }) }),
    )
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 7 }),
        async (steps: Step[], drainLimit) => {
          // A fresh bucket and a fresh token for every run.
          t.clock.advance(2 * MINUTE)
          token = await accessToken(t.app, client, 'events:read members:read')
          const start = await drain(undefined, 100)
          const appended: string[] = []
          const read: string[] = []
          let cursor = start.cursor
          for (const current of steps) {
            if (current.kind === 'append') {
              for (let n = 0; n < current.count; n += 1) {
                const [event] = await t.db.tx({ orgId: owner.orgId }, (tx) =>
                  t.services.audit.appendNow(tx, { orgId: owner.orgId, actor: { userId: owner.userId } }, [
                    { action: 'cursor.probed', resource: null, data: { run, n } },
                  ]),
                )
                appended.push(event!.id)
              }
            } else {
              const result = await page({ limit: current.limit, cursor })
              read.push(...result.data.map((event) => event.id))
              cursor = result.pagination.cursor
            }
          }
          read.push(...(await drain(cursor, drainLimit)).events.map((event) => event.id))
          run += 1
          expect(read).toEqual(appended)
        },
      ),
      { numRuns: 20 },
    )
  })
})

describe('GET /v1/orgs/:orgId/members', () => {
  it('lists the org members, newest first', async () => {
    const editor = await memberWithRole(t.app, owner, 'editor')
    const response = await call(t.app, { url: `/v1/orgs/${owner.orgId}/members?limit=1`, token })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.data).toEqual([
      {
        userId: editor.userId,
        name: 'editor',
        email: editor.email,
        role: 'editor',
        joinedAt: t.clock.now().toISOString(),
      },
    ])
    expect(body.pagination.hasMore).toBe(true)
    const rest = await call(t.app, { url: `/v1/orgs/${owner.orgId}/members?cursor=${body.pagination.cursor}`, token })
    expect(rest.json().data.map((member: { userId: string; role: string }) => [member.userId, member.role])).toEqual([
      [owner.userId, 'owner'],
    ])
  })
})
