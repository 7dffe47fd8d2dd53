import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOUR } from '../../platform/clock.js'
import { hashSecret } from '../../platform/crypto.js'
import { idPattern } from '../../platform/ids.js'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  memberWithRole,
  ownerWithOrg,
  type OrgAccount,
  type TestApp,
} from '../../../test/helpers.js'
import { accessToken, createClient, expectOAuthError, requestToken } from '../../../test/partner-helpers.js'
import { createClientsService } from './oauth.clients.js'

let t: TestApp
let owner: OrgAccount

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app, { environment: 'sandbox' })
})
afterAll(() => t.close())

const create = (account: OrgAccount, body: unknown, headers: Record<string, string> = {}) =>
  call(t.app, { method: 'POST', url: '/api/clients', token: account.token, body, headers })

/** A day on the manual clock ends the owner's session; start a new one. */
async function logInAgain(account: OrgAccount): Promise<void> {
  const login = await call(t.app, {
    method: 'POST',
    url: '/api/auth/login',
    body: { email: account.email, password: 'correct horse battery' },
  })
  expect(login.statusCode, login.body).toBe(200)
  account.token = login.json().token
  const active = await call(t.app, {
    method: 'POST',
    url: '/api/session/active-org',
    token: account.token,
    body: { orgId: account.orgId },
  })
  expect(active.statusCode, active.body).toBe(200)
}

