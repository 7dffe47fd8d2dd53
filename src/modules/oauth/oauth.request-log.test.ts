import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DAY, MINUTE } from '../../platform/clock.js'
import {
  buildTestApp,
  call,
  expectProblem,
  memberWithRole,
  ownerWithOrg,
  type OrgAccount,
  type TestApp,
} from '../../../test/helpers.js'
import { createClient, expectOAuthError, requestToken, type ClientCredentials } from '../../../test/partner-helpers.js'
import { createRequestLog } from './oauth.request-log.js'

let t: TestApp
let owner: OrgAccount

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app, { environment: 'sandbox' })
})
afterAll(() => t.close())

const ADDRESS = '198.51.100.40'

/** A token for the client, asked for with HTTP Basic from `address`. */
async function tokenFrom(client: ClientCredentials, address = ADDRESS, scope = 'events:read') {
  const response = await requestToken(
    t.app,
    { grant_type: 'client_credentials', scope },
    { basic: { id: client.id, secret: client.secret }, remoteAddress: address },
  )
  expect(response.statusCode, response.body).toBe(200)
  return { token: response.json().access_token as string, requestId: response.headers['x-request-id'] as string }
}

const feed = (token: string, orgId: string, address = ADDRESS) =>
  t.app.inject({
    method: 'GET',
    url: `/v1/orgs/${orgId}/events?limit=1`,
    headers: { authorization: `Bearer ${token}` },
    remoteAddress: address,
  })

const rowsOf = (orgId: string, clientId: string) =>
  t.db.read(orgId, (db) =>
    db
      .selectFrom('client_requests')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('client_id', '=', clientId)
      .orderBy('id')
      .execute(),
  )

const listOf = (account: OrgAccount, clientId: string, query = '') =>
  call(t.app, { url: `/api/clients/${clientId}/requests${query}`, token: account.token })

