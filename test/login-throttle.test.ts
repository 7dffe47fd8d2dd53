import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../src/platform/clock.js'
import { createPasswordHasher, type PasswordHasher } from '../src/platform/crypto.js'
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from '../src/platform/rate-limit.js'
import { buildTestApp, signup, uniqueEmail, type TestApp } from './helpers.js'

/**
 * Guesses sent at once get no more password checks than the login throttles hold: the token is
 * taken before the check, in one atomic step of the bucket's store. On this process's buckets,
 * and on Redis when REDIS_URL is set.
 */
const redisUrl = process.env.REDIS_URL
const backends: [string, (clock: ManualClock) => RateLimiter][] = [
  ['in-process buckets', (clock) => createMemoryRateLimiter(clock)],
]
if (redisUrl) {
  // A key space of its own for each app: no test sees another's buckets.
  const prefix = () => `oeuvre:test:${process.pid}:${randomBytes(6).toString('hex')}:`
  backends.push([
    'Redis buckets',
    (clock) => createRedisRateLimiter(new Redis(redisUrl, { maxRetriesPerRequest: 2 }), clock, prefix()),
  ])
}

/** A password hasher that counts the checks it makes. */
function countingHasher(inner: PasswordHasher = createPasswordHasher({ fast: true })) {
  const counted = { checks: 0 }
  const hasher: PasswordHasher = {
    hash: (password) => inner.hash(password),
    verify: (password, stored) => {
      counted.checks += 1
      return inner.verify(password, stored)
    },
  }
  return { hasher, counted }
}

const opened: { t: TestApp; limiter: RateLimiter }[] = []
async function appWith(makeLimiter: (clock: ManualClock) => RateLimiter, passwords: PasswordHasher) {
  const clock = new ManualClock()
  const limiter = makeLimiter(clock)
  const t = await buildTestApp({ clock, limiter, passwords })
  opened.push({ t, limiter })
  return t
}
afterAll(async () => {
  for (const { t, limiter } of opened) {
    await t.close()
    await limiter.close()
  }
})

const login = (t: TestApp, email: string, password: string, address = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: address,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password }),
  })

const statuses = (responses: LightMyRequestResponse[]) =>
  responses.reduce<Record<number, number>>(
    (counts, r) => ({ ...counts, [r.statusCode]: (counts[r.statusCode] ?? 0) + 1 }),
    {},
  )

describe.each(backends)('the login throttle (%s)', (_name, makeLimiter) => {
  it('checks at most 10 of 100 guesses sent at once for one account from 100 addresses', async () => {
    const { hasher, counted } = countingHasher()
    const t = await appWith(makeLimiter, hasher)
    const account = await signup(t.app)
    const guesses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        login(t, account.email, `wrong password ${i}`, `127.0.${i >> 8}.${(i & 255) + 1}`),
      ),
    )
    expect(counted.checks).toBe(10)
    expect(statuses(guesses)).toEqual({ 401: 10, 429: 90 })
    // The bucket is empty: the right password is refused without a check.
    const right = await login(t, account.email, 'correct horse battery', '127.1.0.1')
    expect(right.statusCode).toBe(429)
    expect(counted.checks).toBe(10)
  })

  it('checks at most 30 of 60 guesses sent at once from one address', async () => {
    const { hasher, counted } = countingHasher()
    const t = await appWith(makeLimiter, hasher)
    const guesses = await Promise.all(
      Array.from({ length: 60 }, () => login(t, uniqueEmail('nobody'), 'a wrong password', '127.0.0.9')),
    )
    expect(counted.checks).toBe(30)
    expect(statuses(guesses)).toEqual({ 401: 30, 429: 30 })
  })

  it('lets the right password last among 40 guesses at once in only if it is one of the 10 checked', async () => {
    const { hasher, counted } = countingHasher()
    const t = await appWith(makeLimiter, hasher)
    const account = await signup(t.app)
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        login(t, account.email, i === 39 ? 'correct horse battery' : `wrong password ${i}`, `127.2.0.${i + 1}`),
      ),
    )
    expect(counted.checks).toBe(10)
    const answered = statuses(guesses)
    expect((answered[401] ?? 0) + (answered[200] ?? 0)).toBe(10)
    expect(answered[429]).toBe(30)
  })

  it('gives a successful login its tokens back: only failures count', async () => {
    const { hasher } = countingHasher()
    const t = await appWith(makeLimiter, hasher)
    const account = await signup(t.app)
    for (let i = 0; i < 25; i += 1)
      expect((await login(t, account.email, 'correct horse battery')).statusCode).toBe(200)
  })
})

describe('password hashing under a burst', () => {
  it('computes one hash at a time and refuses, 503 with Retry-After, what would wait beyond the queue', async () => {
    const hasher = createPasswordHasher({ fast: true, bounds: { concurrency: 1, waiting: 2 } })
    const stored = await hasher.hash('a long password')
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => hasher.verify('a long password', stored)))
    expect(
      outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<boolean>).value),
    ).toEqual([true, true, true])
    const refused = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[]
    expect(refused).toHaveLength(3)
    expect(refused[0]?.reason).toMatchObject({
      code: 'service_unavailable',
      options: { headers: { 'retry-after': '1' } },
    })

    const t = await appWith(
      (clock) => createMemoryRateLimiter(clock),
      createPasswordHasher({ fast: true, bounds: { concurrency: 1, waiting: 2 } }),
    )
    const accounts = await Promise.all(Array.from({ length: 3 }, () => signup(t.app)))
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login(t, accounts[i % 3]!.email, 'wrong password', `127.3.0.${i + 1}`)),
    )
    const answered = statuses(burst)
    expect(answered[503]).toBeGreaterThan(0)
    expect((answered[401] ?? 0) + (answered[503] ?? 0)).toBe(12)
    const unavailable = burst.find((r) => r.statusCode === 503)!
    expect(unavailable.headers['retry-after']).toBe('1')
    expect(unavailable.json().code).toBe('service_unavailable')
  })
})

describe('login timing', () => {
  it('takes as long for an unknown email as for a wrong password of a known one (medians of interleaved tries)', async () => {
    // The real cost: a check skipped for unknown emails would show as a difference of a whole hash.
    const t = await appWith((clock) => createMemoryRateLimiter(clock), createPasswordHasher())
    const account = await signup(t.app)
    const known: number[] = []
    const unknown: number[] = []
    const timed = async (into: number[], email: string, address: string) => {
      const started = performance.now()
      const response = await login(t, email, 'not the password', address)
      into.push(performance.now() - started)
      expect(response.statusCode).toBe(401)
    }
    for (let i = 0; i < 9; i += 1) {
      await timed(known, account.email, `127.4.0.${i + 1}`)
      await timed(unknown, uniqueEmail('nobody'), `127.5.0.${i + 1}`)
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    const ratio = median(unknown) / median(known)
    // Relative to each other, in the same run: independent of the machine's speed. Without the
    // dummy check the unknown email answers in a few percent of the known one's time.
    expect(
      ratio,
      `medians: unknown ${median(unknown).toFixed(1)} ms, known ${median(known).toFixed(1)} ms`,
    ).toBeGreaterThan(0.7)
    expect(ratio).toBeLessThan(1.4)
  }, 60_000)
})
