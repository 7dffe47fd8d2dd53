import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock, MINUTE, SECOND } from '../../platform/clock.js'
import { hashSecret } from '../../platform/crypto.js'
import {
  buildTestApp,
  call,
  expectProblem,
  ownerWithOrg,
  type OrgAccount,
  type TestApp,
} from '../../../test/helpers.js'
import { createClient, expectOAuthError, requestToken, type ClientCredentials } from '../../../test/partner-helpers.js'

let t: TestApp
let owner: OrgAccount
let client: ClientCredentials

beforeAll(async () => {
  // The prune test below deletes expired tokens of every org, as the worker's job does, and on
  // PostgreSQL the other test files share this database while it runs: with this file's clock
  // years before theirs (ManualClock's default, or the real time), its prunes reach only its own
  // tokens, never one another file has just issued.
  t = await buildTestApp({ clock: new ManualClock('2001-01-01T10:00:00.000Z') })
  owner = await ownerWithOrg(t.app, { environment: 'sandbox' })
  client = await createClient(t.app, owner, ['events:read', 'members:read'])
})
afterAll(() => t.close())

const grant = (extra: Record<string, string> = {}) => ({
  grant_type: 'client_credentials',
  scope: 'events:read',
  ...extra,
})
const withBody = (extra: Record<string, string> = {}) =>
  grant({ client_id: client.id, client_secret: client.secret, ...extra })

describe('GET /v1/orgs', () => {
  it('names the token’s org, with no scope needed; a session token or none is 401', async () => {
    const token = (await requestToken(t.app, withBody())).json().access_token
    const orgs = await call(t.app, { url: '/v1/orgs', token })
    expect(orgs.statusCode, orgs.body).toBe(200)
    expect(orgs.json()).toEqual({
      data: [
        {
          id: owner.orgId,
          name: 'Test Label',
          environment: 'sandbox',
          region: 'eu-west',
          createdAt: expect.any(String),
          createdBy: owner.userId,
        },
      ],
    })
    expectProblem(await call(t.app, { url: '/v1/orgs' }), 401, 'invalid_token')
    expectProblem(await call(t.app, { url: '/v1/orgs', token: owner.token }), 401, 'invalid_token')
  })
})

