import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { ManualClock } from './clock.js'
import {
  createMemoryBucketStore,
  createRateLimiter,
  createRedisBucketStore,
  leaseSize,
  LEASE_MS,
  TIERS,
  type BucketStore,
  type RateTier,
} from './rate-limit.js'

// Leases over Redis when REDIS_URL is set (the production pairing), over in-process buckets otherwise: the same rules.
const redisUrl = process.env.REDIS_URL
const backend = redisUrl ? 'Redis' : 'in-process'
const stores: BucketStore[] = []
afterAll(async () => {
  for (const store of stores) await store.close()
})

/** A bucket store of its own (a fresh key space), counting its steps. */
function countedStore(): BucketStore & { steps: number } {
  const inner = redisUrl
    ? createRedisBucketStore(
        new Redis(redisUrl, { maxRetriesPerRequest: 2 }),
        `oeuvre:test:rl:${randomBytes(6).toString('hex')}:`,
      )
    : createMemoryBucketStore()
  stores.push(inner)
  const counted = {
    steps: 0,
    take: (...args: Parameters<BucketStore['take']>) => {
      counted.steps += 1
      return inner.take(...args)
    },
    close: () => Promise.resolve(),
  }
  return counted
}

const SESSION: RateTier = TIERS.session

describe(`rate-limit leases (${backend} buckets)`, () => {
  it('takes a 64th of a large burst at once and a single token from the small buckets', () => {
    expect(leaseSize(TIERS.session)).toBe(18)
    expect(leaseSize({ perMinute: 1_000_000, burst: 1_000_000 })).toBe(256)
    expect(leaseSize(TIERS.sandbox)).toBe(1)
    expect(leaseSize(TIERS.anonymous)).toBe(1)
  })

  it('spends exactly the bucket, counting X-RateLimit-Remaining down by one, in a round trip per lease', async () => {
    const clock = new ManualClock()
    const store = countedStore()
    const limiter = createRateLimiter(store, clock, { leases: true })
    const verdicts = []
    for (let i = 0; i < SESSION.burst + 30; i += 1) verdicts.push(await limiter.take('caller', SESSION))
    const admitted = verdicts.filter((v) => v.allowed)
    expect(admitted).toHaveLength(SESSION.burst)
    expect(admitted.map((v) => v.remaining)).toEqual(
      Array.from({ length: SESSION.burst }, (_, i) => SESSION.burst - 1 - i),
    )
    for (const refused of verdicts.slice(SESSION.burst))
      expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1 })
    // 1,200 tokens in leases of 18, then one step per refusal.
    expect(store.steps).toBe(Math.ceil(SESSION.burst / 18) + 30)
  })

  it('shares one lease among a node’s concurrent requests', async () => {
    const clock = new ManualClock()
    const store = countedStore()
    const limiter = createRateLimiter(store, clock, { leases: true })
    const verdicts = await Promise.all(Array.from({ length: 54 }, () => limiter.take('caller', SESSION)))
    expect(verdicts.every((v) => v.allowed)).toBe(true)
    expect(new Set(verdicts.map((v) => v.remaining)).size).toBe(54)
    expect(store.steps).toBe(3)
  })

  it('gives unused tokens back: a caller slower than a lease keeps the whole bucket', async () => {
    const clock = new ManualClock()
    const limiter = createRateLimiter(countedStore(), clock, { leases: true })
    // One request every 1.1 s takes 18 tokens and uses one; without the refund the bucket would drain at 16 tokens/s against a refill of 10.
    let last = await limiter.take('slow', SESSION)
    for (let i = 0; i < 200; i += 1) {
      clock.advance(LEASE_MS + 100)
      last = await limiter.take('slow', SESSION)
      expect(last.allowed).toBe(true)
    }
    expect(last.remaining).toBe(SESSION.burst - 1)
  })

  it('never admits more than the bucket holds across nodes sharing it, however their requests interleave', async () => {
    const tier: RateTier = { perMinute: 600, burst: 640 }
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            node: fc.nat(2),
            burst: fc.integer({ min: 1, max: 40 }),
            pauseMs: fc.constantFrom(0, 0, 50, 400, 1_200),
          }),
          { minLength: 1, maxLength: 60 },
        ),
        async (steps) => {
          const clock = new ManualClock()
          const store = countedStore()
          const nodes = [0, 1, 2].map(() => createRateLimiter(store, clock, { leases: true }))
          const started = clock.now().getTime()
          let admitted = 0
          for (const step of steps) {
            const verdicts = await Promise.all(
              Array.from({ length: step.burst }, () => nodes[step.node]!.take('shared', tier)),
            )
            admitted += verdicts.filter((v) => v.allowed).length
            clock.advance(step.pauseMs)
          }
          const refilled = Math.floor(((clock.now().getTime() - started) * tier.perMinute) / 60_000)
          expect(admitted).toBeLessThanOrEqual(tier.burst + refilled)
        },
      ),
      { numRuns: redisUrl ? 40 : 150 },
    )
  })

  it('leaves the small buckets exact: one step per request', async () => {
    const clock = new ManualClock()
    const store = countedStore()
    const limiter = createRateLimiter(store, clock, { leases: true })
    const verdicts = await Promise.all(Array.from({ length: 125 }, () => limiter.take('sandbox', TIERS.sandbox)))
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(120)
    expect(store.steps).toBe(125)
  })

  it('only looks when the cost is zero (the failure throttles), leases or not', async () => {
    const clock = new ManualClock()
    const store = countedStore()
    const limiter = createRateLimiter(store, clock, { leases: true })
    expect(await limiter.take('look', SESSION, 0)).toMatchObject({ allowed: true, remaining: SESSION.burst })
    expect(await limiter.take('look', SESSION, 0)).toMatchObject({ allowed: true, remaining: SESSION.burst })
  })

  it('settles the node’s lease before a look or a take of several: they see and take the whole bucket', async () => {
    const clock = new ManualClock()
    const limiter = createRateLimiter(countedStore(), clock, { leases: true })
    for (let i = 0; i < 3; i += 1) expect((await limiter.take('caller', SESSION)).allowed).toBe(true)
    const { remaining } = await limiter.take('caller', SESSION, 0)
    expect(remaining).toBe(SESSION.burst - 3)
    expect((await limiter.take('caller', SESSION, remaining)).allowed).toBe(true)
    expect(await limiter.take('caller', SESSION)).toMatchObject({ allowed: false, remaining: 0 })
  })
})
