import { Redis } from 'ioredis'
import type { BaseLogger } from 'pino'
import type { Clock } from './clock.js'
import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  redisKeyPrefix,
  type BucketVerdict,
  type RateLimiter,
  type RateLimitStatus,
  type RateTier,
} from './rate-limit.js'

/** What the fallback logs: transitions at warn and info, Redis' own errors during an outage at debug. */
export type RateLimitLog = Pick<BaseLogger, 'warn' | 'info' | 'debug'>

/** How long a request waits for Redis before the limiter answers it from this node's buckets. */
export const REDIS_ANSWER_MS = 250
/** When the Redis client itself gives up on a command (one still pending is memory held while Redis is frozen). */
const REDIS_COMMAND_TIMEOUT_MS = 1_000

/**
 * `work`, or a rejection once `ms` have passed and the event loop has since been free to read an
 * answer: after a busy stretch (a long synchronous task) timers run before pending socket reads,
 * and a plain timer would call an answer that is already there late (a false fallback).
 */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false
    const settle = (finish: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      finish()
    }
    const timer = setTimeout(() => {
      setImmediate(() => settle(() => reject(new Error(`Redis did not answer within ${ms} ms`))))
    }, ms)
    work.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    )
  })
}
/** How often a node on its own buckets checks whether Redis answers again. */
export const REDIS_PROBE_MS = 1_000

/**
 * A limiter that uses `shared` (Redis) while it answers and `local` (this node's buckets, same
 * tiers) from the first failure on, until `probe` succeeds again: a Redis outage costs at most
 * one command timeout per request in flight, never an error. Each transition is logged once.
 */
export function createFallbackRateLimiter(options: {
  shared: RateLimiter
  local: RateLimiter
  /** Resolves when Redis answers. */
  probe(): Promise<unknown>
  log: RateLimitLog
  probeEveryMs?: number
  answerMs?: number
}): RateLimiter & { fallBack(reason: string): void; recover(): void } {
  const answerMs = options.answerMs ?? REDIS_ANSWER_MS
  const { shared, local, log } = options
  let status: RateLimitStatus = { backend: 'redis', reason: null }
  let probing: NodeJS.Timeout | undefined
  let closed = false

  const fallBack = (reason: string) => {
    if (status.backend === 'local' || closed) return
    status = { backend: 'local', reason: `Redis unavailable: ${reason}` }
    log.warn(
      { rateLimitBackend: 'local', reason },
      'rate limits fall back to this node’s buckets: Redis is unavailable',
    )
    probing = setInterval(() => {
      within(options.probe(), answerMs).then(recover, () => undefined)
    }, options.probeEveryMs ?? REDIS_PROBE_MS)
    probing.unref()
  }
  const recover = () => {
    if (status.backend === 'redis' || closed) return
    clearInterval(probing)
    status = { backend: 'redis', reason: null }
    log.info({ rateLimitBackend: 'redis' }, 'rate limits use Redis again')
  }

  return {
    async take(key: string, tier: RateTier, cost?: number): Promise<BucketVerdict> {
      if (status.backend === 'redis') {
        try {
          return await within(shared.take(key, tier, cost), answerMs)
        } catch (error) {
          fallBack(error instanceof Error ? error.message : String(error))
        }
      }
      return local.take(key, tier, cost)
    },
    async refund(key: string, tier: RateTier, tokens: number): Promise<void> {
      if (status.backend === 'redis') {
        try {
          return await within(shared.refund(key, tier, tokens), answerMs)
        } catch (error) {
          fallBack(error instanceof Error ? error.message : String(error))
        }
      }
      return local.refund(key, tier, tokens)
    },
    status: () => status,
    fallBack,
    recover,
    async close() {
      closed = true
      clearInterval(probing)
      await Promise.all([shared.close(), local.close()])
    },
  }
}

/**
 * Rate limits over Redis at `url`, its keys under the deployment's `namespace`, falling back to
 * this node's buckets while Redis is away. The client never queues a command while disconnected
 * (it fails at once), gives up on a command after REDIS_COMMAND_TIMEOUT_MS (a request stops
 * waiting after REDIS_ANSWER_MS), and reconnects in the background; its errors go to the log.
 */
export function createRedisBackedRateLimiter(
  url: string,
  namespace: string,
  clock: Clock,
  log: RateLimitLog,
): RateLimiter {
  const redis = new Redis(url, {
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 1_000,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  })
  const limiter = createFallbackRateLimiter({
    shared: createRedisRateLimiter(redis, clock, redisKeyPrefix(namespace)),
    local: createMemoryRateLimiter(clock),
    probe: () => redis.ping(),
    log,
  })
  // Heard, so ioredis does not print them to stderr; a dropped connection is a transition, the retries after it are noise.
  redis.on('error', (error: Error) => {
    if (limiter.status?.().backend === 'redis') limiter.fallBack(error.message)
    else log.debug({ err: error }, 'Redis still unavailable')
  })
  redis.on('ready', () => {
    within(redis.ping(), REDIS_ANSWER_MS).then(limiter.recover, () => undefined)
  })
  return limiter
}
