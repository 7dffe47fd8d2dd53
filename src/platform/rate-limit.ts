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

export interface RateLimiter {
  /** Takes `cost` tokens when available (cost 0 only looks). */
  take(key: string, tier: RateTier, cost?: number): Promise<BucketVerdict>
  close(): Promise<void>
}

export const TIERS = {
  session: { perMinute: 600, burst: 1200 },
  anonymous: { perMinute: 60, burst: 120 },
  sandbox: { perMinute: 60, burst: 120 },
  production: { perMinute: 600, burst: 1200 },
} as const satisfies Record<string, RateTier>

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

interface Bucket {
  tokens: number
  at: number
}

/** Buckets in this process: right for one node, and the default. */
export function createMemoryRateLimiter(clock: Clock): RateLimiter {
  const buckets = new Map<string, Bucket>()
  let sweepAt = 0

  function sweep(now: number): void {
    // Forget buckets that have refilled completely: they are indistinguishable from new ones.
    if (buckets.size < 50_000 || now < sweepAt) return
    sweepAt = now + 60_000
    for (const [key, bucket] of buckets) if (now - bucket.at > 3_600_000) buckets.delete(key)
  }

  return {
    async take(key, tier, cost = 1) {
      const now = clock.now().getTime()
      const ratePerMs = tier.perMinute / 60_000
      const bucket = buckets.get(key)
      const tokens = bucket ? Math.min(tier.burst, bucket.tokens + (now - bucket.at) * ratePerMs) : tier.burst
      const allowed = tokens >= cost && (cost > 0 || tokens >= 1)
      const left = allowed ? tokens - cost : tokens
      if (cost > 0) buckets.set(key, { tokens: left, at: now })
      sweep(now)
      return verdict(tier, left, allowed, Math.max(cost, 1), now)
    },
    async close() {},
  }
}

// One atomic step in Redis: refill, take, store, expire. KEYS[1] bucket; ARGV now ms, per-minute, burst, cost.
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[2]) / 60000
local burst = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens = burst
if state[1] then
  tokens = math.min(burst, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * rate)
end
local allowed = 0
if tokens >= cost and (cost > 0 or tokens >= 1) then
  allowed = 1
  tokens = tokens - cost
end
if cost > 0 then
  redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate) + 1000)
end
return { allowed, tostring(tokens) }
`

/** Buckets shared by every API node through Redis. */
export function createRedisRateLimiter(redis: Redis, clock: Clock, prefix = 'oeuvre:rl:'): RateLimiter {
  redis.defineCommand('oeuvreTake', { numberOfKeys: 1, lua: TAKE_SCRIPT })
  const run = (redis as unknown as {
    oeuvreTake(key: string, now: number, perMinute: number, burst: number, cost: number): Promise<[number, string]>
  }).oeuvreTake.bind(redis)
  return {
    async take(key, tier, cost = 1) {
      const now = clock.now().getTime()
      const [allowed, tokens] = await run(prefix + key, now, tier.perMinute, tier.burst, cost)
      return verdict(tier, Number(tokens), allowed === 1, Math.max(cost, 1), now)
    },
    async close() {
      redis.disconnect()
    },
  }
}
