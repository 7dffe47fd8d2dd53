import { sql } from 'kysely'
import type { Config } from './config.js'
import { openDatabase, type Database } from './database.js'
import type { Clock } from './platform/clock.js'
import { createRedisBackedRateLimiter, type RateLimitLog } from './platform/rate-limit-fallback.js'
import { createMemoryRateLimiter, type RateLimiter } from './platform/rate-limit.js'

/** The random id the deployment's database was given when it was made (migration 0018). */
export async function deploymentId(db: Database): Promise<string> {
  const { rows } = await sql<{ id: string }>`select id from deployment`.execute(db.global)
  if (!rows[0]) throw new Error('the database has no deployment id: are its migrations applied?')
  return rows[0].id
}

/**
 * The namespace of this deployment's Redis keys: REDIS_NAMESPACE, or the database's deployment
 * id, so every node on one database shares its buckets and deployments sharing a Redis never do.
 */
export async function redisNamespace(config: Config, db: Database): Promise<string> {
  return config.redisNamespace ?? (await deploymentId(db))
}

/** Opens what a process needs from its configuration: the database (migrated) and rate-limit buckets. */
export async function openRuntime(
  config: Config,
  clock: Clock,
  log: RateLimitLog,
): Promise<{ db: Database; limiter: RateLimiter }> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  const limiter = config.redisUrl
    ? createRedisBackedRateLimiter(config.redisUrl, await redisNamespace(config, db), clock, log)
    : createMemoryRateLimiter(clock)
  return { db, limiter }
}
