import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCOPES } from '../src/platform/permissions.js'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  ownerWithOrg,
  type OrgAccount,
  type TestApp,
} from './helpers.js'
import { accessToken, createClient, type ClientCredentials } from './partner-helpers.js'

// Every org route of the partner surface, read from the app's route table: a new one gets these cases for free.
// (/v1 routes outside /v1/orgs, such as the public evidence keys, take no token.)
let t: TestApp
let owner: OrgAccount
let stranger: OrgAccount
let client: ClientCredentials
let strangerEventId: string
let v1Routes: { method: string; url: string; access: string | undefined; auth: string | undefined }[]

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app, { environment: 'sandbox' })
  stranger = await ownerWithOrg(t.app, { environment: 'sandbox' })
  client = await createClient(t.app, owner, SCOPES)
  const strangerFeed = await t.services.audit.list(stranger.orgId, { limit: 1 })
  strangerEventId = strangerFeed.data[0]!.id
  v1Routes = t.app.routeTable
    .filter((route) => route.url.startsWith('/v1/orgs/'))
    .map((route) => ({ method: route.method, url: route.url, access: route.config.access, auth: route.config.auth }))
})
afterAll(() => t.close())

const pathFor = (url: string, orgId: string) =>
  url.replace(':orgId', orgId).replace(/:[A-Za-z]+/g, 'xyz_01M81B5H804211MF72VW5EZ040')
const send = (
  route: { method: string; url: string },
  orgId: string,
  token?: string,
  headers: Record<string, string> = {},
) =>
  call(t.app, { method: route.method as 'GET', url: pathFor(route.url, orgId), ...(token ? { token } : {}), headers })

describe('every /v1/orgs/:orgId route', () => {
  it('exists for the feed and the members, and each takes an access token and names a scope', () => {
    const urls = v1Routes.map((route) => `${route.method} ${route.url}`)
    expect(urls).toEqual(
      expect.arrayContaining([
        'GET /v1/orgs/:orgId/events',
        'GET /v1/orgs/:orgId/events/:eventId',
        'GET /v1/orgs/:orgId/members',
      ]),
    )
    for (const route of v1Routes) {
      expect(route.auth, `${route.method} ${route.url}`).toBe('client')
      expect(SCOPES, `${route.method} ${route.url}`).toContain(route.access)
    }
  })

  it('answers a missing, malformed, foreign or unknown token with 401 invalid_token', async () => {
    for (const route of v1Routes) {
      for (const headers of [
        {} as Record<string, string>,
        { authorization: 'Bearer' },
        { authorization: 'Basic abc' },
        { authorization: `Bearer ${owner.token}` },
        { authorization: 'Bearer oat_unknown' },
      ]) {
        const response = await send(route, owner.orgId, undefined, headers)
        expectProblem(response, 401, 'invalid_token')
        expect(response.headers['www-authenticate']).toContain('error="invalid_token"')
      }
      // Keep the address bucket from running dry: these requests are all unauthenticated.
      t.clock.advance(10_000)
    }
  })

  it('answers a token without the route’s scope with 403 insufficient_scope naming it', async () => {
    for (const route of v1Routes) {
      const otherScope = SCOPES.find((scope) => scope !== route.access)!
      const token = await accessToken(t.app, client, otherScope)
      const before = await eventCount(t.db, owner.orgId)
      const response = await send(route, owner.orgId, token)
      expectProblem(response, 403, 'insufficient_scope')
      expect(response.json().scope).toBe(route.access)
      expect(response.json().detail).toContain(route.access)
      expect(response.headers['www-authenticate']).toBe(
        `Bearer realm="oeuvre", error="insufficient_scope", scope="${route.access}"`,
      )
      expect(await eventCount(t.db, owner.orgId)).toBe(before)
    }
  })

  it('answers another org’s path with 404 and no data, even with every scope', async () => {
    const token = await accessToken(t.app, client, SCOPES.join(' '))
    const before = await eventCount(t.db, stranger.orgId)
    for (const route of v1Routes) {
      const response = await send(route, stranger.orgId, token)
      expectProblem(response, 404, 'resource_missing')
      expect(response.json()).not.toHaveProperty('data')
      expect(response.body).not.toContain(strangerEventId)
    }
    expect(await eventCount(t.db, stranger.orgId)).toBe(before)
  })
})

describe('records of another org under the client’s own org path', () => {
  it('are not found', async () => {
    const token = await accessToken(t.app, client, 'events:read')
    expectProblem(
      await call(t.app, { url: `/v1/orgs/${owner.orgId}/events/${strangerEventId}`, token }),
      404,
      'resource_missing',
    )
  })
})
