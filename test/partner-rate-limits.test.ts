import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECOND, type Clock, ManualClock } from '../src/platform/clock.js'
import { createMemoryRateLimiter, createRedisRateLimiter, TIERS, type RateLimiter } from '../src/platform/rate-limit.js'
import { buildTestApp, call, eventCount, expectProblem, ownerWithOrg, type TestApp } from './helpers.js'
import { accessToken, createClient, sandboxPartner } from './partner-helpers.js'

// The same suite runs on in-process buckets, or on Redis when REDIS_URL is set.
const redisUrl = process.env.REDIS_URL
const backend = redisUrl ? 'Redis' : 'in-process'
const prefix = `oeuvre:test:${process.pid}:${randomBytes(6).toString('hex')}:`
const limiters: RateLimiter[] = []

function makeLimiter(clock: Clock): RateLimiter {
  const limiter = redisUrl
    ? createRedisRateLimiter(new Redis(redisUrl, { maxRetriesPerRequest: 2 }), clock, prefix)
    : createMemoryRateLimiter(clock)
  limiters.push(limiter)
  return limiter
}

let t: TestApp
let limiter: RateLimiter

beforeAll(async () => {
  const clock = new ManualClock()
  limiter = makeLimiter(clock)
  t = await buildTestApp({ clock, limiter })
})
afterAll(async () => {
  await t.close()
  for (const each of limiters) await each.close()
})

function expectRateHeaders(response: LightMyRequestResponse, limit: string): void {
  expect(response.headers['x-ratelimit-limit']).toBe(limit)
  expect(response.headers['x-ratelimit-remaining']).toMatch(/^\d+$/)
  expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/)
}

const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000)

describe(`rate limits (${backend} buckets)`, () => {
  it('admits exactly 120 of a burst of 130 from a fresh sandbox client, then refills at one per second', async () => {
    const { owner, token } = await sandboxPartner(t.app)
    const feed = () => call(t.app, { url: `/v1/orgs/${owner.orgId}/events?limit=1`, token })
    const burst = await Promise.all(Array.from({ length: 130 }, feed))
    const admitted = burst.filter((response) => response.statusCode === 200)
    const refused = burst.filter((response) => response.statusCode !== 200)
    expect(admitted).toHaveLength(120)
    expect(refused).toHaveLength(10)
    for (const response of burst) expectRateHeaders(response, '60')
    expect(admitted.map((response) => Number(response.headers['x-ratelimit-remaining'])).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 120 }, (_, index) => index),
    )
    for (const response of refused) {
      expectProblem(response, 429, 'rate_limited')
      expect(response.headers['retry-after']).toBe('1')
      expect(response.headers['x-ratelimit-remaining']).toBe('0')
      // An empty bucket of 120 refills in 120 seconds.
      expect(Number(response.headers['x-ratelimit-reset'])).toBe(nowSeconds() + 120)
    }

    t.clock.advance(SECOND)
    expect((await feed()).statusCode).toBe(200)
    expectProblem(await feed(), 429, 'rate_limited')

    t.clock.advance(10 * SECOND)
    const statuses = []
    for (let n = 0; n < 11; n += 1) statuses.push((await feed()).statusCode)
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429])

    t.clock.advance(120 * SECOND)
    const full = await feed()
    expect(full.statusCode).toBe(200)
    expect(full.headers['x-ratelimit-remaining']).toBe('119')
    expect(Number(full.headers['x-ratelimit-reset'])).toBe(nowSeconds() + 1)
  })

  it('puts the headers on errors too: 401, 403 and 404 on the partner surface, and the token endpoint', async () => {
    const { owner, client } = await sandboxPartner(t.app)
    const other = await ownerWithOrg(t.app, { environment: 'sandbox' })
    const token = await accessToken(t.app, client, 'events:read')
    const responses = [
      await call(t.app, { url: `/v1/orgs/${owner.orgId}/events`, token: 'oat_nothing' }),
      await call(t.app, { url: `/v1/orgs/${owner.orgId}/members`, token }),
      await call(t.app, { url: `/v1/orgs/${other.orgId}/events`, token }),
      await call(t.app, { url: '/v1/orgs/nowhere' }),
    ]
    expect(responses.map((response) => response.statusCode)).toEqual([401, 403, 404, 404])
    expectRateHeaders(responses[0]!, '60')
    expectRateHeaders(responses[1]!, '60')
    expectRateHeaders(responses[2]!, '60')
    expectRateHeaders(responses[3]!, '60')
  })

  it('refuses over the limit without any effect: nothing written, the idempotency key left unused', async () => {
    const owner = await ownerWithOrg(t.app, { environment: 'sandbox' })
    const before = await eventCount(t.db, owner.orgId)
    // Empty the owner's bucket, as a burst of requests would.
    const { remaining } = await limiter.take(`usr:${owner.userId}`, TIERS.session, 0)
    expect((await limiter.take(`usr:${owner.userId}`, TIERS.session, remaining)).allowed).toBe(true)
    const invite = () =>
      call(t.app, {
        method: 'POST',
        url: '/api/members/invitations',
        token: owner.token,
        body: { email: 'limited@example.com', role: 'viewer' },
        headers: { 'idempotency-key': 'limited-1' },
      })
    const refused = await invite()
    expectProblem(refused, 429, 'rate_limited')
    expect(refused.headers['retry-after']).toBe('1')
    expectRateHeaders(refused, '600')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    const invitations = await t.db.read(owner.orgId, (db) =>
      db.selectFrom('invitations').select('id').where('org_id', '=', owner.orgId).execute(),
    )
    expect(invitations).toHaveLength(0)

    t.clock.advance(SECOND)
    const retried = await invite()
    expect(retried.statusCode, retried.body).toBe(201)
    expect(retried.headers['idempotent-replayed']).toBeUndefined()
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
  })

  it(`shares one bucket between two API instances (${redisUrl ? 'two Redis connections, one key space' : 'REDIS_URL unset: one shared in-process limiter'})`, async () => {
    const second = await buildTestApp({ db: t.db, clock: t.clock, limiter: redisUrl ? makeLimiter(t.clock) : limiter })
    try {
      const owner = await ownerWithOrg(t.app, { environment: 'sandbox' })
      const client = await createClient(t.app, owner, ['events:read'])
      const token = await accessToken(second.app, client, 'events:read')
      const apps = [t.app, second.app]
      const burst = await Promise.all(
        Array.from({ length: 130 }, (_, n) =>
          call(apps[n % 2]!, { url: `/v1/orgs/${owner.orgId}/events?limit=1`, token }),
        ),
      )
      const admitted = burst.filter((response) => response.statusCode === 200)
      expect(admitted).toHaveLength(120)
      for (const parity of [0, 1]) {
        expect(burst.filter((response, n) => n % 2 === parity && response.statusCode === 200).length).toBeGreaterThan(0)
      }
      expect(burst.filter((response) => response.statusCode === 429)).toHaveLength(10)
      // Both instances saw the one bucket empty.
      expectProblem(await call(t.app, { url: `/v1/orgs/${owner.orgId}/events?limit=1`, token }), 429, 'rate_limited')
      expectProblem(
        await call(second.app, { url: `/v1/orgs/${owner.orgId}/events?limit=1`, token }),
        429,
        'rate_limited',
      )
    } finally {
      await second.close()
    }
  })
})
