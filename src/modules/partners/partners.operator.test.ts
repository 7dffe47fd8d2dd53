import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  signup,
  type Account,
  type TestApp,
} from '../../../test/helpers.js'
import { requestToken } from '../../../test/partner-helpers.js'
import { signUpPartner, type SignedUpPartner } from '../../../test/partner-program-helpers.js'
import { AGREEMENT_VERSION } from './partners.agreement.js'
import { addBusinessDays } from './partners.onboarding.js'

let t: TestApp
let operator: Account
let stranger: Account
beforeAll(async () => {
  t = await buildTestApp()
  operator = await signup(t.app, 'operator')
  await t.services.partners.addOperator(operator.email)
  stranger = await signup(t.app, 'stranger')
})
afterAll(() => t.close())

const FAKE_PARTNER = `prt_2JZ${'0'.repeat(23)}`

/** A partner with every step before go_live done, its integration traffic marked as the real traffic would. */
async function readyPartner(tier: 'api_partner' | 'platform_integrator' = 'api_partner'): Promise<SignedUpPartner> {
  const partner = await signUpPartner(t.app, tier)
  const application = await call(t.app, {
    method: 'POST',
    url: '/api/partner/application',
    token: partner.token,
    body: { website: 'https://acme.example', useCase: 'Dashboards', expectedMonthlyRequests: 1000 },
  })
  expect(application.statusCode, application.body).toBe(200)
  const agreement = await call(t.app, {
    method: 'POST',
    url: '/api/partner/agreement',
    token: partner.token,
    body: { version: AGREEMENT_VERSION, signerName: 'Ada', accepted: true },
  })
  expect(agreement.statusCode, agreement.body).toBe(200)
  // Token and feed for real; the 2xx delivery is covered in partners.onboarding.test.ts, set here directly.
  const token = await requestToken(t.app, {
    grant_type: 'client_credentials',
    client_id: partner.client.id,
    client_secret: partner.client.secret,
    scope: 'events:read',
  })
  await call(t.app, { url: `/v1/orgs/${partner.orgId}/events`, token: token.json().access_token })
  await t.db.global
    .updateTable('partners')
    .set({ integration_webhook_at: t.clock.now() })
    .where('id', '=', partner.partnerId)
    .execute()
  return partner
}

const review = (partner: SignedUpPartner) =>
  call(t.app, { method: 'POST', url: '/api/partner/review-requests', token: partner.token })
const op = (path: string, body?: unknown, token = operator.token) =>
  call(t.app, { method: 'POST', url: `/api/operator/partners${path}`, token, ...(body === undefined ? {} : { body }) })
/** The partner_review emails queued for the partner's owner, by the decision each names. */
const reviewEmails = async (partner: SignedUpPartner) =>
  (
    await t.db.global
      .selectFrom('email_outbox')
      .select(['to_address', 'variables'])
      .where('tenant_org', '=', partner.orgId)
      .where('kind', '=', 'partner_review')
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  ).map((row) => `${row.to_address} ${row.variables.decision as string}`)

describe('review requests', () => {
  it('needs every earlier step done (422 naming them), writing nothing', async () => {
    const partner = await signUpPartner(t.app)
    const before = await eventCount(t.db, partner.orgId)
    const refused = await review(partner)
    expectProblem(refused, 422, 'invalid_state')
    expect(refused.json().currentlyDue).toEqual(['application', 'agreement', 'integration_testing'])
    expect(await eventCount(t.db, partner.orgId)).toBe(before)
  })

  it('lets exactly one of two simultaneous requests in: 201 and 409 conflict', async () => {
    const partner = await readyPartner()
    const answers = await Promise.all([review(partner), review(partner)])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409])
    expectProblem(
      answers.find((a) => a.statusCode === 409)!,
      409,
      'conflict',
    )
    const open = await t.db.global
      .selectFrom('partner_review_requests')
      .select('id')
      .where('partner_id', '=', partner.partnerId)
      .where('status', '=', 'open')
      .execute()
    expect(open).toHaveLength(1)
    const got = (await call(t.app, { url: '/api/partner', token: partner.token })).json()
    expect(got.status).toBe('in_review')
    expect(got.onboarding.steps.at(-1)).toMatchObject({ key: 'go_live', status: 'waiting_review' })
  })

  it('keeps one open request per partner in the database itself', async () => {
    const partner = await readyPartner()
    expect((await review(partner)).statusCode).toBe(201)
    await expect(
      t.db.global
        .insertInto('partner_review_requests')
        .values({
          id: 'prq_x',
          partner_id: partner.partnerId,
          status: 'open',
          requested_at: t.clock.now(),
          requested_by: partner.userId,
          decided_at: null,
          decided_by: null,
          reason: null,
        })
        .execute(),
    ).rejects.toMatchObject({ code: '23505' })
  })
})

