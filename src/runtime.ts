import type { Config } from './config.js'
import { openDatabase, type Database } from './database.js'
import type { Clock } from './platform/clock.js'
import { createRedisBackedRateLimiter, type RateLimitLog } from './platform/rate-limit-fallback.js'
import { createMemoryRateLimiter, type RateLimiter } from './platform/rate-limit.js'

/** Opens what a process needs from its configuration: the database (migrated) and rate-limit buckets. */
export async function openRuntime(
  config: Config,
  clock: Clock,
  log: RateLimitLog,
): Promise<{ db: Database; limiter: RateLimiter }> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  const limiter = config.redisUrl
    ? createRedisBackedRateLimiter(config.redisUrl, clock, log)
    : createMemoryRateLimiter(clock)
  return { db, limiter }
}
