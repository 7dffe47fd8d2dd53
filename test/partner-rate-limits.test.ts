import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECOND, type Clock, ManualClock } from '../src/platform/clock.js'
import { createMemoryRateLimiter, createRedisRateLimiter, TIERS, type RateLimiter } from '../src/platform/rate-limit.js'
import { buildTestApp, call, eventCount, expectProblem, ownerWithOrg, type TestApp } from './helpers.js'
import {
  accessToken,
  createClient,
  expectOAuthError,
  requestToken,
  sandboxPartner,
  type ClientCredentials,
} from './partner-helpers.js'

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

describe(`the token endpoint (${backend} buckets)`, () => {
  const exchange = (client: ClientCredentials, remoteAddress: string, secret = client.secret) =>
    requestToken(
      t.app,
      { grant_type: 'client_credentials', client_id: client.id, client_secret: secret, scope: 'events:read' },
      { remoteAddress },
    )

  it('limits valid exchanges per client, not per address: 3 clients x 45 from one address are all served', async () => {
    const address = '198.51.100.7'
    const { owner } = await sandboxPartner(t.app)
    const clients = [
      await createClient(t.app, owner, ['events:read'], 'one'),
      await createClient(t.app, owner, ['events:read'], 'two'),
      await createClient(t.app, owner, ['events:read'], 'three'),
    ]
    for (let round = 0; round < 45; round += 1) {
      const answers = await Promise.all(clients.map((client) => exchange(client, address)))
      for (const answer of answers) {
        expect(answer.statusCode, answer.body).toBe(200)
        // Each client's own bucket, at its tier: a burst of 120, one less per exchange.
        expectRateHeaders(answer, '60')
        expect(answer.headers['x-ratelimit-remaining']).toBe(String(119 - round))
      }
    }
    // The address is not what runs out: a fourth client there is served at once.
    const fourth = await createClient(t.app, owner, ['events:read'], 'four')
    expect((await exchange(fourth, address)).statusCode).toBe(200)
  })

  it('refuses a client past its tier, from any address, and no other client with it', async () => {
    const { owner, client } = await sandboxPartner(t.app)
    const statuses = []
    for (let n = 0; n < 121; n += 1) statuses.push((await exchange(client, `192.0.2.${(n % 200) + 1}`)).statusCode)
    // sandboxPartner took one token already: 119 more fit the burst of 120.
    expect(statuses.filter((status) => status === 200)).toHaveLength(119)
    const refused = await exchange(client, '192.0.2.250')
    expectOAuthError(refused, 429, 'rate_limited')
    expect(refused.headers['retry-after']).toBe('1')
    expectRateHeaders(refused, '60')
    expect(refused.headers['x-ratelimit-remaining']).toBe('0')
    const other = await createClient(t.app, owner, ['events:read'])
    expect((await exchange(other, '192.0.2.250')).statusCode).toBe(200)
    t.clock.advance(SECOND)
    expect((await exchange(client, '192.0.2.250')).statusCode).toBe(200)
  })

  it('still throttles failed authentications per address, whatever the valid exchanges beside them', async () => {
    const address = '198.51.100.8'
    const { owner, client } = await sandboxPartner(t.app)
    const colleague = await createClient(t.app, owner, ['events:read'])
    for (let n = 0; n < 40; n += 1) expect((await exchange(client, address)).statusCode).toBe(200)
    for (let n = 0; n < 30; n += 1) {
      const guess = await exchange({ ...client, id: `cli_guess${n}` }, address, 'cs_test_guess')
      expectOAuthError(guess, 401, 'invalid_client')
      // The headers speak for the throttle closer to refusing: this id's (10), or the address's (30).
      expect(guess.headers['x-ratelimit-remaining']).toBe(String(Math.min(9, 29 - n)))
    }
    // Every client waits at that address, and only there.
    for (const each of [client, colleague]) {
      const throttled = await exchange(each, address)
      expectOAuthError(throttled, 429, 'rate_limited')
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0)
    }
    expect((await exchange(colleague, '198.51.100.9')).statusCode).toBe(200)
  })

  it('still throttles failed authentications per client id, from any number of addresses', async () => {
    const { client } = await sandboxPartner(t.app)
    for (let n = 0; n < 10; n += 1)
      expectOAuthError(await exchange(client, `203.0.113.${n + 1}`, 'cs_test_guess'), 401, 'invalid_client')
    const throttled = await exchange(client, '203.0.113.100')
    expectOAuthError(throttled, 429, 'rate_limited')
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0)
    expect(throttled.headers['x-ratelimit-remaining']).toBe('0')
  })

  it('counts requests refused before any client authenticates per address, without holding up valid exchanges', async () => {
    const address = '198.51.100.10'
    const { client } = await sandboxPartner(t.app)
    const malformed = () => requestToken(t.app, { grant_type: 'password' }, { remoteAddress: address })
    for (let n = 0; n < 120; n += 1) {
      const answer = await malformed()
      expectOAuthError(answer, 400, 'unsupported_grant_type')
      expectRateHeaders(answer, '60')
    }
    const refused = await malformed()
    expectOAuthError(refused, 429, 'rate_limited')
    expect(refused.headers['retry-after']).toBe('1')
    expect((await exchange(client, address)).statusCode).toBe(200)
  })
})
