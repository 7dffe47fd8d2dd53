import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, expectProblem, type OrgAccount } from '../../../test/helpers.js'
import { accessToken, createClient, requestToken } from '../../../test/partner-helpers.js'
import { signUpPartner, type SignedUpPartner } from '../../../test/partner-program-helpers.js'
import { buildWebhookTestApp, drain, Receiver, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import { AGREEMENT_SHA256, AGREEMENT_VERSION } from './partners.agreement.js'
import { addBusinessDays } from './partners.onboarding.js'

describe('addBusinessDays (provisioning’s expectedReadyAt)', () => {
  it('counts three business days, skipping weekends', () => {
    // 2026-11-23 is a Monday.
    expect(addBusinessDays(new Date('2026-11-23T10:00:00Z'), 3)).toBe('2026-11-26')
    expect(addBusinessDays(new Date('2026-11-25T23:59:00Z'), 3)).toBe('2026-11-30')
    expect(addBusinessDays(new Date('2026-11-27T09:00:00Z'), 3)).toBe('2026-12-02')
    expect(addBusinessDays(new Date('2026-11-28T09:00:00Z'), 3)).toBe('2026-12-02')
    expect(addBusinessDays(new Date('2026-11-29T09:00:00Z'), 3)).toBe('2026-12-02')
  })
})

let t: WebhookTestApp
let receiver: Receiver
beforeAll(async () => {
  t = await buildWebhookTestApp()
  receiver = await Receiver.start()
})
afterAll(async () => {
  await receiver.close()
  await t.close()
})

const partnerOf = async (partner: SignedUpPartner) => {
  const response = await call(t.app, { url: '/api/partner', token: partner.token })
  expect(response.statusCode, response.body).toBe(200)
  return response.json()
}
const step = (body: { onboarding: { steps: { key: string }[] } }, key: string) =>
  body.onboarding.steps.find((s) => s.key === key) as Record<string, unknown>

async function sandboxToken(partner: SignedUpPartner, scope: string): Promise<string> {
  const response = await requestToken(t.app, {
    grant_type: 'client_credentials',
    client_id: partner.client.id,
    client_secret: partner.client.secret,
    scope,
  })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().access_token
}

describe('application and agreement', () => {
  it('records the application, and the signed agreement as a chained org event with the text’s SHA-256', async () => {
    const partner = await signUpPartner(t.app)
    const application = await call(t.app, {
      method: 'POST',
      url: '/api/partner/application',
      token: partner.token,
      body: { website: 'https://acme.example', useCase: 'Royalty dashboards', expectedMonthlyRequests: 50000 },
    })
    expect(application.statusCode, application.body).toBe(200)
    expect(step(application.json(), 'application')).toMatchObject({ status: 'done' })

    const agreement = await call(t.app, { url: '/api/partner/agreement', token: partner.token })
    expect(agreement.json()).toMatchObject({ version: AGREEMENT_VERSION, sha256: AGREEMENT_SHA256 })
    expect(agreement.json().text).toContain('Partner Agreement')

    const stale = await call(t.app, {
      method: 'POST',
      url: '/api/partner/agreement',
      token: partner.token,
      body: { version: '1999-01', signerName: 'Ada', accepted: true },
    })
    expectProblem(stale, 400, 'parameter_invalid')
    expect(stale.json().param).toBe('version')
    const notAccepted = await call(t.app, {
      method: 'POST',
      url: '/api/partner/agreement',
      token: partner.token,
      body: { version: AGREEMENT_VERSION, signerName: 'Ada', accepted: false },
    })
    expectProblem(notAccepted, 400, 'parameter_invalid')

    const signed = await call(t.app, {
      method: 'POST',
      url: '/api/partner/agreement',
      token: partner.token,
      body: { version: AGREEMENT_VERSION, signerName: 'Ada Lovelace', accepted: true },
      headers: { 'x-forwarded-for': '198.51.100.7' },
    })
    expect(signed.statusCode, signed.body).toBe(200)
    expect(step(signed.json(), 'agreement')).toMatchObject({ status: 'done' })
    const events = await call(t.app, { url: '/api/org-events?action=partner.agreement_signed', token: partner.token })
    const [event] = events.json().data
    expect(event.data).toMatchObject({
      version: AGREEMENT_VERSION,
      signerName: 'Ada Lovelace',
      userId: partner.userId,
      textSha256: AGREEMENT_SHA256,
      address: expect.any(String),
      signedAt: expect.any(String),
    })
    expect(event.hash).toMatch(/^sha256:[0-9a-f]{64}$/)
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/partner/agreement',
        token: partner.token,
        body: { version: AGREEMENT_VERSION, signerName: 'Again', accepted: true },
      }),
      409,
      'conflict',
    )
  })

  it('lets only an owner or admin of the sandbox org act for the partner', async () => {
    const partner = await signUpPartner(t.app)
    const owner: OrgAccount = {
      token: partner.token,
      userId: partner.userId,
      email: partner.email,
      orgId: partner.orgId,
    }
    const { memberWithRole } = await import('../../../test/helpers.js')
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    expect((await call(t.app, { url: '/api/partner', token: viewer.token })).statusCode).toBe(200)
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/partner/application',
        token: viewer.token,
        body: { website: 'https://acme.example', useCase: 'x', expectedMonthlyRequests: 1 },
      }),
      403,
      'forbidden',
    )
  })
})

