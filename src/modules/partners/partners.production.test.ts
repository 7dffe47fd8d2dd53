import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, call, expectProblem, signup, type Account, type TestApp } from '../../../test/helpers.js'
import { accessToken, requestToken } from '../../../test/partner-helpers.js'
import { signUpPartner, type SignedUpPartner } from '../../../test/partner-program-helpers.js'

let t: TestApp
let operator: Account
beforeAll(async () => {
  t = await buildTestApp()
  operator = await signup(t.app, 'operator')
  await t.services.partners.addOperator(operator.email)
})
afterAll(() => t.close())

/** Moves a partner to live through the operator's route (the steps are covered in partners.operator.test.ts). */
async function goLive(partner: SignedUpPartner, approval: Record<string, number> = {}): Promise<void> {
  await t.db.global.updateTable('partners').set({ status: 'in_review' }).where('id', '=', partner.partnerId).execute()
  const approved = await call(t.app, {
    method: 'POST',
    url: `/api/operator/partners/${partner.partnerId}/approve`,
    token: operator.token,
    body: approval,
  })
  expect(approved.statusCode, approved.body).toBe(200)
}

async function productionOrg(partner: SignedUpPartner): Promise<string> {
  const created = await call(t.app, {
    method: 'POST',
    url: '/api/orgs',
    token: partner.token,
    body: { name: 'Acme Live', environment: 'production' },
  })
  expect(created.statusCode, created.body).toBe(201)
  return created.json().id
}

const createClient = (partner: SignedUpPartner, body: Record<string, unknown> = {}) =>
  call(t.app, {
    method: 'POST',
    url: '/api/clients',
    token: partner.token,
    body: { name: 'Live', scopes: ['events:read'], ...body },
  })

describe('production credentials', () => {
  it('are 403 production_access_pending until the partner is live, then cs_live_ at 600/min burst 1200', async () => {
    const partner = await signUpPartner(t.app)
    const orgId = await productionOrg(partner)
    expectProblem(await createClient(partner), 403, 'production_access_pending')
    await goLive(partner)
    const created = await createClient(partner)
    expect(created.statusCode, created.body).toBe(201)
    expect(created.json()).toMatchObject({
      orgId,
      tier: 'api_partner_production',
      rateLimit: { perMinute: 600, burst: 1200 },
    })
    expect(created.json().secret).toMatch(/^cs_live_/)
  })

  it('are not issued to a production org of no partner, even while some partner is live', async () => {
    const live = await signUpPartner(t.app)
    await goLive(live)
    const customer = await signup(t.app, 'customer')
    const org = await call(t.app, {
      method: 'POST',
      url: '/api/orgs',
      token: customer.token,
      body: { name: 'Direct customer', environment: 'production' },
    })
    expect(org.statusCode).toBe(201)
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/clients',
        token: customer.token,
        body: { name: 'x', scopes: ['events:read'] },
      }),
      403,
      'production_access_pending',
    )
  })

  it('stop getting tokens at once when the partner is suspended (401 invalid_client), and work again on resume', async () => {
    const partner = await signUpPartner(t.app)
    await productionOrg(partner)
    await goLive(partner)
    const client = (await createClient(partner)).json()
    const exchange = () =>
      requestToken(t.app, {
        grant_type: 'client_credentials',
        client_id: client.id,
        client_secret: client.secret,
        scope: 'events:read',
      })
    expect((await exchange()).statusCode).toBe(200)
    const suspended = await call(t.app, {
      method: 'POST',
      url: `/api/operator/partners/${partner.partnerId}/suspend`,
      token: operator.token,
      body: { reason: 'Unpaid invoices' },
    })
    expect(suspended.statusCode, suspended.body).toBe(200)
    const refused = await exchange()
    expect(refused.statusCode).toBe(401)
    expect(refused.json().error).toBe('invalid_client')
    // The sandbox client is not a production credential: it keeps working.
    const sandbox = await requestToken(t.app, {
      grant_type: 'client_credentials',
      client_id: partner.client.id,
      client_secret: partner.client.secret,
      scope: 'events:read',
    })
    expect(sandbox.statusCode).toBe(200)
    await call(t.app, {
      method: 'POST',
      url: `/api/operator/partners/${partner.partnerId}/resume`,
      token: operator.token,
    })
    expect((await exchange()).statusCode).toBe(200)
  })
})

describe('platform integrators', () => {
  it('get the limits set at approval, on the partner, on every client and in X-RateLimit-Limit', async () => {
    const partner = await signUpPartner(t.app, 'platform_integrator')
    const orgId = await productionOrg(partner)
    const missing = await call(t.app, {
      method: 'POST',
      url: `/api/operator/partners/${partner.partnerId}/approve`,
      token: operator.token,
      body: {},
    })
    // Not in review yet: the status is checked after the body.
    expect(missing.statusCode).toBe(400)
    expect(missing.json().param).toBe('rateLimit')
    await goLive(partner, { rateLimit: 90, burst: 5 })
    const got = (await call(t.app, { url: '/api/partner', token: partner.token })).json()
    expect(got.limits.production).toEqual({ perMinute: 90, burst: 5 })

    const byDefault = (await createClient(partner)).json()
    expect(byDefault).toMatchObject({ tier: 'platform_integrator', rateLimit: { perMinute: 90, burst: 5 } })
    const custom = await createClient(partner, { tier: 'platform_integrator', rateLimit: { perMinute: 30, burst: 2 } })
    expect(custom.json()).toMatchObject({ rateLimit: { perMinute: 30, burst: 2 } })

    const token = await accessToken(
      t.app,
      { id: byDefault.id, secret: byDefault.secret, userId: byDefault.userId, orgId },
      'events:read',
    )
    const feed = await call(t.app, { url: `/v1/orgs/${orgId}/events?limit=1`, token })
    expect(feed.statusCode).toBe(200)
    expect(feed.headers['x-ratelimit-limit']).toBe('90')
  })

  it('refuses limits at approval for an API partner', async () => {
    const partner = await signUpPartner(t.app)
    await t.db.global.updateTable('partners').set({ status: 'in_review' }).where('id', '=', partner.partnerId).execute()
    const refused = await call(t.app, {
      method: 'POST',
      url: `/api/operator/partners/${partner.partnerId}/approve`,
      token: operator.token,
      body: { rateLimit: 10, burst: 10 },
    })
    expectProblem(refused, 400, 'parameter_invalid')
  })
})