const lastEvent = async (orgId: string) =>
  t.db.read(orgId, (db) =>
    db
      .selectFrom('org_events')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('sequence', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow(),
  )

describe('POST /api/clients', () => {
  it('creates a sandbox client, shows the secret once and keeps only its hash', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const response = await create(owner, { name: 'Royalty dashboard', scopes: ['events:read', 'members:read'] })
    expect(response.statusCode, response.body).toBe(201)
    const client = response.json()
    expect(client.id).toMatch(new RegExp(idPattern('cli')))
    expect(client.secret).toMatch(/^cs_test_euw_[A-Za-z0-9_-]{43}$/)
    expect(client).toMatchObject({
      orgId: owner.orgId,
      name: 'Royalty dashboard',
      scopes: ['events:read', 'members:read'],
      tier: 'api_partner_sandbox',
      rateLimit: { perMinute: 60, burst: 120 },
      environment: 'sandbox',
      status: 'active',
      createdBy: owner.userId,
      revokedAt: null,
      secretHint: `cs_test_…${client.secret.slice(-4)}`,
    })
    expect(client.userId).toMatch(new RegExp(idPattern('usr')))

    const row = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('oauth_clients')
        .selectAll()
        .where('org_id', '=', owner.orgId)
        .where('id', '=', client.id)
        .executeTakeFirstOrThrow(),
    )
    expect(row.secret_hash).toBe(hashSecret(client.secret))
    expect(JSON.stringify(row)).not.toContain(client.secret)

    // The client acts as its own service user, homed in the org.
    const user = await t.db.global
      .selectFrom('users')
      .selectAll()
      .where('id', '=', client.userId)
      .executeTakeFirstOrThrow()
    expect(user).toMatchObject({ kind: 'service', home_org_id: owner.orgId, email: null, password_hash: null })

    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    const event = await lastEvent(owner.orgId)
    expect(event).toMatchObject({
      action: 'client.created',
      user_id: owner.userId,
      resource_type: 'client',
      resource_id: client.id,
    })
    expect(JSON.stringify(event.data)).not.toContain(client.secret)
  })

  it('lets an admin create clients too', async () => {
    const admin = await memberWithRole(t.app, owner, 'admin')
    expect((await create(admin, { name: 'By admin', scopes: ['catalog:read'] })).statusCode).toBe(201)
  })

  it('answers 403 production_access_pending in a production org, writing nothing', async () => {
    const production = await ownerWithOrg(t.app)
    const before = await eventCount(t.db, production.orgId)
    expectProblem(await create(production, { name: 'Live', scopes: ['events:read'] }), 403, 'production_access_pending')
    expect(await eventCount(t.db, production.orgId)).toBe(before)
    const rows = await t.db.read(production.orgId, (db) =>
      db.selectFrom('oauth_clients').select('id').where('org_id', '=', production.orgId).execute(),
    )
    expect(rows).toHaveLength(0)
  })

  it('says in the 403 how to get a sandbox org, and doing what it says gets a client', async () => {
    const production = await ownerWithOrg(t.app)
    const refused = await create(production, { name: 'Live', scopes: ['events:read'] })
    expectProblem(refused, 403, 'production_access_pending')
    const detail: string = refused.json().detail
    expect(detail).toContain('POST /api/orgs')
    expect(detail).toContain('"environment": "sandbox"')
    const sandbox = await call(t.app, {
      method: 'POST',
      url: '/api/orgs',
      token: production.token,
      body: JSON.parse(/\{"name".*?\}/.exec(detail)![0].replace('...', 'Sandbox')),
    })
    expect(sandbox.json()).toMatchObject({ environment: 'sandbox', activeOrgId: sandbox.json().id })
    const created = await create(production, { name: 'Test', scopes: ['events:read'] })
    expect(created.statusCode, created.body).toBe(201)
    expect(created.json()).toMatchObject({ orgId: sandbox.json().id, environment: 'sandbox' })
  })

  it('refuses bad bodies with 400 and writes nothing', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const unknownScope = await create(owner, { name: 'x', scopes: ['events:read', 'everything:write'] })
    expectProblem(unknownScope, 400, 'parameter_invalid')
    expect(unknownScope.json().param).toMatch(/^scopes/)
    expectProblem(await create(owner, { name: 'x', scopes: [] }), 400, 'parameter_invalid')
    expectProblem(await create(owner, { name: 'x', scopes: ['events:read', 'events:read'] }), 400, 'parameter_invalid')
    expectProblem(await create(owner, { name: 'x', scopes: ['clients:write'] }), 400, 'parameter_invalid')
    expectProblem(await create(owner, { name: '', scopes: ['events:read'] }), 400, 'parameter_invalid')
    expectProblem(await create(owner, { scopes: ['events:read'] }), 400, 'parameter_missing')
    expectProblem(await create(owner, { name: 'x', scopes: ['events:read'], secret: 'mine' }), 400, 'parameter_unknown')
    const tier = await create(owner, { name: 'x', scopes: ['events:read'], tier: 'api_partner_production' })
    expectProblem(tier, 400, 'parameter_invalid')
    expect(tier.json().param).toBe('tier')
    const custom = await create(owner, {
      name: 'x',
      scopes: ['events:read'],
      rateLimit: { perMinute: 1000, burst: 1000 },
    })
    expectProblem(custom, 400, 'parameter_invalid')
    expect(custom.json().param).toBe('rateLimit')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })

  it('requires a session, and the owner or admin role', async () => {
    expectProblem(
      await call(t.app, { method: 'POST', url: '/api/clients', body: { name: 'x', scopes: ['events:read'] } }),
      401,
      'authentication_required',
    )
    for (const role of ['finance', 'editor', 'viewer']) {
      const member = await memberWithRole(t.app, owner, role)
      expectProblem(await create(member, { name: 'x', scopes: ['events:read'] }), 403, 'forbidden')
      expectProblem(await call(t.app, { url: '/api/clients', token: member.token }), 403, 'forbidden')
    }
  })

  it('does not replay the secret for a repeated Idempotency-Key, nor store it', async () => {
    const body = { name: 'Retried', scopes: ['events:read'] }
    const first = await create(owner, body, { 'idempotency-key': 'client-create-1' })
    expect(first.statusCode).toBe(201)
    const replay = await create(owner, body, { 'idempotency-key': 'client-create-1' })
    expect(replay.statusCode).toBe(201)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json().id).toBe(first.json().id)
    expect(replay.json()).not.toHaveProperty('secret')
    const stored = await t.db.global
      .selectFrom('idempotency_keys')
      .select('response_body')
      .where('key', '=', 'client-create-1')
      .executeTakeFirstOrThrow()
    expect(stored.response_body).not.toContain(first.json().secret)
  })
})

