import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  ownerWithOrg,
  type OrgAccount,
  type TestApp,
} from './helpers.js'

let t: TestApp
let owner: OrgAccount

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
})
afterAll(() => t.close())

const invite = (body: unknown, headers: Record<string, string> = {}) =>
  call(t.app, { method: 'POST', url: '/api/members/invitations', token: owner.token, body, headers })

describe('problem+json errors, and nothing written', () => {
  it('answers an unknown route with 404 resource_missing', async () => {
    expectProblem(await call(t.app, { url: '/api/nothing-here' }), 404, 'resource_missing')
  })

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const response = await call(t.app, { method: 'DELETE', url: '/api/members', token: owner.token })
    expectProblem(response, 405, 'method_not_allowed')
    expect(response.headers.allow).toContain('GET')
  })

  it('refuses malformed JSON, an unknown field, a 2 MiB body and a wrong content type without writing', async () => {
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(await invite('{"email": "a@b.co", '), 400, 'invalid_json')
    const unknown = await invite({ email: 'a@b.co', role: 'viewer', isAdmin: true })
    expectProblem(unknown, 400, 'parameter_unknown')
    expect(unknown.json().param).toBe('isAdmin')
    expectProblem(
      await invite({ email: 'a@b.co', role: 'viewer', pad: 'x'.repeat(2 * 1024 * 1024) }),
      413,
      'payload_too_large',
    )
    expectProblem(await invite('email=a@b.co', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type')
    const missing = await invite({ role: 'viewer' })
    expectProblem(missing, 400, 'parameter_missing')
    expect(missing.json().param).toBe('email')
    expectProblem(await invite({ email: 'not-an-email', role: 'viewer' }), 400, 'parameter_invalid')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })

  it('rejects an out-of-range limit instead of clamping it', async () => {
    const response = await call(t.app, { url: '/api/org-events?limit=101', token: owner.token })
    expectProblem(response, 400, 'parameter_invalid')
    expect(response.json().param).toBe('limit')
    expectProblem(await call(t.app, { url: '/api/org-events?limit=0', token: owner.token }), 400, 'parameter_invalid')
    expectProblem(await call(t.app, { url: '/api/org-events?bogus=1', token: owner.token }), 400, 'parameter_unknown')
  })
})

describe('request ids', () => {
  it('echoes a sane client request id and puts it in error bodies', async () => {
    const response = await call(t.app, { url: '/api/me', headers: { 'x-request-id': 'support-ticket-42' } })
    expect(response.headers['x-request-id']).toBe('support-ticket-42')
    expect(response.json().requestId).toBe('support-ticket-42')
  })

  it('replaces an insane request id with a generated one', async () => {
    const response = await call(t.app, { url: '/healthz', headers: { 'x-request-id': 'x'.repeat(200) } })
    expect(response.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9_-]+$/)
  })
})

