import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'
import { openDatabase, type Database } from '../src/database.js'
import { ManualClock } from '../src/platform/clock.js'
import { createRedisBackedRateLimiter, type RateLimitLog } from '../src/platform/rate-limit-fallback.js'
import { TIERS, type RateLimiter } from '../src/platform/rate-limit.js'
import { deploymentId, redisNamespace } from '../src/runtime.js'
import { ownDatabase, PrivateRedis, type Cleanups } from './drill-helpers.js'
import { eventually } from './eventually.js'
import { openTestDatabase } from './helpers.js'

/**
 * Deployments that share one Redis never share a rate-limit bucket: each one's keys are under
 * its namespace, by default the id its database was made with. On the suite's Redis when
 * REDIS_URL is set, else on a private redis-server.
 */

const cleanups: Cleanups = []
const silent: RateLimitLog = { warn: () => undefined, info: () => undefined, debug: () => undefined }
const clock = new ManualClock()
let redisUrl: string
let redis: Redis
let suiteDb: Database
let otherDb: Database

/** A database of another deployment: made and migrated from nothing. */
async function anotherDeploymentsDatabase(): Promise<Database> {
  const serverUrl = process.env.DATABASE_URL
  if (process.env.OEUVRE_TEST_DATABASE_URL && serverUrl)
    return openDatabase({ databaseUrl: await ownDatabase(serverUrl, cleanups), dataDir: 'memory://', poolSize: 2 })
  return openDatabase({ databaseUrl: null, dataDir: 'memory://' })
}

beforeAll(async () => {
  if (process.env.REDIS_URL) redisUrl = process.env.REDIS_URL
  else {
    const server = await PrivateRedis.create()
    cleanups.push(() => server.kill())
    redisUrl = server.url
  }
  redis = new Redis(redisUrl)
  suiteDb = await openTestDatabase()
  otherDb = await anotherDeploymentsDatabase()
}, 60_000)
afterAll(async () => {
  redis.disconnect()
  await otherDb?.close()
  await suiteDb?.close()
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
})

/** A node's limiter in `namespace`, once its Redis client is connected (until then it uses its own buckets). */
async function limiterFor(namespace: string): Promise<RateLimiter> {
  const limiter = createRedisBackedRateLimiter(redisUrl, namespace, clock, silent)
  cleanups.push(() => limiter.close())
  await eventually(async () => {
    await limiter.take('warm-up', TIERS.anonymous, 0)
    return limiter.status?.().backend === 'redis'
  }, 'the limiter to use Redis')
  return limiter
}

/** Empties `key`'s bucket (the unauthenticated tier: 120) through `limiter`; the last take is refused. */
async function drain(limiter: RateLimiter, key: string): Promise<boolean[]> {
  const allowed = []
  for (let n = 0; n <= TIERS.anonymous.burst; n += 1) allowed.push((await limiter.take(key, TIERS.anonymous)).allowed)
  return allowed
}

describe('Redis keys per deployment', () => {
  it('two limiters with different namespaces on one Redis do not share a bucket; the same namespace does', async () => {
    const suffix = randomBytes(4).toString('hex')
    const key = 'ip:198.51.100.1'
    const first = await limiterFor(`first-${suffix}`)
    const second = await limiterFor(`second-${suffix}`)
    const firstAgain = await limiterFor(`first-${suffix}`)

    const drained = await drain(first, key)
    expect(drained.filter(Boolean)).toHaveLength(120)
    expect(drained.at(-1)).toBe(false)
    // The other deployment's bucket of the same name is full.
    const other = await second.take(key, TIERS.anonymous)
    expect(other).toMatchObject({ allowed: true, remaining: 119 })
    // Another node of the first deployment sees the first one's bucket empty.
    expect((await firstAgain.take(key, TIERS.anonymous)).allowed).toBe(false)

    expect(await redis.keys(`oeuvre:first-${suffix}:rl:*`)).toEqual([`oeuvre:first-${suffix}:rl:${key}`])
    expect(await redis.keys(`oeuvre:second-${suffix}:rl:*`)).toEqual([`oeuvre:second-${suffix}:rl:${key}`])
  })

  it('takes the namespace from the database by default: one per database, the same for every node on it', async () => {
    const config = loadConfig({})
    const ours = await redisNamespace(config, suiteDb)
    const theirs = await redisNamespace(config, otherDb)
    expect(ours).toMatch(/^[0-9a-f]{32}$/)
    expect(theirs).toMatch(/^[0-9a-f]{32}$/)
    expect(theirs).not.toBe(ours)
    expect(await deploymentId(suiteDb)).toBe(ours)

    const key = `ip:198.51.100.${randomBytes(1)[0]}`
    await redis.del(`oeuvre:${ours}:rl:${key}`, `oeuvre:${theirs}:rl:${key}`)
    const node = await limiterFor(ours)
    const sameDeployment = await limiterFor(await redisNamespace(config, suiteDb))
    const otherDeployment = await limiterFor(theirs)
    expect((await drain(node, key)).at(-1)).toBe(false)
    expect((await sameDeployment.take(key, TIERS.anonymous)).allowed).toBe(false)
    expect(await otherDeployment.take(key, TIERS.anonymous)).toMatchObject({ allowed: true, remaining: 119 })
    await redis.del(`oeuvre:${ours}:rl:${key}`, `oeuvre:${theirs}:rl:${key}`)
  })

  it('uses REDIS_NAMESPACE instead when it is set', async () => {
    expect(await redisNamespace(loadConfig({ REDIS_NAMESPACE: 'eu-west.staging' }), suiteDb)).toBe('eu-west.staging')
  })
})