describe('GET /api/clients', () => {
  it('lists the org’s clients newest first, paginated, without secrets', async () => {
    const org = await ownerWithOrg(t.app, { environment: 'sandbox' })
    const made = []
    for (const name of ['one', 'two', 'three']) made.push(await createClient(t.app, org, ['events:read'], name))
    const first = await call(t.app, { url: '/api/clients?limit=2', token: org.token })
    expect(first.statusCode).toBe(200)
    const page1 = first.json()
    expect(page1.data.map((c: { name: string }) => c.name)).toEqual(['three', 'two'])
    expect(page1.pagination.hasMore).toBe(true)
    const second = await call(t.app, {
      url: `/api/clients?limit=2&cursor=${page1.pagination.cursor}`,
      token: org.token,
    })
    expect(second.json().data.map((c: { name: string }) => c.name)).toEqual(['one'])
    expect(second.json().pagination).toEqual({ cursor: null, hasMore: false })
    expect(first.body + second.body).not.toContain('"secret"')
    for (const client of made) expect(first.body + second.body).not.toContain(client.secret)
  })

  it('fetches one client, and answers 404 for another org’s client', async () => {
    const mine = await createClient(t.app, owner, ['events:read'])
    const fetched = await call(t.app, { url: `/api/clients/${mine.id}`, token: owner.token })
    expect(fetched.statusCode).toBe(200)
    expect(fetched.json()).toMatchObject({ id: mine.id, status: 'active' })
    expect(fetched.json()).not.toHaveProperty('secret')
    const other = await ownerWithOrg(t.app, { environment: 'sandbox' })
    expectProblem(await call(t.app, { url: `/api/clients/${mine.id}`, token: other.token }), 404, 'resource_missing')
    expectProblem(await call(t.app, { url: '/api/clients?limit=500', token: owner.token }), 400, 'parameter_invalid')
  })
})

describe('POST /api/clients/:id/rotate-secret', () => {
  it('issues a new secret; the old one works until the grace period ends', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    const before = await eventCount(t.db, owner.orgId)
    const rotated = await call(t.app, {
      method: 'POST',
      url: `/api/clients/${client.id}/rotate-secret`,
      token: owner.token,
    })
    expect(rotated.statusCode, rotated.body).toBe(200)
    const body = rotated.json()
    expect(body.secret).toMatch(/^cs_test_/)
    expect(body.secret).not.toBe(client.secret)
    expect(body.secretRotatedAt).toBe(t.clock.now().toISOString())
    expect(body.previousSecretExpiresAt).toBe(new Date(t.clock.now().getTime() + 24 * HOUR).toISOString())
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    expect((await lastEvent(owner.orgId)).action).toBe('client.secret_rotated')

    const fresh = { ...client, secret: body.secret }
    const exchange = (secret: string) =>
      requestToken(
        t.app,
        { grant_type: 'client_credentials', client_id: client.id, client_secret: secret, scope: 'events:read' },
        { remoteAddress: '198.51.100.20' },
      )
    expect((await exchange(client.secret)).statusCode).toBe(200)
    expect((await exchange(fresh.secret)).statusCode).toBe(200)
    t.clock.advance(24 * HOUR - 1)
    expect((await exchange(client.secret)).statusCode).toBe(200)
    t.clock.advance(1)
    expectOAuthError(await exchange(client.secret), 401, 'invalid_client')
    expect((await exchange(fresh.secret)).statusCode).toBe(200)
    await logInAgain(owner)
  })

  it('ends the grace of an older secret at the next rotation', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    const rotate = () =>
      call(t.app, { method: 'POST', url: `/api/clients/${client.id}/rotate-secret`, token: owner.token })
    const second = (await rotate()).json().secret
    const third = (await rotate()).json().secret
    const exchange = (secret: string) =>
      requestToken(
        t.app,
        { grant_type: 'client_credentials', client_id: client.id, client_secret: secret, scope: 'events:read' },
        { remoteAddress: '198.51.100.21' },
      )
    expectOAuthError(await exchange(client.secret), 401, 'invalid_client')
    expect((await exchange(second)).statusCode).toBe(200)
    expect((await exchange(third)).statusCode).toBe(200)
  })

  it('answers 404 for another org’s client and 403 for a viewer, writing nothing', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    const other = await ownerWithOrg(t.app, { environment: 'sandbox' })
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(
      await call(t.app, { method: 'POST', url: `/api/clients/${client.id}/rotate-secret`, token: other.token }),
      404,
      'resource_missing',
    )
    expectProblem(
      await call(t.app, { method: 'POST', url: `/api/clients/${client.id}/revoke`, token: other.token }),
      404,
      'resource_missing',
    )
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    const afterInvite = await eventCount(t.db, owner.orgId)
    expectProblem(
      await call(t.app, { method: 'POST', url: `/api/clients/${client.id}/rotate-secret`, token: viewer.token }),
      403,
      'forbidden',
    )
    expectProblem(
      await call(t.app, { method: 'POST', url: `/api/clients/${client.id}/revoke`, token: viewer.token }),
      403,
      'forbidden',
    )
    expect(afterInvite - before).toBe(2) // member.invited and member.joined only
    expect(await eventCount(t.db, owner.orgId)).toBe(afterInvite)
  })
})