describe('idempotency', () => {
  it('replays the first response for the same key and body, once written', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const body = { email: 'idem@example.com', role: 'viewer' }
    const first = await invite(body, { 'idempotency-key': 'invite-idem-1' })
    expect(first.statusCode).toBe(201)
    const second = await invite(body, { 'idempotency-key': 'invite-idem-1' })
    expect(second.statusCode).toBe(201)
    expect(second.headers['idempotent-replayed']).toBe('true')
    // The replay is the stored record; the invitation token is a bearer secret and is never stored.
    const { token, ...record } = first.json()
    expect(token).toMatch(/^invt_/)
    expect(second.json()).toEqual(record)
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    const stored = await t.db.global
      .selectFrom('idempotency_keys')
      .select('response_body')
      .where('key', '=', 'invite-idem-1')
      .execute()
    expect(stored).toHaveLength(1)
    expect(stored[0]!.response_body).not.toContain(token)
  })

  it('refuses the same key with another body: 422 idempotency_key_reused', async () => {
    await invite({ email: 'idem2@example.com', role: 'viewer' }, { 'idempotency-key': 'invite-idem-2' })
    const reused = await invite({ email: 'other@example.com', role: 'viewer' }, { 'idempotency-key': 'invite-idem-2' })
    expectProblem(reused, 422, 'idempotency_key_reused')
  })

  it('stores an error response once execution began and replays it', async () => {
    const viewerInvite = { email: 'dup@example.com', role: 'viewer' }
    expect((await invite(viewerInvite)).statusCode).toBe(201)
    // Already invited is fine; inviting the owner's own email is a conflict (already a member).
    const body = { email: owner.email, role: 'viewer' }
    const first = await invite(body, { 'idempotency-key': 'invite-idem-3' })
    expectProblem(first, 409, 'conflict')
    const replay = await invite(body, { 'idempotency-key': 'invite-idem-3' })
    expect(replay.statusCode).toBe(409)
    expect(replay.headers['content-type']).toMatch(/^application\/problem\+json/)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    // The stored response is replayed as it was, the original request id included.
    expect(replay.json()).toEqual(first.json())
  })

  it('answers 409 idempotency_key_in_use with Retry-After while the first request runs', async () => {
    // A claim left running by a request still in flight (inserted as another node would).
    const now = t.clock.now()
    await t.db.global
      .insertInto('idempotency_keys')
      .values({
        caller: owner.userId,
        method: 'POST',
        path: '/api/members/invitations',
        key: 'in-flight',
        request_hash: (await import('../src/platform/idempotency.js')).requestFingerprint({
          email: 'x@example.com',
          role: 'viewer',
        }),
        state: 'running',
        locked_until: new Date(now.getTime() + 60_000),
        created_at: now,
      })
      .execute()
    const response = await invite({ email: 'x@example.com', role: 'viewer' }, { 'idempotency-key': 'in-flight' })
    expectProblem(response, 409, 'idempotency_key_in_use')
    expect(response.headers['retry-after']).toBe('1')
  })

  it('refuses an over-long key', async () => {
    expectProblem(
      await invite({ email: 'long@example.com', role: 'viewer' }, { 'idempotency-key': 'k'.repeat(256) }),
      400,
      'parameter_invalid',
    )
  })
})

describe('operations', () => {
  it('serves health, readiness, metrics and the OpenAPI document', async () => {
    expect((await call(t.app, { url: '/healthz' })).json()).toEqual({ status: 'ok' })
    // Ready, and where the rate-limit buckets are (this process's own: no REDIS_URL here).
    expect((await call(t.app, { url: '/readyz' })).json()).toEqual({
      status: 'ready',
      rateLimit: { backend: 'local', reason: 'REDIS_URL is not set' },
    })
    const metrics = await call(t.app, { url: '/metrics' })
    expect(metrics.body).toContain('oeuvre_http_requests_total')
    expect(metrics.body).toContain('oeuvre_rate_limit_backend{backend="local"} 1')
    expect(metrics.body).toContain('oeuvre_rate_limit_backend{backend="redis"} 0')
    const openapi = (await call(t.app, { url: '/openapi.json' })).json()
    expect(openapi.openapi).toBe('3.1.0')
    expect(openapi.paths['/api/members/invitations'].post.responses).toHaveProperty('201')
    expect(openapi.paths['/api/members/invitations'].post.responses).toHaveProperty('400')
    const docs = await call(t.app, { url: '/docs' })
    expect([200, 302]).toContain(docs.statusCode)
  })

  it('does not rate limit health checks', async () => {
    const response = await call(t.app, { url: '/healthz' })
    expect(response.headers['x-ratelimit-limit']).toBeUndefined()
  })

  it('puts the rate-limit headers on every other response, errors included', async () => {
    for (const response of [
      await call(t.app, { url: '/api/me', token: owner.token }),
      await call(t.app, { url: '/api/me' }),
    ]) {
      expect(Number(response.headers['x-ratelimit-limit'])).toBeGreaterThan(0)
      expect(response.headers['x-ratelimit-remaining']).toMatch(/^\d+$/)
      expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/)
    }
  })
})