describe('operator decisions', () => {
  it('runs sandbox -> in_review -> changes_requested -> in_review -> live <-> suspended, each an org event naming the operator', async () => {
    const partner = await readyPartner()
    expect((await review(partner)).statusCode).toBe(201)

    const changes = await op(`/${partner.partnerId}/request-changes`, { reason: 'Name your webhook consumer' })
    expect(changes.statusCode, changes.body).toBe(200)
    expect(changes.json()).toMatchObject({ status: 'changes_requested', statusReason: 'Name your webhook consumer' })
    const seen = (await call(t.app, { url: '/api/partner', token: partner.token })).json()
    expect(seen.onboarding.steps.at(-1)).toMatchObject({
      key: 'go_live',
      status: 'changes_requested',
      detail: 'Name your webhook consumer',
    })
    expect(seen.onboarding.currentlyDue).toEqual(['go_live'])

    expect((await review(partner)).statusCode).toBe(201)
    const approved = await op(`/${partner.partnerId}/approve`, {})
    expect(approved.statusCode, approved.body).toBe(200)
    expect(approved.json()).toMatchObject({ status: 'live', statusReason: null })
    expect(approved.json().reviewRequests.map((r: { status: string }) => r.status)).toEqual([
      'approved',
      'changes_requested',
    ])

    expect((await op(`/${partner.partnerId}/suspend`, { reason: 'Abuse report' })).json().status).toBe('suspended')
    expect((await op(`/${partner.partnerId}/resume`)).json().status).toBe('live')

    const events = await call(t.app, { url: '/api/org-events?limit=100', token: partner.token })
    const partnerEvents = events
      .json()
      .data.filter((e: { action: string }) => e.action.startsWith('partner.') && e.action !== 'partner.created')
    expect(partnerEvents.map((e: { action: string }) => e.action)).toEqual([
      'partner.application_submitted',
      'partner.agreement_signed',
      'partner.review_requested',
      'partner.changes_requested',
      'partner.review_requested',
      'partner.approved',
      'partner.suspended',
      'partner.resumed',
    ])
    for (const event of partnerEvents
      .slice(3)
      .filter((e: { action: string }) => e.action !== 'partner.review_requested')) {
      expect(event.userId).toBe(operator.userId)
      expect(event.data.operator).toMatchObject({ userId: operator.userId, email: operator.email })
    }
    expect(await reviewEmails(partner)).toEqual(
      ['submitted', 'changes_requested', 'submitted', 'approved', 'suspended', 'resumed'].map(
        (decision) => `${partner.email} ${decision}`,
      ),
    )
  })

  it('rejects with a reason; a decision the status does not allow is 422 invalid_state and writes nothing', async () => {
    const partner = await readyPartner()
    const before = await eventCount(t.db, partner.orgId)
    expectProblem(await op(`/${partner.partnerId}/approve`, {}), 422, 'invalid_state')
    expectProblem(await op(`/${partner.partnerId}/resume`), 422, 'invalid_state')
    expect(await eventCount(t.db, partner.orgId)).toBe(before)
    const missing = await op(`/${partner.partnerId}/reject`, {})
    expectProblem(missing, 400, 'parameter_missing')
    expect(missing.json().param).toBe('reason')
    expect((await review(partner)).statusCode).toBe(201)
    const rejected = await op(`/${partner.partnerId}/reject`, { reason: 'Not a fit' })
    expect(rejected.json()).toMatchObject({ status: 'rejected', statusReason: 'Not a fit' })
    expectProblem(await review(partner), 422, 'invalid_state')
  })

  it('lists partners by status and shows one with its application and agreement evidence', async () => {
    const partner = await readyPartner()
    expect((await review(partner)).statusCode).toBe(201)
    const listed = await call(t.app, {
      url: '/api/operator/partners?status=in_review&limit=100',
      token: operator.token,
    })
    expect(listed.statusCode, listed.body).toBe(200)
    expect(listed.json().data.every((p: { status: string }) => p.status === 'in_review')).toBe(true)
    expect(listed.json().data.map((p: { id: string }) => p.id)).toContain(partner.partnerId)
    const shown = await call(t.app, { url: `/api/operator/partners/${partner.partnerId}`, token: operator.token })
    expect(shown.json()).toMatchObject({
      id: partner.partnerId,
      user: { id: partner.userId, email: partner.email },
      application: { website: 'https://acme.example', expectedMonthlyRequests: 1000 },
      agreement: { version: AGREEMENT_VERSION, signerName: 'Ada', userId: partner.userId },
      reviewRequests: [{ status: 'open' }],
    })
    expectProblem(
      await call(t.app, { url: `/api/operator/partners/${FAKE_PARTNER}`, token: operator.token }),
      404,
      'resource_missing',
    )
  })
})

