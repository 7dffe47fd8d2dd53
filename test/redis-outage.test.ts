import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import {
  LoadRecord,
  owner,
  ownDatabase,
  PrivateRedis,
  request,
  serveOn,
  type Answer,
  type Cleanups,
} from './drill-helpers.js'
import { eventually } from './eventually.js'

/**
 * A Redis outage drill against a real `oeuvre serve` child, under load over real sockets: Redis
 * is killed and started again, then frozen (SIGSTOP) and thawed. Rate limits must fall back to
 * the node's own buckets at once (no 500, X-RateLimit-* on every answer, requests sent while
 * Redis is away answered while it is still away, however slow the machine), say so in /readyz and
 * /metrics and the log (once per transition), and use Redis again once it answers. On the suite's database: PostgreSQL when set, PGlite otherwise.
 */

const cleanups: Cleanups = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
})

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Readiness {
  status: string
  rateLimit: { backend: 'redis' | 'local'; reason: string | null }
}

/** Checks one rate-limited answer: never a 5xx, always the three X-RateLimit-* headers. */
function check(record: LoadRecord, what: string, answer: Answer, expected: number[]): void {
  record.count(answer)
  if (!expected.includes(answer.status) && answer.status !== 429)
    record.violations.push(`${what}: ${answer.status} ${answer.body.slice(0, 200)}`)
  for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    if (!/^\d+$/.test(answer.headers.get(header) ?? ''))
      record.violations.push(`${what}: ${answer.status} without ${header}`)
}

async function backendMetric(base: string): Promise<Record<string, number>> {
  const text = (await request(`${base}/metrics`)).body
  const values: Record<string, number> = {}
  for (const match of text.matchAll(/^oeuvre_rate_limit_backend\{backend="(\w+)"\} (\d+)$/gm))
    values[match[1]!] = Number(match[2])
  return values
}

describe('a Redis outage', () => {
  it('falls back to the node’s own buckets at once, says so, and uses Redis again once it is back', async () => {
    const redis = await PrivateRedis.create()
    cleanups.push(() => redis.kill())
    const serverUrl = process.env.DATABASE_URL
    const databaseUrl = process.env.OEUVRE_TEST_DATABASE_URL && serverUrl ? await ownDatabase(serverUrl, cleanups) : ''
    const server = await serveOn(databaseUrl, { REDIS_URL: redis.url, LOG_LEVEL: 'info' }, cleanups)
    const base = server.url
    const accounts = await Promise.all([0, 1, 2].map((i) => owner(base, `redis${i}`)))
    const client = await request(`${base}/api/clients`, {
      method: 'POST',
      token: accounts[0]!.token,
      body: { name: 'drill', scopes: ['events:read'] },
    })
    expect(client.status, client.body).toBe(201)
    const credentials = JSON.parse(client.body) as { id: string; secret: string }
    const probe = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 })
    // The test's own client: its reconnect errors while Redis is down are expected, and not worth a line.
    probe.on('error', () => undefined)
    cleanups.push(async () => probe.disconnect())

    const ready = async () => JSON.parse((await request(`${base}/readyz`)).body) as Readiness
    expect((await ready()).rateLimit).toEqual({ backend: 'redis', reason: null })

    const record = new LoadRecord()
    let running = true
    const token = (secret: string) =>
      request(`${base}/oauth/token`, {
        method: 'POST',
        form: {
          grant_type: 'client_credentials',
          scope: 'events:read',
          client_id: credentials.id,
          client_secret: secret,
        },
      })
    const loops = [
      ...accounts.map(async (account) => {
        while (running) {
          check(
            record,
            'GET /api/creators',
            await request(`${base}/api/creators?limit=5`, { token: account.token }),
            [200],
          )
          await pause(20)
        }
      }),
      (async () => {
        while (running) {
          // A valid exchange and a failed one: the token endpoint's own throttles use the limiter too.
          check(record, 'token', await token(credentials.secret), [200])
          check(record, 'token (wrong secret)', await token('cs_test_wrong'), [401])
          await pause(200)
        }
      })(),
    ]
    try {
      await pause(1_500)
      await probe.connect()
      expect(await probe.dbsize()).toBeGreaterThan(0)

      // Killed: the next requests already answer from local buckets.
      const killedAt = Date.now()
      await redis.kill()
      await eventually(async () => (await ready()).rateLimit.backend === 'local', 'the fallback in /readyz', {
        timeoutMs: 30_000,
        everyMs: 50,
      })
      const fallbackMs = Date.now() - killedAt
      const down = await request(`${base}/readyz`)
      expect(down.status).toBe(200)
      expect((JSON.parse(down.body) as Readiness).rateLimit.reason).toMatch(/Redis unavailable/)
      expect(await backendMetric(base)).toEqual({ redis: 0, local: 1 })
      // Answers to requests sent after the kill, while Redis is still down: nothing waits for it to come back.
      await eventually(() => record.answeredSince(killedAt) >= 30, 'answers while Redis is down', { timeoutMs: 60_000 })

      // Back on the same port, empty: the limiter uses it again, and its buckets appear in it.
      const restartedAt = Date.now()
      await redis.start()
      await eventually(async () => (await ready()).rateLimit.backend === 'redis', 'Redis in use again', {
        timeoutMs: 60_000,
        everyMs: 50,
      })
      const recoveryMs = Date.now() - restartedAt
      expect(await backendMetric(base)).toEqual({ redis: 1, local: 0 })
      await eventually(async () => (await probe.dbsize()) > 0, 'a bucket in the restarted Redis', { timeoutMs: 5_000 })

      // Frozen (SIGSTOP): commands time out instead of failing; the limiter must not wait for them.
      const frozenAt = Date.now()
      const frozen = redis.freeze()
      await eventually(async () => (await ready()).rateLimit.backend === 'local', 'the fallback from a frozen Redis', {
        timeoutMs: 30_000,
        everyMs: 50,
      })
      await eventually(() => record.answeredSince(frozenAt) >= 30, 'answers while Redis is frozen', {
        timeoutMs: 60_000,
      })
      frozen.thaw()
      await eventually(async () => (await ready()).rateLimit.backend === 'redis', 'Redis in use after the thaw', {
        timeoutMs: 60_000,
        everyMs: 50,
      })
      await pause(1_000)
      running = false
      await Promise.all(loops)

      expect(server.alive(), server.output()).toBe(true)
      expect(record.violations).toEqual([])
      const logged = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg?: string })
      expect(logged.filter((line) => line.msg?.includes('fall back')).length).toBe(2)
      expect(logged.filter((line) => line.msg?.includes('use Redis again')).length).toBe(2)
      expect(server.output()).not.toContain('[ioredis]')
      console.info(
        `Redis drill: ${record.total} answers (${[...record.statuses].map(([status, count]) => `${status}: ${count}`).join(', ')}), slowest ${Math.round(record.maxMs)} ms, fallback after ${fallbackMs} ms, Redis again ${recoveryMs} ms after its restart`,
      )
    } finally {
      running = false
      await Promise.allSettled(loops)
    }
  }, 240_000)
})