describe('the request log', () => {
  it('records a token request and a /v1 call with the route pattern, and no secret or token anywhere', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    const { token, requestId: tokenRequestId } = await tokenFrom(client)
    t.clock.advance(1000)
    const answered = await feed(token, owner.orgId)
    expect(answered.statusCode, answered.body).toBe(200)
    // Nothing is written on the request path: the rows appear with the next batch.
    expect(await rowsOf(owner.orgId, client.id)).toHaveLength(0)
    await t.services.requestLog.flush()

    const rows = await rowsOf(owner.orgId, client.id)
    expect(rows).toHaveLength(2)
    const [tokenRow, feedRow] = rows
    expect(Object.keys(tokenRow!).sort()).toEqual(
      [
        'address',
        'at',
        'client_id',
        'error_code',
        'error_detail',
        'id',
        'latency_ms',
        'method',
        'org_id',
        'path',
        'request_id',
        'status',
      ].sort(),
    )
    expect(tokenRow).toMatchObject({
      org_id: owner.orgId,
      client_id: client.id,
      at: new Date(t.clock.now().getTime() - 1000),
      method: 'POST',
      path: '/oauth/token',
      status: 200,
      request_id: tokenRequestId,
      address: ADDRESS,
    })
    expect(feedRow).toMatchObject({
      org_id: owner.orgId,
      client_id: client.id,
      at: t.clock.now(),
      method: 'GET',
      path: '/v1/orgs/{orgId}/events',
      status: 200,
      request_id: answered.headers['x-request-id'],
      address: ADDRESS,
    })
    for (const row of rows) {
      expect(Number.isInteger(row.latency_ms) && row.latency_ms >= 0).toBe(true)
      const text = JSON.stringify(row, (_, value: unknown) => (typeof value === 'bigint' ? String(value) : value))
      expect(text).not.toContain(client.secret)
      expect(text).not.toContain(token)
      expect(text).not.toContain(owner.orgId + '/events')
      expect(text).not.toContain('limit=')
    }

    const listed = await listOf(owner, client.id)
    expect(listed.statusCode, listed.body).toBe(200)
    expect(listed.json()).toEqual({
      data: [
        {
          at: t.clock.now().toISOString(),
          method: 'GET',
          path: '/v1/orgs/{orgId}/events',
          status: 200,
          latencyMs: feedRow!.latency_ms,
          requestId: answered.headers['x-request-id'],
          address: ADDRESS,
          errorCode: null,
          errorDetail: null,
        },
        {
          at: new Date(t.clock.now().getTime() - 1000).toISOString(),
          method: 'POST',
          path: '/oauth/token',
          status: 200,
          latencyMs: tokenRow!.latency_ms,
          requestId: tokenRequestId,
          address: ADDRESS,
          errorCode: null,
          errorDetail: null,
        },
      ],
      pagination: { cursor: null, hasMore: false },
    })
    expect(listed.body).not.toContain(client.secret)
    expect(listed.body).not.toContain(token)
  })

  it('records a wrong secret for a known client as 401, and nothing for an unknown client', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    const wrong = await requestToken(
      t.app,
      { grant_type: 'client_credentials', client_id: client.id, client_secret: 'cs_test_wrong', scope: 'events:read' },
      { remoteAddress: '203.0.113.9' },
    )
    expectOAuthError(wrong, 401, 'invalid_client')
    const unknown = await requestToken(
      t.app,
      { grant_type: 'client_credentials', scope: 'events:read' },
      { basic: { id: 'cli_01JZ0000000000000000000000', secret: 'cs_test_x' }, remoteAddress: '203.0.113.9' },
    )
    expectOAuthError(unknown, 401, 'invalid_client')
    const before = t.services.requestLog.dropped()
    await t.services.requestLog.flush()
    expect(t.services.requestLog.dropped()).toEqual(before)

    const rows = await rowsOf(owner.orgId, client.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      method: 'POST',
      path: '/oauth/token',
      status: 401,
      address: '203.0.113.9',
      request_id: wrong.headers['x-request-id'],
      error_code: 'invalid_client',
      error_detail: wrong.json().error_description,
    })
    expect(JSON.stringify(rows[0], (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(
      'cs_test_wrong',
    )
    // A failed secret is not a use of the client.
    const fetched = await call(t.app, { url: `/api/clients/${client.id}`, token: owner.token })
    expect(fetched.json()).toMatchObject({ lastUsedAt: null, lastUsedFrom: null })
  })

  it('records refusals after authentication (403 insufficient_scope, 404 for another org) with their route', async () => {
    const client = await createClient(t.app, owner, ['events:read', 'catalog:read'])
    const { token } = await tokenFrom(client, ADDRESS, 'events:read')
    const other = await ownerWithOrg(t.app, { environment: 'sandbox' })
    expect((await feed(token, other.orgId)).statusCode).toBe(404)
    const scope = await t.app.inject({
      method: 'GET',
      url: `/v1/orgs/${owner.orgId}/catalog`,
      headers: { authorization: `Bearer ${token}` },
    })
    expect(scope.statusCode).toBe(403)
    // An unknown token names no client: not recorded.
    expect((await feed('oat_nothing', owner.orgId)).statusCode).toBe(401)
    await t.services.requestLog.flush()
    const rows = await rowsOf(owner.orgId, client.id)
    expect(rows.map((row) => [row.method, row.path, row.status, row.error_code])).toEqual([
      ['POST', '/oauth/token', 200, null],
      ['GET', '/v1/orgs/{orgId}/events', 404, 'resource_missing'],
      ['GET', '/v1/orgs/{orgId}/catalog', 403, 'insufficient_scope'],
    ])
    // The page shows why: each refusal's code and detail, as its answer gave them.
    const listed = (await listOf(owner, client.id)).json().data as {
      status: number
      errorCode: string
      errorDetail: string
    }[]
    expect(listed.map((row) => [row.status, row.errorCode])).toEqual([
      [403, 'insufficient_scope'],
      [404, 'resource_missing'],
      [200, null],
    ])
    expect(listed[0]!.errorDetail).toBe(scope.json().detail)
    expect(listed[1]!.errorDetail).toMatch(/\S/)
  })

  it('records an OAuth refusal with its error and description (invalid_scope)', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    const refused = await requestToken(t.app, {
      grant_type: 'client_credentials',
      client_id: client.id,
      client_secret: client.secret,
      scope: 'webhooks:write',
    })
    expectOAuthError(refused, 400, 'invalid_scope')
    await t.services.requestLog.flush()
    const [row] = (await listOf(owner, client.id)).json().data
    expect(row).toMatchObject({
      status: 400,
      errorCode: 'invalid_scope',
      errorDetail: refused.json().error_description,
    })
  })

  it('sets lastUsedAt and lastUsedFrom on the client, in the list and the detail', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    const unused = await call(t.app, { url: `/api/clients/${client.id}`, token: owner.token })
    expect(unused.json()).toMatchObject({ lastUsedAt: null, lastUsedFrom: null })

    const { token } = await tokenFrom(client, '192.0.2.1')
    t.clock.advance(MINUTE)
    expect((await feed(token, owner.orgId, '192.0.2.2')).statusCode).toBe(200)
    await t.services.requestLog.flush()
    const used = { lastUsedAt: t.clock.now().toISOString(), lastUsedFrom: '192.0.2.2' }
    expect((await call(t.app, { url: `/api/clients/${client.id}`, token: owner.token })).json()).toMatchObject(used)
    const list = await call(t.app, { url: '/api/clients?limit=100', token: owner.token })
    expect(list.json().data.find((c: { id: string }) => c.id === client.id)).toMatchObject(used)
  })

  it('filters by status class, exact status and route pattern, and pages newest first', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    const { token } = await tokenFrom(client)
    const other = await ownerWithOrg(t.app, { environment: 'sandbox' })
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(1000)
      expect((await feed(token, owner.orgId)).statusCode).toBe(200)
    }
    t.clock.advance(1000)
    expect((await feed(token, other.orgId)).statusCode).toBe(404)
    await t.services.requestLog.flush()

    const statuses = async (query: string) =>
      (await listOf(owner, client.id, query)).json().data.map((r: { path: string; status: number }) => r.status)
    expect(await statuses('')).toEqual([404, 200, 200, 200, 200])
    expect(await statuses('?status=2xx')).toEqual([200, 200, 200, 200])
    expect(await statuses('?status=4xx')).toEqual([404])
    expect(await statuses('?status=404')).toEqual([404])
    expect(await statuses('?status=5xx')).toEqual([])
    expect(await statuses('?path=/oauth/token')).toEqual([200])
    expect(await statuses(`?path=${encodeURIComponent('/v1/orgs/{orgId}/events')}&status=2xx`)).toEqual([200, 200, 200])

    // Pages of two, newest first, then the cursor runs out.
    const seen: string[] = []
    let query = '?limit=2&status=2xx'
    for (;;) {
      const page = await listOf(owner, client.id, query)
      expect(page.statusCode, page.body).toBe(200)
      seen.push(...page.json().data.map((r: { at: string }) => r.at))
      if (!page.json().pagination.hasMore) break
      query = `?limit=2&status=2xx&cursor=${page.json().pagination.cursor}`
    }
    expect(seen).toHaveLength(4)
    expect([...seen].sort().reverse()).toEqual(seen)

    const first = (await listOf(owner, client.id, '?limit=1&status=2xx')).json()
    const otherFilters = await listOf(owner, client.id, `?limit=1&status=4xx&cursor=${first.pagination.cursor}`)
    expectProblem(otherFilters, 400, 'invalid_cursor')
    expectProblem(await listOf(owner, client.id, '?cursor=nonsense'), 400, 'invalid_cursor')
    for (const bad of ['6xx', '2XX', '20', 'ok', '2000']) {
      const refused = await listOf(owner, client.id, `?status=${bad}`)
      expectProblem(refused, 400, 'parameter_invalid')
      expect(refused.json().param).toBe('status')
    }
    expectProblem(await listOf(owner, client.id, '?limit=101'), 400, 'parameter_invalid')
  })

  it('answers 401 without a session, 403 to a role without clients:read, 404 for another org’s client', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    expectProblem(await call(t.app, { url: `/api/clients/${client.id}/requests` }), 401, 'authentication_required')
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    expectProblem(await listOf(viewer, client.id), 403, 'forbidden')
    const admin = await memberWithRole(t.app, owner, 'admin')
    expect((await listOf(admin, client.id)).statusCode).toBe(200)
    const other = await ownerWithOrg(t.app, { environment: 'sandbox' })
    expectProblem(await listOf(other, client.id), 404, 'resource_missing')
    expectProblem(await listOf(owner, 'cli_01JZ0000000000000000000000'), 404, 'resource_missing')
  })

  it('keeps 30 days: the worker’s job deletes older rows', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    await tokenFrom(client)
    await t.services.requestLog.flush()
    t.clock.advance(20 * DAY)
    await tokenFrom(client)
    await t.services.requestLog.flush()
    expect(await rowsOf(owner.orgId, client.id)).toHaveLength(2)

    const job = t.services.jobs.find((j) => j.name === 'prune-client-requests')!
    t.clock.advance(10 * DAY)
    await job.run()
    expect(await rowsOf(owner.orgId, client.id)).toHaveLength(2)
    t.clock.advance(1)
    expect(await job.run()).toBeGreaterThanOrEqual(1)
    const left = await rowsOf(owner.orgId, client.id)
    expect(left).toHaveLength(1)
    expect(left[0]!.at).toEqual(new Date(t.clock.now().getTime() - 10 * DAY - 1))
    // The owner's session ended with the days that passed.
    owner = await ownerWithOrg(t.app, { environment: 'sandbox' })
  })
})

