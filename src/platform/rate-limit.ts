import type { Redis } from 'ioredis'
import type { Clock } from './clock.js'

export interface RateTier {
  /** Requests per minute: the refill rate, and the X-RateLimit-Limit header. */
  perMinute: number
  /** Bucket capacity. */
  burst: number
}

export interface BucketVerdict {
  allowed: boolean
  limit: number
  /** Whole requests left after this one. */
  remaining: number
  /** Unix seconds at which the bucket is full again. */
  reset: number
  /** Seconds until the next request is admitted (0 when allowed). */
  retryAfter: number
}

/** Where a limiter's buckets are right now (/readyz, /metrics): shared in Redis, or this node's own, and why. */
export interface RateLimitStatus {
  backend: 'redis' | 'local'
  reason: string | null
}

export interface RateLimiter {
  /** Takes `cost` tokens when available (cost 0 only looks). */
  take(key: string, tier: RateTier, cost?: number): Promise<BucketVerdict>
  /** Gives `tokens` taken earlier back to the bucket (never beyond its burst). */
  refund(key: string, tier: RateTier, tokens: number): Promise<void>
  /** Where the buckets are; a limiter without it keeps them in this process. */
  status?(): RateLimitStatus
  close(): Promise<void>
}

export const TIERS = {
  session: { perMinute: 600, burst: 1200 },
  anonymous: { perMinute: 60, burst: 120 },
  sandbox: { perMinute: 60, burst: 120 },
  production: { perMinute: 600, burst: 1200 },
} as const satisfies Record<string, RateTier>

/** The three X-RateLimit-* headers of an answer (docs/surfaces.md; docs/partners.md, "Tiers and limits"). */
export function rateHeaders(verdict: BucketVerdict): Record<string, string> {
  return {
    'x-ratelimit-limit': String(verdict.limit),
    'x-ratelimit-remaining': String(verdict.remaining),
    'x-ratelimit-reset': String(verdict.reset),
  }
}

/** Where a deployment's buckets live in Redis: under its namespace, so deployments sharing a Redis never share one. */
export const redisKeyPrefix = (namespace: string): string => `oeuvre:${namespace}:rl:`

function verdict(tier: RateTier, tokens: number, allowed: boolean, cost: number, nowMs: number): BucketVerdict {
  const ratePerMs = tier.perMinute / 60_000
  const msToFull = (tier.burst - tokens) / ratePerMs
  return {
    allowed,
    limit: Math.round(tier.perMinute),
    remaining: Math.max(0, Math.floor(tokens)),
    reset: Math.ceil((nowMs + msToFull) / 1000),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil((cost - tokens) / ratePerMs / 1000)),
  }
}

/**
 * Where buckets live. One step takes `cost` tokens when there are that many; for a take of
 * one, up to `want` tokens at once (a lease) when the bucket holds them. `refund` tokens
 * (leased earlier, never used) go back first, never beyond the burst. Cost 0 only looks.
 */
export interface BucketStore {
  take(
    key: string,
    tier: RateTier,
    nowMs: number,
    cost: number,
    want: number,
    refund: number,
  ): Promise<{ allowed: boolean; tokens: number; granted: number }>
  close(): Promise<void>
}

interface Bucket {
  tokens: number
  at: number
}

/** Buckets in this process. */
export function createMemoryBucketStore(): BucketStore {
  const buckets = new Map<string, Bucket>()
  let sweepAt = 0

  function sweep(now: number): void {
    // Forget buckets that have refilled completely: they are indistinguishable from new ones.
    if (buckets.size < 50_000 || now < sweepAt) return
    sweepAt = now + 60_000
    for (const [key, bucket] of buckets) if (now - bucket.at > 3_600_000) buckets.delete(key)
  }

  return {
    async take(key, tier, now, cost, want, refund) {
      const ratePerMs = tier.perMinute / 60_000
      const bucket = buckets.get(key)
      let tokens = bucket ? Math.min(tier.burst, bucket.tokens + (now - bucket.at) * ratePerMs) : tier.burst
      tokens = Math.min(tier.burst, tokens + refund)
      let granted = 0
      if (tokens >= cost && (cost > 0 || tokens >= 1)) {
        granted = cost === 1 && want > 1 ? Math.min(want, Math.floor(tokens)) : cost
        tokens -= granted
      }
      if (cost > 0 || refund > 0) buckets.set(key, { tokens, at: now })
      sweep(now)
      return { allowed: granted > 0 || (cost === 0 && tokens >= 1), tokens, granted }
    },
    async close() {},
  }
}

// One atomic step in Redis: refill, refund, take, store, expire. KEYS[1] bucket; ARGV now ms, per-minute, burst, cost, want, refund.
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2]) / 60000
local burst = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local want = tonumber(ARGV[5])
local refund = tonumber(ARGV[6])
local state = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens = burst
if state[1] then
  tokens = math.min(burst, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * rate)
end
tokens = math.min(burst, tokens + refund)
local granted = 0
if tokens >= cost and (cost > 0 or tokens >= 1) then
  granted = cost
  if cost == 1 and want > 1 then
    granted = math.min(want, math.floor(tokens))
  end
  tokens = tokens - granted
end
if cost > 0 or refund > 0 then
  redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate) + 1000)
