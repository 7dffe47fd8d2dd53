import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PERMISSIONS } from '../src/platform/permissions.js'
import type { RouteEntry } from '../src/platform/http.js'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  memberWithRole,
  ownerWithOrg,
  type OrgAccount,
  type TestApp,
} from './helpers.js'

/**
 * Generated from the route table: a route added without auth, access or idempotency
 * configuration fails here, and every route is probed without a token and with a
 * role that may not use it.
 */
let t: TestApp
let owner: OrgAccount
let viewer: OrgAccount
let routes: RouteEntry[]

const FAKE_ID = '01JZ0000000000000000000000'
const concrete = (url: string, orgId: string) =>
  url.replace(':orgId', orgId).replace(/:([A-Za-z]+)/g, (_, name: string) => `${name === 'id' ? 'x' : name}_${FAKE_ID}`)

/** Session routes that are not about one org's data. */
const ACCOUNT_ROUTES = new Set([
  '/api/auth/logout',
  '/api/me',
  '/api/orgs',
  '/api/session/active-org',
  '/api/invitations/accept',
  '/api/account/email-preferences',
  // The partner program: the partner is the caller's, whatever the active org.
  '/api/partner',
  '/api/partner/application',
  '/api/partner/agreement',
  '/api/partner/review-requests',
  '/api/partners/apply',
  // A client's own org: any token may read where it acts, whatever its scopes.
  '/v1/orgs',
])
/** Routes anyone may call. */
const PUBLIC_ROUTES = new Set([
  '/api/auth/signup',
  '/api/auth/login',
  '/api/auth/signup/cookie',
  '/api/auth/login/cookie',
  '/api/partners/signup',
  '/api/partners/signup/cookie',
  '/api/deployment',
  '/v1/evidence/keys',
  // References, like the API reference: what each webhook and email kind is.
  '/api/webhook-kinds',
  '/api/email-kinds',
  // The token in the body is the credential: an invitation link, a password-reset link.
  '/api/invitations/preview',
  '/api/auth/password-reset',
  '/api/auth/password-reset/confirm',
])
/** POSTs that change no stored record of a resource. */
const NOT_IDEMPOTENT = new Set([
  '/api/auth/login',
  '/api/auth/logout',
  '/api/session/active-org',
  '/oauth/token',
  // The web app's cookie sign-in: a replayed answer could not set the cookie again.
  '/api/auth/login/cookie',
  '/api/auth/signup/cookie',
  '/api/partners/signup/cookie',
  // A read that takes its token in the body, out of URLs and logs.
  '/api/invitations/preview',
  // A second request sends a second email (throttled); the link's token is single-use.
  '/api/auth/password-reset',
  '/api/auth/password-reset/confirm',
])

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
  viewer = await memberWithRole(t.app, owner, 'viewer')
  routes = t.app.routeTable.filter((route) => route.url.startsWith('/api/') || route.url.startsWith('/v1/'))
})
afterAll(() => t.close())

describe('the route table', () => {
  it('declares auth on every /api and /v1 route, and access on every org-scoped one', () => {
    expect(routes.length).toBeGreaterThan(5)
    for (const route of routes) {
      const name = `${route.method} ${route.url}`
      if (PUBLIC_ROUTES.has(route.url)) continue
      expect(route.config.auth, `${name} must declare auth`).toMatch(/^(session|client)$/)
      // Operator routes: no role of an org reaches them (partners.operator.test.ts probes them).
      if (route.config.operator) continue
      if (!ACCOUNT_ROUTES.has(route.url)) expect(route.config.access, `${name} must declare access`).toBeDefined()
    }
  })

  it('makes every POST that creates or changes something accept Idempotency-Key', () => {
    for (const route of routes.filter((r) => r.method === 'POST' && !NOT_IDEMPOTENT.has(r.url))) {
      expect(route.config.idempotent, `${route.method} ${route.url}`).toBe(true)
    }
  })
})

describe('every authenticated route', () => {
  it('answers 401 without a token and with a token of the wrong kind, writing nothing', async () => {
    const before = await eventCount(t.db, owner.orgId)
    // Operator routes answer 404 instead (partners.operator.test.ts).
    for (const route of routes.filter(
      (r) => (r.config.auth === 'session' || r.config.auth === 'client') && !r.config.operator,
    )) {
      // Unauthenticated probes draw on the per-address bucket (60/min): let it refill between routes.
      t.clock.advance(2_000)
      const url = concrete(route.url, owner.orgId)
      const method = route.method as 'GET'
      const body = method === 'GET' || method === 'DELETE' ? undefined : {}
      // The partner surface answers a missing token as invalid_token (issue: Partner surface).
      const missing = route.config.auth === 'client' ? 'invalid_token' : 'authentication_required'
      expectProblem(await call(t.app, { method, url, body }), 401, missing)
      const wrongKind = route.config.auth === 'session' ? 'oat_not_a_session' : owner.token
      expectProblem(await call(t.app, { method, url, body, token: wrongKind }), 401, 'invalid_token')
    }
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })

  it('answers 403 to a role the permission table does not allow, writing nothing', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const denied = routes.filter(
      (r) => r.config.auth === 'session' && r.config.access && !PERMISSIONS[r.config.access].includes('viewer'),
    )
    expect(denied.length).toBeGreaterThan(0)
    for (const route of denied) {
      const method = route.method as 'GET'
      const response = await call(t.app, {
        method,
        url: concrete(route.url, owner.orgId),
        token: viewer.token,
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
      })
      expectProblem(response, 403, 'forbidden')
    }
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })
})