describe('the buffer', () => {
  const entry = (n: number, clientId: string) => ({
    clientId,
    at: new Date(Date.UTC(2026, 10, 22, 10, 0, n)),
    method: 'GET',
    path: '/v1/orgs/{orgId}/events',
    status: 200,
    latencyMs: n,
    requestId: `req_${n}`,
    address: '192.0.2.9',
  })
  const config = (bufferRows: number) => ({
    ...t.config,
    requestLog: { flushMs: 60_000, batchRows: 1000, bufferRows },
  })

  it('drops the oldest rows when full and counts them in /metrics', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    const log = createRequestLog({ db: t.db, clock: t.clock, config: config(2) })
    for (const n of [1, 2, 3]) log.record(entry(n, client.id))
    expect(log.dropped()).toEqual({ buffer_full: 1, write_failed: 0 })
    await log.flush()
    expect((await rowsOf(owner.orgId, client.id)).map((row) => row.request_id)).toEqual(['req_2', 'req_3'])

    const metrics = await call(t.app, { url: '/metrics' })
    expect(metrics.body).toContain('oeuvre_request_log_dropped_total')
  })

  it('writes what is left when closed, and a batch as soon as it is full', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    const log = createRequestLog({ db: t.db, clock: t.clock, config: config(100) })
    log.start()
    log.record(entry(1, client.id))
    await log.close()
    expect(await rowsOf(owner.orgId, client.id)).toHaveLength(1)

    const batched = createRequestLog({
      db: t.db,
      clock: t.clock,
      config: { ...t.config, requestLog: { flushMs: 60_000, batchRows: 2, bufferRows: 100 } },
    })
    batched.record(entry(2, client.id))
    expect(batched.buffered()).toBe(1)
    batched.record(entry(3, client.id))
    // The full batch goes out on the next turn of the event loop, without a flush asked for.
    expect(batched.buffered()).toBe(2)
    await new Promise((resolve) => setImmediate(resolve))
    expect(batched.buffered()).toBe(0)
    await batched.flush()
    expect(await rowsOf(owner.orgId, client.id)).toHaveLength(3)

    // A backlog larger than a batch goes out in batches, all of it.
    for (let n = 10; n < 15; n += 1) batched.record(entry(n, client.id))
    await batched.flush()
    expect(batched.buffered()).toBe(0)
    expect(await rowsOf(owner.orgId, client.id)).toHaveLength(8)
  })
})
