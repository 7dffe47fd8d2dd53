import * as oauth from 'openid-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCOPES } from '../../platform/permissions.js'
import {
  buildTestApp,
  call,
  expectProblem,
  ownerWithOrg,
  type OrgAccount,
  type TestApp,
} from '../../../test/helpers.js'
import { createClient, type ClientCredentials } from '../../../test/partner-helpers.js'
import { DISCOVERY_PATH } from './oauth.discovery.js'

// The address clients know the deployment by; the test's server listens on a port of its own behind it.
const PUBLIC_URL = 'https://auth.oeuvre.test'

let t: TestApp
let owner: OrgAccount
let client: ClientCredentials
let listening: string

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL } })
  owner = await ownerWithOrg(t.app, { environment: 'sandbox' })
  client = await createClient(t.app, owner, ['events:read', 'members:read'])
  listening = await t.app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(() => t.close())

/** What a reverse proxy does: PUBLIC_URL's requests reach the listening server. */
const throughProxy: oauth.CustomFetch = (url, options) => fetch(url.replace(PUBLIC_URL, listening), options)

describe(`GET ${DISCOVERY_PATH}`, () => {
  it('answers RFC 8414 metadata naming this deployment’s token endpoint', async () => {
    const response = await call(t.app, { url: DISCOVERY_PATH })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.headers['cache-control']).toBe('public, max-age=3600')
    expect(response.headers['x-request-id']).toMatch(/^req_/)
    expect(response.json()).toEqual({
      issuer: PUBLIC_URL,
      token_endpoint: `${PUBLIC_URL}/oauth/token`,
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      scopes_supported: [...SCOPES],
      response_types_supported: [],
      service_documentation: `${PUBLIC_URL}/docs`,
    })
  })

  it('is public and not rate limited: a credential is not looked at, and 200 requests from one address are all served', async () => {
    const withToken = await call(t.app, { url: DISCOVERY_PATH, token: 'oat_not_a_token' })
    expect(withToken.statusCode).toBe(200)
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => t.app.inject({ url: DISCOVERY_PATH, remoteAddress: '198.51.100.20' })),
    )
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true)
    expect(answers[0]!.headers['x-ratelimit-limit']).toBeUndefined()
  })

  it('answers another method with 405 problem details', async () => {
    const response = await call(t.app, { method: 'POST', url: DISCOVERY_PATH, body: {} })
    expectProblem(response, 405, 'method_not_allowed')
    expect(response.headers.allow).toContain('GET')
  })

  it('is in the OpenAPI document', async () => {
    const document = (await call(t.app, { url: '/openapi.json' })).json()
    const operation = document.paths[DISCOVERY_PATH].get
    expect(operation.operationId).toBe('getAuthorizationServerMetadata')
    expect(operation.security).toEqual([])
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/AuthorizationServerMetadata',
    })
    expect(operation.responses['429']).toBeUndefined()
  })
})

describe('a third-party OAuth client configured by discovery alone', () => {
  it.each([
    ['client_secret_basic', () => oauth.ClientSecretBasic(client.secret)],
    ['client_secret_post', () => oauth.ClientSecretPost(client.secret)],
  ])('gets a token with %s from the token endpoint the metadata names, and reads the feed with it', async (_, auth) => {
    const config = await oauth.discovery(new URL(PUBLIC_URL), client.id, undefined, auth(), {
      algorithm: 'oauth2',
      [oauth.customFetch]: throughProxy,
    })
    expect(config.serverMetadata().token_endpoint).toBe(`${PUBLIC_URL}/oauth/token`)
    const tokens = await oauth.clientCredentialsGrant(config, { scope: 'events:read' })
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'events:read' })
    expect(tokens.access_token).toMatch(/^oat_/)
    const feed = await call(t.app, { url: `/v1/orgs/${owner.orgId}/events?limit=1`, token: tokens.access_token })
    expect(feed.statusCode, feed.body).toBe(200)
  })

  it('reports the token endpoint’s refusal of a wrong secret as the RFC 6749 error', async () => {
    const config = await oauth.discovery(
      new URL(PUBLIC_URL),
      client.id,
      undefined,
      oauth.ClientSecretPost('cs_test_wrong'),
      { algorithm: 'oauth2', [oauth.customFetch]: throughProxy },
    )
    await expect(oauth.clientCredentialsGrant(config, { scope: 'events:read' })).rejects.toMatchObject({
      error: 'invalid_client',
      status: 401,
    })
  })
})
