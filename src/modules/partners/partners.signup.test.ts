import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  ownerWithOrg,
  signup,
  uniqueEmail,
  type TestApp,
} from '../../../test/helpers.js'
import { requestToken } from '../../../test/partner-helpers.js'
import { signUpPartner } from '../../../test/partner-program-helpers.js'
import { regionOfId } from '../../platform/region.js'

let t: TestApp
beforeAll(async () => {
  t = await buildTestApp({ env: { REGION_URL_US_EAST: 'https://us.oeuvre.test' } })
})
afterAll(() => t.close())

const body = (email = uniqueEmail('partner')) => ({
  email,
  password: 'correct horse battery',
  name: 'Ada Partner',
  company: 'Acme Royalties',
  tier: 'api_partner',
})

describe('POST /api/partners/signup', () => {
  it('creates the user, partner, seeded sandbox org and sandbox client; the secret reads the feed at once', async () => {
    const response = await call(t.app, { method: 'POST', url: '/api/partners/signup', body: body() })
    expect(response.statusCode, response.body).toBe(201)
    const signed = response.json()
    expect(signed.token).toMatch(/^sess_/)
    expect(signed.partner).toMatchObject({
      company: 'Acme Royalties',
      tier: 'api_partner',
      region: 'eu-west',
      status: 'sandbox',
      sandboxOrgId: signed.activeOrgId,
      limits: { sandbox: { perMinute: 60, burst: 120 }, production: { perMinute: 600, burst: 1200 } },
    })
    expect(signed.partner.id).toMatch(/^prt_/)
    expect(regionOfId(signed.partner.id)).toBe('eu-west')
    expect(signed.sandboxClient).toMatchObject({ tier: 'api_partner_sandbox' })
    expect(signed.sandboxClient.secret).toMatch(/^cs_test_/)
    expect(signed.sandboxClient.scopes).toEqual(
      expect.arrayContaining(['events:read', 'catalog:read', 'webhooks:write']),
    )
    expect(signed.sandboxClient.scopes).not.toContain('catalog:write')

    // The sandbox org carries the demo records.
    const creators = await call(t.app, { url: '/api/creators', token: signed.token })
    expect(creators.json().data).toHaveLength(3)
    const events = await call(t.app, { url: '/api/events', token: signed.token })
    expect(events.json().data).toHaveLength(1)

    const token = await requestToken(t.app, {
      grant_type: 'client_credentials',
      client_id: signed.sandboxClient.id,
      client_secret: signed.sandboxClient.secret,
      scope: 'events:read',
    })
    expect(token.statusCode, token.body).toBe(200)
    const feed = await call(t.app, {
      url: `/v1/orgs/${signed.activeOrgId}/events?limit=100`,
      token: token.json().access_token,
    })
    expect(feed.statusCode, feed.body).toBe(200)
    const actions = feed.json().data.map((event: { action: string }) => event.action)
    expect(actions).toEqual(
      expect.arrayContaining(['org.created', 'client.created', 'partner.created', 'creator.created']),
    )
  })

  it('GET /api/partner: steps, what is due, limits, region and status', async () => {
    const partner = await signUpPartner(t.app)
    const response = await call(t.app, { url: '/api/partner', token: partner.token })
    expect(response.statusCode, response.body).toBe(200)
    const got = response.json()
    expect(got).toMatchObject({ id: partner.partnerId, status: 'sandbox', region: 'eu-west' })
    expect(got.onboarding.steps.map((step: { key: string }) => step.key)).toEqual([
      'application',
      'agreement',
      'integration_testing',
      'go_live',
    ])
    expect(got.onboarding.currentlyDue).toEqual(['application', 'agreement', 'integration_testing'])
  })

  it('lists brand_and_domain and provisioning for white-label partners only', async () => {
    const partner = await signUpPartner(t.app, 'white_label')
    const got = (await call(t.app, { url: '/api/partner', token: partner.token })).json()
    expect(got.onboarding.steps.map((step: { key: string }) => step.key)).toEqual([
      'application',
      'agreement',
      'brand_and_domain',
      'provisioning',
      'integration_testing',
      'go_live',
    ])
    expect(got.onboarding.steps[2]).toMatchObject({ status: 'pending', detail: expect.stringContaining('white-label') })
  })

  it('replays the answer for the same Idempotency-Key, without the session token or the secret', async () => {
    const payload = body()
    const headers = { 'idempotency-key': `partner-${payload.email}` }
    const first = await call(t.app, { method: 'POST', url: '/api/partners/signup', body: payload, headers })
    expect(first.statusCode, first.body).toBe(201)
    const again = await call(t.app, { method: 'POST', url: '/api/partners/signup', body: payload, headers })
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.json().partner.id).toBe(first.json().partner.id)
    expect(again.json().sandboxClient.id).toBe(first.json().sandboxClient.id)
    expect(again.json()).not.toHaveProperty('token')
    expect(again.json().sandboxClient).not.toHaveProperty('secret')
    const stored = await t.db.global
      .selectFrom('idempotency_keys')
      .select('response_body')
      .where('key', '=', headers['idempotency-key'])
      .executeTakeFirstOrThrow()
    expect(stored.response_body).not.toContain(first.json().sandboxClient.secret)
    expect(stored.response_body).not.toContain(first.json().token)
  })

  it('answers 421 wrong_region for another region, 409 for a taken email, 400 for a bad tier; nothing written', async () => {
    const count = async () =>
      Number(
        (
          await t.db.global
            .selectFrom('partners')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const before = await count()
    const wrong = await call(t.app, {
      method: 'POST',
      url: '/api/partners/signup',
      body: { ...body(), region: 'us-east' },
    })
    expectProblem(wrong, 421, 'wrong_region')
    expect(wrong.json()).toMatchObject({ param: 'region', baseUrl: 'https://us.oeuvre.test' })

    const taken = await signUpPartner(t.app)
    expect(await count()).toBe(before + 1)
    expectProblem(
      await call(t.app, { method: 'POST', url: '/api/partners/signup', body: body(taken.email) }),
      409,
      'conflict',
    )
    const bad = await call(t.app, { method: 'POST', url: '/api/partners/signup', body: { ...body(), tier: 'gold' } })
    expectProblem(bad, 400, 'parameter_invalid')
    expect(bad.json().param).toBe('tier')
    expect(await count()).toBe(before + 1)
  })

  it('GET /api/partner: 401 without a session, 404 for a user who is no partner', async () => {
    expectProblem(await call(t.app, { url: '/api/partner' }), 401, 'authentication_required')
    const signup = await call(t.app, {
      method: 'POST',
      url: '/api/auth/signup',
      body: { email: uniqueEmail('plain'), password: 'correct horse battery', name: 'Plain' },
    })
    expectProblem(await call(t.app, { url: '/api/partner', token: signup.json().token }), 404, 'resource_missing')
  })

  it('has a cookie twin for the portal that sets the session cookie', async () => {
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/partners/signup/cookie',
      body: body(),
      headers: { 'x-oeuvre-csrf': '1', origin: new URL(t.config.publicUrl).origin },
    })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json().token).toBeUndefined()
    expect(response.json().sandboxClient.secret).toMatch(/^cs_test_/)
    expect(String(response.headers['set-cookie'])).toMatch(/HttpOnly/i)
    expect(await eventCount(t.db, response.json().activeOrgId)).toBeGreaterThan(5)
  })
})