describe('answering changes requested', () => {
  it('edits the application into a new version, keeps every earlier one readable, and says when the review is expected', async () => {
    const partner = await readyPartner()
    expect((await review(partner)).statusCode).toBe(201)
    const inReview = await call(t.app, { url: '/api/partner', token: partner.token })
    // Three business days after the request (addBusinessDays skips weekends: tested above it).
    expect(inReview.json()).toMatchObject({ status: 'in_review', reviewExpectedBy: addBusinessDays(t.clock.now(), 3) })
    expect(
      (await op(`/${partner.partnerId}/request-changes`, { reason: 'Say how you store our tokens' })).statusCode,
    ).toBe(200)
    const asked = await call(t.app, { url: '/api/partner', token: partner.token })
    expect(asked.json()).toMatchObject({
      status: 'changes_requested',
      statusReason: 'Say how you store our tokens',
      reviewExpectedBy: null,
    })
    const edited = await call(t.app, {
      method: 'POST',
      url: '/api/partner/application',
      token: partner.token,
      body: { website: 'https://acme.example', useCase: 'Dashboards; tokens in a KMS', expectedMonthlyRequests: 2000 },
    })
    expect(edited.statusCode, edited.body).toBe(200)
    const versions = edited.json().applications as { version: number; useCase: string }[]
    expect(versions.map((v) => [v.version, v.useCase])).toEqual([
      [2, 'Dashboards; tokens in a KMS'],
      [1, 'Dashboards'],
    ])
    expect((await review(partner)).statusCode).toBe(201)
    const shown = await call(t.app, { url: `/api/operator/partners/${partner.partnerId}`, token: operator.token })
    expect(shown.json().applications.map((v: { version: number }) => v.version)).toEqual([2, 1])
    expect(shown.json().application).toMatchObject({ useCase: 'Dashboards; tokens in a KMS' })
    // A live partner's application stays as it was.
    expect((await op(`/${partner.partnerId}/approve`, {})).statusCode).toBe(200)
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/partner/application',
        token: partner.token,
        body: { website: 'https://acme.example', useCase: 'x', expectedMonthlyRequests: 1 },
      }),
      422,
      'invalid_state',
    )
  })
})

describe('every /api/operator route (from the route table)', () => {
  const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const
  /** What may differ between two answers of the same kind: the request's own id, its time, and the bucket's count. */
  const VARYING = new Set(['x-request-id', 'date', 'content-length', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
  const comparable = (response: LightMyRequestResponse, path: string) => ({
    status: response.statusCode,
    headers: Object.fromEntries(
      Object.entries(response.headers)
        .filter(([name]) => !VARYING.has(name))
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
    body:
      response.body === ''
        ? ''
        : { ...response.json(), requestId: null, detail: String(response.json().detail).replace(path, '<path>') },
  })

  it('answers 404 to anyone but an operator, on every method and with the headers of an unknown path, writing nothing', async () => {
    const partner = await readyPartner()
    const routes = t.app.routeTable.filter((route) => route.url.startsWith('/api/operator/'))
    expect(routes.length).toBe(7)
    for (const route of routes) expect(route.config.operator, route.url).toBe(true)
    const before = await eventCount(t.db, partner.orgId)
    const paths = [...new Set(routes.map((route) => route.url.replace(':id', partner.partnerId)))]
    let compared = 0
    for (const path of paths) {
      // The same path one letter off: a route that does not exist.
      const unknown = path.replace('/api/operator/', '/api/operatoz/')
      for (const method of METHODS) {
        const body = method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? undefined : { reason: 'x' }
        for (const token of [undefined, 'sess_not_a_token', stranger.token, partner.token]) {
          t.clock.advance(2_000)
          const asked = await call(t.app, { method, url: path, body, ...(token ? { token } : {}) })
          const control = await call(t.app, { method, url: unknown, body, ...(token ? { token } : {}) })
          expect(asked.statusCode, `${method} ${path}`).toBe(404)
          expect(comparable(asked, path), `${method} ${path}`).toEqual(comparable(control, unknown))
          // Both drew from the address's bucket, one after the other.
          expect(Number(asked.headers['x-ratelimit-remaining']) - 1).toBe(
            Number(control.headers['x-ratelimit-remaining']),
          )
          if (method !== 'HEAD') expect(asked.json().detail).toBe(`No route ${method} ${path}`)
          compared += 1
        }
      }
    }
    expect(compared).toBe(paths.length * METHODS.length * 4)
    expect(await eventCount(t.db, partner.orgId)).toBe(before)
  })

  it('still answers an operator, with the operator’s own rate limit', async () => {
    const listed = await call(t.app, { url: '/api/operator/partners', token: operator.token })
    expect(listed.statusCode).toBe(200)
    expect(listed.headers['x-ratelimit-limit']).toBe('600')
  })
})