describe('POST /oauth/token: success', () => {
  it('exchanges body credentials for a Bearer token, not cacheable, without a refresh token', async () => {
    const response = await requestToken(t.app, withBody({ scope: 'events:read members:read' }))
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.headers.pragma).toBe('no-cache')
    const body = response.json()
    expect(body).toEqual({
      access_token: expect.stringMatching(/^oat_euw_[A-Za-z0-9_-]{43}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'events:read members:read',
      org_id: owner.orgId,
    })
    expect(body).not.toHaveProperty('refresh_token')
    expect(response.headers['x-ratelimit-limit']).toBeDefined()

    // Opaque and stored hashed, bound to the client, its org and the granted scopes.
    const stored = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('oauth_access_tokens')
        .selectAll()
        .where('org_id', '=', owner.orgId)
        .where('token_hash', '=', hashSecret(body.access_token))
        .executeTakeFirstOrThrow(),
    )
    expect(stored).toMatchObject({ client_id: client.id, scopes: ['events:read', 'members:read'] })
    expect(stored.expires_at.getTime() - t.clock.now().getTime()).toBe(3600 * SECOND)
    expect(JSON.stringify(stored)).not.toContain(body.access_token)
  })

  it('accepts HTTP Basic credentials, url-decoded as RFC 6749 section 2.3.1 says', async () => {
    const plain = await requestToken(t.app, grant(), { basic: client })
    expect(plain.statusCode, plain.body).toBe(200)
    expect(plain.json().scope).toBe('events:read')
    // The id percent-encoded ("_" as %5F) decodes to the same client.
    const encoded = `${client.id.replace('_', '%5F')}:${client.secret}`
    const response = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(encoded).toString('base64')}`,
      },
      payload: new URLSearchParams(grant()).toString(),
    })
    expect(response.statusCode, response.body).toBe(200)
    // The same client_id in the body next to Basic is not a second credential.
    expect((await requestToken(t.app, grant({ client_id: client.id }), { basic: client })).statusCode).toBe(200)
  })

  it('grants exactly the scopes asked for, once each', async () => {
    const response = await requestToken(t.app, withBody({ scope: 'members:read  members:read events:read' }))
    expect(response.json().scope).toBe('members:read events:read')
  })

  it('issues tokens that stop working after one hour', async () => {
    const token = (await requestToken(t.app, withBody())).json().access_token
    const feed = () => call(t.app, { url: `/v1/orgs/${owner.orgId}/events?limit=1`, token })
    expect((await feed()).statusCode).toBe(200)
    t.clock.advance(60 * MINUTE - 1)
    expect((await feed()).statusCode).toBe(200)
    t.clock.advance(1)
    const expired = await feed()
    expectProblem(expired, 401, 'invalid_token')
    expect(expired.json().detail).toMatch(/expired/)
    expect(expired.headers['www-authenticate']).toBe('Bearer realm="oeuvre", error="invalid_token"')
  })
})

describe('POST /oauth/token: RFC 6749 errors', () => {
  it('answers a wrong secret or an unknown client with 401 invalid_client', async () => {
    const wrong = await requestToken(t.app, withBody({ client_secret: 'cs_test_wrong' }))
    expectOAuthError(wrong, 401, 'invalid_client')
    expect(wrong.headers['www-authenticate']).toBeUndefined()
    expectOAuthError(
      await requestToken(t.app, withBody({ client_id: 'cli_01M81B5H804211MF72VW5EZ040' })),
      401,
      'invalid_client',
    )
    expectOAuthError(await requestToken(t.app, grant()), 401, 'invalid_client')
    expectOAuthError(await requestToken(t.app, grant({ client_id: client.id })), 401, 'invalid_client')
  })

  it('challenges with WWW-Authenticate: Basic when Basic credentials fail', async () => {
    const wrong = await requestToken(t.app, grant(), { basic: { id: client.id, secret: 'cs_test_wrong' } })
    expectOAuthError(wrong, 401, 'invalid_client')
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic realm="oeuvre"/)
    const garbled = await requestToken(t.app, grant(), { headers: { authorization: 'Basic bm8tY29sb24taGVyZQ==' } })
    expectOAuthError(garbled, 401, 'invalid_client')
    expectOAuthError(
      await requestToken(t.app, grant(), { headers: { authorization: 'Bearer oat_x' } }),
      401,
      'invalid_client',
    )
  })

  it('refuses credentials sent both ways with invalid_request', async () => {
    expectOAuthError(await requestToken(t.app, withBody(), { basic: client }), 400, 'invalid_request')
    expectOAuthError(
      await requestToken(t.app, grant({ client_secret: client.secret }), { basic: client }),
      400,
      'invalid_request',
    )
    expectOAuthError(
      await requestToken(t.app, grant({ client_id: 'cli_other' }), { basic: client }),
      400,
      'invalid_request',
    )
  })

  it('answers invalid_scope for a missing, unknown or not allowed scope', async () => {
    const { scope: _scope, ...noScope } = withBody()
    expectOAuthError(await requestToken(t.app, noScope), 400, 'invalid_scope')
    expectOAuthError(await requestToken(t.app, withBody({ scope: ' ' })), 400, 'invalid_scope')
    const unknown = await requestToken(t.app, withBody({ scope: 'events:read everything' }))
    expectOAuthError(unknown, 400, 'invalid_scope')
    expect(unknown.json().error_description).toContain('everything')
    const notAllowed = await requestToken(t.app, withBody({ scope: 'catalog:write' }))
    expectOAuthError(notAllowed, 400, 'invalid_scope')
    expect(notAllowed.json().error_description).toContain('catalog:write')
  })

  it('answers unsupported_grant_type, and invalid_request without a grant_type', async () => {
    expectOAuthError(await requestToken(t.app, withBody({ grant_type: 'password' })), 400, 'unsupported_grant_type')
    expectOAuthError(
      await requestToken(t.app, withBody({ grant_type: 'authorization_code' })),
      400,
      'unsupported_grant_type',
    )
    const { grant_type: _grant, ...noGrant } = withBody()
    expectOAuthError(await requestToken(t.app, noGrant), 400, 'invalid_request')
  })

  it('takes only form-encoded requests, and answers even parser errors in RFC 6749 form', async () => {
    const json = await call(t.app, { method: 'POST', url: '/oauth/token', body: withBody() })
    expectOAuthError(json, 400, 'invalid_request')
    const text = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'text/plain' },
      payload: 'grant_type=client_credentials',
    })
    expectOAuthError(text, 400, 'invalid_request')
    expectOAuthError(await t.app.inject({ method: 'POST', url: '/oauth/token' }), 400, 'invalid_request')
    const long = await requestToken(t.app, withBody({ scope: 'x'.repeat(2000) }))
    expectOAuthError(long, 400, 'invalid_request')
  })

  it('does not issue a token when the request fails', async () => {
    const count = () =>
      t.db.read(owner.orgId, (db) =>
        db
          .selectFrom('oauth_access_tokens')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('org_id', '=', owner.orgId)
          .executeTakeFirstOrThrow(),
      )
    const before = Number((await count()).n)
    await requestToken(t.app, withBody({ scope: 'catalog:write' }))
    await requestToken(t.app, withBody({ client_secret: 'nope' }))
    expect(Number((await count()).n)).toBe(before)
  })
})

describe('POST /oauth/token: failed authentication is throttled', () => {
  it('per client id: after 10 failures even the right secret waits', async () => {
    const target = await createClient(t.app, owner, ['events:read'])
    const fields = (secret: string) => grant({ client_id: target.id, client_secret: secret })
    for (let attempt = 0; attempt < 10; attempt += 1) {
      // Spread over addresses: only the per-client budget runs out.
      expectOAuthError(
        await requestToken(t.app, fields('cs_test_guess'), { remoteAddress: `192.0.2.${attempt + 1}` }),
        401,
        'invalid_client',
      )
    }
    const throttled = await requestToken(t.app, fields(target.secret), { remoteAddress: '192.0.2.100' })
    expectOAuthError(throttled, 429, 'rate_limited')
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0)
    // Another client is not affected, and the budget refills with time.
    expect((await requestToken(t.app, withBody(), { remoteAddress: '192.0.2.100' })).statusCode).toBe(200)
    t.clock.advance(Number(throttled.headers['retry-after']) * SECOND)
    expect((await requestToken(t.app, fields(target.secret), { remoteAddress: '192.0.2.100' })).statusCode).toBe(200)
  })

  it('per address: after 30 failures from one address every client waits there', async () => {
    const address = '203.0.113.9'
    for (let attempt = 0; attempt < 30; attempt += 1) {
      const unknown = `cli_unknown${attempt}`
      expectOAuthError(
        await requestToken(t.app, grant({ client_id: unknown, client_secret: 'x' }), { remoteAddress: address }),
        401,
        'invalid_client',
      )
    }
    const throttled = await requestToken(t.app, withBody(), { remoteAddress: address })
    expectOAuthError(throttled, 429, 'rate_limited')
    expect(throttled.headers['retry-after']).toMatch(/^\d+$/)
    expect((await requestToken(t.app, withBody(), { remoteAddress: '203.0.113.10' })).statusCode).toBe(200)
  })
})

describe('tenancy and housekeeping', () => {
  it('hides one org’s clients and tokens from another org’s scope (row-level security)', async () => {
    const other = await ownerWithOrg(t.app, { environment: 'sandbox' })
    const seen = await t.db.read(other.orgId, async (db) => ({
      clients: await db.selectFrom('oauth_clients').select('id').execute(),
      tokens: await db.selectFrom('oauth_access_tokens').select('client_id').execute(),
    }))
    expect(seen).toEqual({ clients: [], tokens: [] })
    const own = await t.db.read(owner.orgId, (db) => db.selectFrom('oauth_clients').select('id').execute())
    expect(own.map((row) => row.id)).toContain(client.id)
  })

  it('prunes tokens a day after they expired', async () => {
    const token = (await requestToken(t.app, withBody())).json().access_token as string
    const stored = () =>
      t.db.read(owner.orgId, (db) =>
        db
          .selectFrom('oauth_access_tokens')
          .select('client_id')
          .where('org_id', '=', owner.orgId)
          .where('token_hash', '=', hashSecret(token))
          .execute(),
      )
    // Expired 23 hours ago: kept (older tokens of this file may go now).
    t.clock.advance(24 * 60 * MINUTE)
    await t.services.oauthTokens.prune()
    expect(await stored()).toHaveLength(1)
    t.clock.advance(60 * MINUTE + 1)
    expect(await t.services.oauthTokens.prune()).toBeGreaterThan(0)
    expect(await stored()).toHaveLength(0)
    expectProblem(await call(t.app, { url: `/v1/orgs/${owner.orgId}/events`, token }), 401, 'invalid_token')
  })
})