describe('POST /api/partners/apply', () => {
  const apply = (token: string, extra: Record<string, unknown> = {}) =>
    call(t.app, {
      method: 'POST',
      url: '/api/partners/apply',
      token,
      body: { company: 'Label Labs', tier: 'api_partner', ...extra },
    })

  it('makes a signed-in account a partner: it keeps its orgs, the sandbox org becomes active, the secret works', async () => {
    const owner = await ownerWithOrg(t.app, { name: 'My Label' })
    const applied = await apply(owner.token)
    expect(applied.statusCode, applied.body).toBe(201)
    const partner = applied.json()
    expect(partner).toMatchObject({
      user: { id: owner.userId, email: owner.email },
      partner: { company: 'Label Labs', status: 'sandbox', sandboxOrgId: partner.activeOrgId },
      sandboxClient: { tier: 'api_partner_sandbox' },
    })
    expect(partner).not.toHaveProperty('token')
    expect(partner.sandboxClient.secret).toMatch(/^cs_test_/)
    const me = (await call(t.app, { url: '/api/me', token: owner.token })).json()
    expect(me.activeOrgId).toBe(partner.activeOrgId)
    expect(me.memberships.map((m: { orgId: string }) => m.orgId).sort()).toEqual(
      [owner.orgId, partner.activeOrgId].sort(),
    )
    expect((await call(t.app, { url: '/api/partner', token: owner.token })).json().id).toBe(partner.partner.id)
    expect((await call(t.app, { url: '/api/creators', token: owner.token })).json().data).toHaveLength(3)
    const token = await requestToken(t.app, {
      grant_type: 'client_credentials',
      client_id: partner.sandboxClient.id,
      client_secret: partner.sandboxClient.secret,
      scope: 'events:read',
    })
    expect(token.statusCode, token.body).toBe(200)
  })

  it('answers 409 for a partner already, and lets one of two applications at once through', async () => {
    const signed = (await call(t.app, { method: 'POST', url: '/api/partners/signup', body: body() })).json()
    const again = await apply(signed.token)
    expectProblem(again, 409, 'conflict')
    expect(again.json().detail).toContain('partner already')
    const account = await signup(t.app, 'racer')
    const answers = await Promise.all([apply(account.token), apply(account.token)])
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409])
    const partners = await t.db.global
      .selectFrom('partners')
      .select('id')
      .where('user_id', '=', account.userId)
      .execute()
    expect(partners).toHaveLength(1)
  })

  it('answers 401 without a session, 421 for another region and 400 for a bad tier, writing nothing', async () => {
    expectProblem(
      await call(t.app, { method: 'POST', url: '/api/partners/apply', body: { company: 'X', tier: 'api_partner' } }),
      401,
      'authentication_required',
    )
    const account = await signup(t.app, 'elsewhere')
    const away = await apply(account.token, { region: 'us-east' })
    expectProblem(away, 421, 'wrong_region')
    expect(away.json().baseUrl).toBe('https://us.oeuvre.test')
    expectProblem(await apply(account.token, { tier: 'gold' }), 400, 'parameter_invalid')
    expect((await call(t.app, { url: '/api/me', token: account.token })).json().memberships).toEqual([])
    expectProblem(await call(t.app, { url: '/api/partner', token: account.token }), 404, 'resource_missing')
  })
})