describe('integration_testing', () => {
  it('is done only once the sandbox client got a token, read the feed and had a delivery answered 2xx', async () => {
    const partner = await signUpPartner(t.app)
    const checks = async () => step(await partnerOf(partner), 'integration_testing')

    // Nothing the partner does with a session, nor another client of the org, counts.
    await call(t.app, { url: '/api/org-events', token: partner.token })
    const other = await createClient(
      t.app,
      { token: partner.token, userId: partner.userId, email: partner.email, orgId: partner.orgId },
      ['events:read'],
    )
    const otherToken = await accessToken(t.app, other, 'events:read')
    await call(t.app, { url: `/v1/orgs/${partner.orgId}/events`, token: otherToken })
    expect(await checks()).toMatchObject({
      status: 'pending',
      checks: { tokenIssuedAt: null, feedReadAt: null, webhookDeliveredAt: null },
    })

    const token = await sandboxToken(partner, 'events:read webhooks:write')
    expect(await checks()).toMatchObject({ status: 'pending', checks: { tokenIssuedAt: expect.any(String) } })
    // Another endpoint of the feed family (one event) is not the feed.
    await call(t.app, { url: `/v1/orgs/${partner.orgId}/members`, token })
    expect((await checks()).checks).toMatchObject({ feedReadAt: null })
    expect((await call(t.app, { url: `/v1/orgs/${partner.orgId}/events`, token })).statusCode).toBe(200)
    expect((await checks()).checks).toMatchObject({ feedReadAt: expect.any(String), webhookDeliveredAt: null })

    // A delivery that fails does not count; one answered 2xx does.
    const created = await call(t.app, {
      method: 'POST',
      url: `/v1/orgs/${partner.orgId}/webhooks`,
      token,
      body: { url: receiver.url(), events: ['partner.approved'] },
    })
    expect(created.statusCode, created.body).toBe(201)
    receiver.answer(500)
    await call(t.app, { method: 'POST', url: `/v1/orgs/${partner.orgId}/webhooks/${created.json().id}/test`, token })
    await drain(t.deliveries)
    expect((await checks()).checks).toMatchObject({ webhookDeliveredAt: null })
    await call(t.app, { method: 'POST', url: `/v1/orgs/${partner.orgId}/webhooks/${created.json().id}/test`, token })
    await drain(t.deliveries)
    const done = await checks()
    expect(done).toMatchObject({ status: 'done', completedAt: expect.any(String) })
    expect((await partnerOf(partner)).onboarding.currentlyDue).not.toContain('integration_testing')
  })

  it('is not marked by another partner’s traffic', async () => {
    const first = await signUpPartner(t.app)
    const second = await signUpPartner(t.app)
    const token = await sandboxToken(first, 'events:read')
    await call(t.app, { url: `/v1/orgs/${first.orgId}/events`, token })
    expect(step(await partnerOf(second), 'integration_testing')).toMatchObject({
      checks: { tokenIssuedAt: null, feedReadAt: null, webhookDeliveredAt: null },
    })
  })
})