end
local allowed = 0
if granted > 0 or (cost == 0 and tokens >= 1) then
  allowed = 1
end
return { allowed, tostring(tokens), granted }
`

/** Buckets in Redis, shared by every API node. */
export function createRedisBucketStore(redis: Redis, prefix: string): BucketStore {
  redis.defineCommand('oeuvreTake', { numberOfKeys: 1, lua: TAKE_SCRIPT })
  const run = (
    redis as unknown as {
      oeuvreTake(
        key: string,
        now: number,
        perMinute: number,
        burst: number,
        cost: number,
        want: number,
        refund: number,
      ): Promise<[number, string, number]>
    }
  ).oeuvreTake.bind(redis)
  return {
    async take(key, tier, now, cost, want, refund) {
      const [allowed, tokens, granted] = await run(prefix + key, now, tier.perMinute, tier.burst, cost, want, refund)
      return { allowed: allowed === 1, tokens: Number(tokens), granted }
    },
    async close() {
      redis.disconnect()
    },
  }
}

/** How long this node keeps the unused tokens of a lease before they go back to the shared bucket. */
export const LEASE_MS = 1_000

/**
 * Tokens a node takes from a shared bucket at once: a 64th of its burst, at most 256. The
 * small buckets (sandbox and anonymous, burst 120; the login and token failure throttles)
 * take one at a time, so they stay exact across nodes.
 */
export function leaseSize(tier: RateTier): number {
  return Math.max(1, Math.min(256, Math.floor(tier.burst / 64)))
}

interface Lease {
  /** Tokens taken from the bucket and not used yet. */
  unused: number
  /** What the bucket held just after they were taken. */
  bucketAfter: number
  until: number
}

/**
 * A rate limiter over a bucket store. With `leases`, a node takes a lease of tokens from the
 * shared bucket in one step and spends it locally for up to LEASE_MS, then gives back what it
 * did not use with its next step for that bucket: one Redis round trip per lease instead of
 * per request. A token is never spent twice (it left the bucket before it was spent), so the
 * limit holds across nodes exactly as before; what a lease changes is that tokens one node
 * holds are not available to another for up to a second (at most a 64th of the burst), and
 * X-RateLimit-Remaining counts the bucket plus this node's own unused tokens (exact on one node).
 */
export function createRateLimiter(store: BucketStore, clock: Clock, options: { leases: boolean }): RateLimiter {
  const leases = new Map<string, Lease>()
  const leasing = new Map<string, Promise<unknown>>()
  let sweepAt = 0

  function sweep(now: number): void {
    // Unused tokens of long-gone leases are not worth a round trip: the bucket has refilled since.
    if (leases.size < 10_000 || now < sweepAt) return
    sweepAt = now + 60_000
    for (const [key, lease] of leases) if (now - lease.until > 60_000) leases.delete(key)
  }

  async function takeOne(key: string, tier: RateTier, want: number): Promise<BucketVerdict> {
    for (;;) {
      const now = clock.now().getTime()
      const lease = leases.get(key)
      if (lease && lease.unused >= 1 && now < lease.until) {
        lease.unused -= 1
        return verdict(tier, lease.bucketAfter + lease.unused, true, 1, now)
      }
      const inFlight = leasing.get(key)
      if (inFlight) {
        // Another request of this node is taking a lease for the bucket: share it.
        await inFlight
        continue
      }
      const refund = lease ? lease.unused : 0
      leases.delete(key)
      const step = store.take(key, tier, now, 1, want, refund)
      leasing.set(key, step)
      try {
        const { allowed, tokens, granted } = await step
        if (!allowed) return verdict(tier, tokens, false, 1, now)
        leases.set(key, { unused: granted - 1, bucketAfter: tokens, until: now + LEASE_MS })
        sweep(now)
        return verdict(tier, tokens + granted - 1, true, 1, now)
      } finally {
        leasing.delete(key)
      }
    }
  }

  return {
    async take(key, tier, cost = 1) {
      const want = options.leases ? leaseSize(tier) : 1
      if (cost === 1 && want > 1) return takeOne(key, tier, want)
      const now = clock.now().getTime()
      // A look or a take of several settles this node's lease of the bucket first: what it sees or takes is all there is.
      const lease = leases.get(key)
      leases.delete(key)
      const { allowed, tokens } = await store.take(key, tier, now, cost, 1, lease ? lease.unused : 0)
      return verdict(tier, tokens, allowed, Math.max(cost, 1), now)
    },
    async refund(key, tier, tokens) {
      const lease = leases.get(key)
      leases.delete(key)
      await store.take(key, tier, clock.now().getTime(), 0, 1, tokens + (lease ? lease.unused : 0))
    },
    close: () => store.close(),
  }
}

/** Buckets in this process: right for one node, and the default. */
export function createMemoryRateLimiter(clock: Clock): RateLimiter {
  return {
    ...createRateLimiter(createMemoryBucketStore(), clock, { leases: false }),
    status: () => ({ backend: 'local', reason: 'REDIS_URL is not set' }),
  }
}

/** Buckets shared by every API node through Redis, taken in leases; every key starts with `prefix`. */
export function createRedisRateLimiter(redis: Redis, clock: Clock, prefix: string): RateLimiter {
  return createRateLimiter(createRedisBucketStore(redis, prefix), clock, { leases: true })
}
