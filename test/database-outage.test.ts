import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { isConnectionLoss } from '../src/db/connection-loss.js'
import { migrate } from '../src/db/migrate.js'
import { createPgBackend } from '../src/db/sql-backend.js'
import {
  LoadRecord,
  ownDatabase,
  serveOn,
  owner,
  PrivatePostgres,
  request,
  unavailableProblems,
  type Answer,
} from './drill-helpers.js'
import { eventually } from './eventually.js'
import { Receiver } from './webhook-helpers.js'

/**
 * Fault drills against a real `oeuvre serve` child under load over real sockets: PostgreSQL
 * drops the connections in use (pg_terminate_backend), and PostgreSQL stops and starts again.
 * The process must stay up, answer 503 service_unavailable with Retry-After while the database
 * is unreachable (never 500), and recover by itself; no write may be lost or duplicated.
 */

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
})

describe('connection loss', () => {
  it('is recognised by SQLSTATE, socket error code and pg message, and nothing else is', () => {
    const lost = [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('terminating connection due to crash of another server process'), { code: '57P02' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('could not connect'), { code: '08001' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
      new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], ''),
    ]
    for (const error of lost) expect(isConnectionLoss(error), error.message).toBe(true)
    const notLost = [
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      Object.assign(new Error('could not serialize access'), { code: '40001' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      new Error('Something else entirely'),
      new TypeError('x is not a function'),
      null,
      'a string',
    ]
    for (const error of notLost) expect(isConnectionLoss(error), String(error)).toBe(false)
  })
})

const serverUrl = process.env.DATABASE_URL
const serve = (databaseUrl: string, env: Record<string, string> = {}) => serveOn(databaseUrl, env, cleanups)

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Classifies one answer of the load; true when the request is done (a write: created, or replayed). */
function settle(record: LoadRecord, what: string, answer: Answer, done: number[]): boolean {
  record.count(answer)
  if (done.includes(answer.status)) return true
  if (answer.status === 503) {
    const problems = unavailableProblems(answer)
    if (problems.length > 0) record.violations.push(`${what}: 503 with ${problems.join(', ')}`)
    if (answer.headers.get('idempotent-replayed')) record.violations.push(`${what}: a 503 was stored and replayed`)
    return false
  }
  // The same key while its first attempt's claim is still held (or its fate unknown, until its lease ends).
  if (answer.status === 409 && answer.body.includes('idempotency_key_in_use')) return false
  if (answer.status === 429) return false
  record.violations.push(`${what}: ${answer.status} ${answer.body.slice(0, 300)}`)
  return true
}

interface Writer {
  alive(): boolean
  base: string
  token: string
  label: string
}

/**
 * Load of one account: a list read, then a create under an Idempotency-Key retried until it is
 * created or replayed; paced so that the session's rate limit (600/min, burst 1,200) never bites.
 */
async function account(writer: Writer, record: LoadRecord, running: () => boolean, created: Set<string>) {
  // A dead server ends the load at once (the test then fails on it), instead of retrying for minutes.
  let n = 0
  while (running() && writer.alive()) {
    try {
      const read = await request(`${writer.base}/api/creators?limit=5`, { token: writer.token })
      settle(record, 'GET /api/creators', read, [200])
    } catch (error) {
      record.violations.push(`GET: ${String(error)}`)
    }
    n += 1
    const key = `${writer.label}-${n}`
    const deadline = Date.now() + 120_000
    for (;;) {
      try {
        const answer = await request(`${writer.base}/api/creators`, {
          method: 'POST',
          token: writer.token,
          headers: { 'idempotency-key': key },
          body: { name: key, kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
        })
        if (settle(record, `POST ${key}`, answer, [201])) break
      } catch (error) {
        record.violations.push(`POST ${key}: ${String(error)}`)
      }
      if (Date.now() > deadline || !writer.alive()) {
        record.violations.push(`POST ${key}: never created`)
        break
      }
      // As a client would: again shortly (a key whose first attempt's fate is unknown answers 409 until its lease ends).
      await pause(250)
    }
    created.add(key)
    await pause(25)
  }
}

function summary(label: string, record: LoadRecord, extra: Record<string, unknown>): void {
  console.info(
    `${label}: ${record.total} answers (${[...record.statuses].map(([status, count]) => `${status}: ${count}`).join(', ')}), slowest ${Math.round(record.maxMs)} ms, ${JSON.stringify(extra)}`,
  )
}

if (serverUrl && process.env.OEUVRE_TEST_DATABASE_URL) {
  // A server's connections can be dropped, and a server stopped; PGlite's in-process connection cannot.
  describe('PostgreSQL drops connections in use', () => {
    it('a checked-out connection whose backend is terminated while idle is heard (no uncaught error), discarded at release and replaced', async () => {
      const backend = createPgBackend(await ownDatabase(serverUrl!, cleanups), { max: 1 })
      cleanups.push(() => backend.end())
      await migrate(backend)
      // As the webhook worker's lease session: checked out, holding a lock, no query running.
      const session = await backend.acquire()
      const pid = (await session.query('select pg_backend_pid() as pid', [])).rows[0]!.pid as number
      const admin = new pg.Client({ connectionString: serverUrl })
      await admin.connect()
      await admin.query('select pg_terminate_backend($1)', [pid])
      await admin.end()
      await expect(session.query('select 1', [])).rejects.toSatisfy(isConnectionLoss)
      session.release()
      // The pool's one connection is a new one (the broken one was not handed out again).
      const next = await backend.acquire()
      try {
        const row = (await next.query('select pg_backend_pid() as pid, current_user as role', [])).rows[0]!
        expect(row.pid).not.toBe(pid)
        expect(row.role).toBe('oeuvre_app')
      } finally {
        next.release()
      }
    })

    it('keeps serving under load while every backend of its database is terminated, again and again; nothing lost or duplicated', async () => {
      const databaseUrl = await ownDatabase(serverUrl!, cleanups)
      const server = await serve(databaseUrl)
      const writers: Writer[] = []
      for (let i = 0; i < 6; i += 1)
        writers.push({
          alive: server.alive,
          base: server.url,
          label: `drill${i}`,
          ...(await owner(server.url, `drill${i}`)),
        })

      const admin = new pg.Client({ connectionString: serverUrl })
      await admin.connect()
      cleanups.push(() => admin.end())
      const database = new URL(databaseUrl).pathname.slice(1)
      const record = new LoadRecord()
      const created = new Set<string>()
      let running = true
      const load = Promise.all(writers.map((writer) => account(writer, record, () => running, created)))
      const terminations: number[] = []
      let terminated = 0
      for (let round = 0; round < 6; round += 1) {
        await pause(2_000)
        terminations.push(Date.now())
        const result = await admin.query(
          'select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()) t',
          [database],
        )
        terminated += (result.rows[0] as { n: number }).n
        // The load recovers by itself (no restart), before the next termination: however long the machine takes.
        const at = terminations.at(-1)!
        await eventually(() => record.recoveredAfter(at) !== null, 'a success after the termination', {
          timeoutMs: 60_000,
        })
      }
      await pause(2_000)
      running = false
      await load

      expect(server.alive(), server.output()).toBe(true)
      expect(record.violations).toEqual([])
      expect(terminated).toBeGreaterThanOrEqual(6)
      const recovery = terminations.map((at) => record.recoveredAfter(at))
      for (const ms of recovery) expect(ms).not.toBeNull()
      console.info(`recovered after each termination in ${recovery.join(', ')} ms`)
      expect((await request(`${server.url}/readyz`)).status).toBe(200)

      // Every key created exactly once: count the rows as the superuser (no RLS).
      const drill = new pg.Client({ connectionString: databaseUrl })
      await drill.connect()
      try {
        const rows = (
          await drill.query<{ name: string; n: number }>(
            `select name, count(*)::int as n from creators where name like 'drill%' group by name`,
          )
        ).rows
        expect(rows.filter((row) => row.n !== 1)).toEqual([])
        expect(new Set(rows.map((row) => row.name))).toEqual(created)
      } finally {
        await drill.end()
      }
      summary('pg_terminate_backend drill', record, {
        backendsTerminated: terminated,
        rounds: terminations.length,
        created: created.size,
        recoveryMs: recovery,
      })
    }, 240_000)
  })

  describe('PostgreSQL stops and starts again', () => {
    it('answers 503 with Retry-After while it is down, /readyz too, and recovers without a restart, the worker included', async () => {
      // PostgreSQL will not run as root: as root (CI's PostgreSQL phase) the cluster is run by the postgres user (runuser).
      const cluster = await PrivatePostgres.create()
      cleanups.push(() => cluster.destroy())
      const receiver = await Receiver.start()
      cleanups.push(() => receiver.close())
      const server = await serve(cluster.url, { WEBHOOKS_ALLOW_LOOPBACK: 'true' })
      const writers: Writer[] = []
      for (let i = 0; i < 3; i += 1)
        writers.push({
          alive: server.alive,
          base: server.url,
          label: `drill${i}`,
          ...(await owner(server.url, `drill${i}`)),
        })
      const hook = await request(`${server.url}/api/webhooks`, {
        method: 'POST',
        token: writers[0]!.token,
        body: { url: receiver.url(), events: ['creator.created'] },
      })
      expect(hook.status, hook.body).toBe(201)
      const client = await request(`${server.url}/api/clients`, {
        method: 'POST',
        token: writers[0]!.token,
        body: { name: 'drill', scopes: ['events:read'] },
      })
      expect(client.status, client.body).toBe(201)
      const { id: clientId, secret } = JSON.parse(client.body) as { id: string; secret: string }

      const record = new LoadRecord()
      const created = new Set<string>()
      let running = true
      const load = Promise.all(writers.map((writer) => account(writer, record, () => running, created)))
      await pause(2_000)
      const stoppedAt = Date.now()
      await cluster.stop()
      // While it is down: what the load sees, and /readyz.
      await eventually(() => record.timeline.some((entry) => entry.at > stoppedAt && !entry.ok), 'a 503 while down', {
        timeoutMs: 10_000,
      })
      const ready = await request(`${server.url}/readyz`)
      expect(ready.status).toBe(503)
      expect(unavailableProblems(ready)).toEqual([])
      // The token endpoint answers in its own (RFC 6749) form, with the same status and Retry-After.
      const exchange = await request(`${server.url}/oauth/token`, {
        method: 'POST',
        form: { grant_type: 'client_credentials', scope: 'events:read', client_id: clientId, client_secret: secret },
      })
      expect(exchange.status).toBe(503)
      expect(exchange.headers.get('retry-after')).toBe('2')
      expect(JSON.parse(exchange.body)).toMatchObject({ error: 'temporarily_unavailable' })
      await pause(2_000)
      const startedAt = Date.now()
      await cluster.start()
      await eventually(
        () => record.timeline.some((entry) => entry.at > startedAt && entry.ok),
        'a success after the restart',
        {
          timeoutMs: 30_000,
        },
      )
      const recoveredMs = record.recoveredAfter(startedAt)!
      await pause(2_000)
      running = false
      await load

      expect(server.alive(), server.output()).toBe(true)
      expect(record.violations).toEqual([])
      expect(record.of(503)).toBeGreaterThan(0)
      expect(record.statuses.get(500)).toBeUndefined()
      expect((await request(`${server.url}/readyz`)).status).toBe(200)
      // The worker came back too: a creator made now is delivered to the org's endpoint.
      const after = await request(`${server.url}/api/creators`, {
        method: 'POST',
        token: writers[0]!.token,
        body: { name: 'after the restart', kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
      })
      expect(after.status).toBe(201)
      const id = (JSON.parse(after.body) as { id: string }).id
      await eventually(() => receiver.received.some((delivery) => delivery.body.includes(id)), 'the delivery', {
        timeoutMs: 30_000,
        everyMs: 100,
      })
      summary('PostgreSQL restart drill', record, {
        downMs: startedAt - stoppedAt,
        recoveredMsAfterStart: recoveredMs,
        created: created.size,
      })
    }, 240_000)
  })
}