describe('POST /api/clients/:id/revoke', () => {
  it('revokes at once: issued tokens and both secrets stop working', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    const token = await accessToken(t.app, client, 'events:read')
    const feed = () => call(t.app, { url: `/v1/orgs/${owner.orgId}/events?limit=1`, token })
    expect((await feed()).statusCode).toBe(200)
    const revoked = await call(t.app, { method: 'POST', url: `/api/clients/${client.id}/revoke`, token: owner.token })
    expect(revoked.statusCode, revoked.body).toBe(200)
    expect(revoked.json()).toMatchObject({ id: client.id, status: 'revoked', revokedAt: t.clock.now().toISOString() })
    expect((await lastEvent(owner.orgId)).action).toBe('client.revoked')

    const refused = await feed()
    expectProblem(refused, 401, 'invalid_token')
    expect(refused.headers['www-authenticate']).toContain('error="invalid_token"')
    const exchange = await requestToken(t.app, {
      grant_type: 'client_credentials',
      client_id: client.id,
      client_secret: client.secret,
      scope: 'events:read',
    })
    expectOAuthError(exchange, 401, 'invalid_client')
  })

  it('answers 422 invalid_state when the client is already revoked, writing nothing', async () => {
    const client = await createClient(t.app, owner, ['events:read'])
    expect(
      (await call(t.app, { method: 'POST', url: `/api/clients/${client.id}/revoke`, token: owner.token })).statusCode,
    ).toBe(200)
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(
      await call(t.app, { method: 'POST', url: `/api/clients/${client.id}/revoke`, token: owner.token }),
      422,
      'invalid_state',
    )
    expectProblem(
      await call(t.app, { method: 'POST', url: `/api/clients/${client.id}/rotate-secret`, token: owner.token }),
      422,
      'invalid_state',
    )
    expectProblem(
      await call(t.app, { method: 'POST', url: '/api/clients/cli_nothing/revoke', token: owner.token }),
      404,
      'resource_missing',
    )
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })
})

describe('production credentials, once the partner program grants access', () => {
  it('issues cs_live_ secrets with the production tier, or custom limits for platform integrators', async () => {
    const production = await ownerWithOrg(t.app)
    const { db, clock, ids, audit, credentials } = t.services
    const approved = createClientsService({
      db,
      clock,
      ids,
      audit,
      credentials,
      config: t.config,
      productionAccess: async (orgId) => orgId === production.orgId,
    })
    const ctx = {
      orgId: production.orgId,
      requestId: 'req_test',
      actor: { userId: production.userId, kind: 'person' as const, role: 'owner' as const },
    }

    const live = await approved.create(ctx, { name: 'Live', scopes: ['events:read'] })
    expect(live.secret).toMatch(/^cs_live_/)
    expect(live).toMatchObject({
      tier: 'api_partner_production',
      rateLimit: { perMinute: 600, burst: 1200 },
      environment: 'production',
    })

    const integrator = await approved.create(ctx, {
      name: 'SI',
      scopes: ['events:read'],
      tier: 'platform_integrator',
      rateLimit: { perMinute: 30, burst: 3 },
    })
    expect(integrator).toMatchObject({ tier: 'platform_integrator', rateLimit: { perMinute: 30, burst: 3 } })
    await expect(
      approved.create(ctx, { name: 'SI', scopes: ['events:read'], tier: 'platform_integrator' }),
    ).rejects.toMatchObject({ code: 'parameter_missing', options: { param: 'rateLimit' } })
    await expect(
      approved.create(ctx, { name: 'x', scopes: ['events:read'], tier: 'api_partner_sandbox' }),
    ).rejects.toMatchObject({ code: 'parameter_invalid', options: { param: 'tier' } })

    // The guard draws the client's requests from a bucket of its own tier.
    const token = await accessToken(
      t.app,
      { id: integrator.id, secret: integrator.secret, userId: integrator.userId, orgId: production.orgId },
      'events:read',
    )
    const feed = () => call(t.app, { url: `/v1/orgs/${production.orgId}/events?limit=1`, token })
    const admitted = [await feed(), await feed(), await feed()]
    for (const response of admitted) {
      expect(response.statusCode).toBe(200)
      expect(response.headers['x-ratelimit-limit']).toBe('30')
    }
    const refused = await feed()
    expectProblem(refused, 429, 'rate_limited')
    expect(refused.headers['retry-after']).toBe('2')
  })
})
