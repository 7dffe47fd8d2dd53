import { Redis } from 'ioredis'
import type { Config } from './config.js'
import { openDatabase, type Database } from './db/database.js'
import type { Clock } from './platform/clock.js'
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './platform/rate-limit.js'

/** Opens what a process needs from its configuration: the database (migrated) and rate-limit buckets. */
export async function openRuntime(config: Config, clock: Clock): Promise<{ db: Database; limiter: RateLimiter }> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  const limiter = config.redisUrl
    ? createRedisRateLimiter(new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true }), clock)
    : createMemoryRateLimiter(clock)
  return { db, limiter }
}
