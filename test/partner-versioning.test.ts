import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TIERS } from '../src/platform/rate-limit.js'
import { compileValidator } from '../src/platform/validation.js'
import { buildTestApp, call, ownerWithOrg, type TestApp } from './helpers.js'
import { requestToken, sandboxPartner } from './partner-helpers.js'

const DEPRECATION = {
  V1_DEPRECATION_DATE: '2027-03-01T00:00:00Z',
  V1_SUNSET_DATE: '2028-03-01T00:00:00Z',
  V1_DEPRECATION_LINK: 'https://docs.oeuvre.dev/migrating-to-v2',
}

interface OpenApiMedia {
  schema?: object
  example?: unknown
  examples?: unknown
}
interface OpenApiOperation {
  requestBody?: { content?: Record<string, OpenApiMedia> }
  responses: Record<string, { content?: Record<string, OpenApiMedia> }>
}

/** A schema, or the component its `$ref` names. */
function resolved(openapi: { components: { schemas: Record<string, object> } }, schema: { $ref?: string }): object {
  return schema.$ref ? (openapi.components.schemas[schema.$ref.split('/').pop()!] ?? {}) : schema
}

let plain: TestApp
let deprecated: TestApp

beforeAll(async () => {
  plain = await buildTestApp()
  deprecated = await buildTestApp({ env: DEPRECATION })
})
afterAll(async () => {
  await plain.close()
  await deprecated.close()
})

describe('deprecation headers on /v1', () => {
  it('are absent while v1 is not deprecated', async () => {
    const { owner, token } = await sandboxPartner(plain.app)
    for (const response of [
      await call(plain.app, { url: `/v1/orgs/${owner.orgId}/events`, token }),
      await call(plain.app, { url: `/v1/orgs/${owner.orgId}/events` }),
    ]) {
      expect(response.headers.deprecation).toBeUndefined()
      expect(response.headers.sunset).toBeUndefined()
      expect(response.headers.link).toBeUndefined()
    }
  })

  it('appear on every /v1 response once configured, errors and 429s included, and nowhere else', async () => {
    const { owner, client, token } = await sandboxPartner(deprecated.app)
    const other = await ownerWithOrg(deprecated.app, { environment: 'sandbox' })
    const v1 = [
      await call(deprecated.app, { url: `/v1/orgs/${owner.orgId}/events`, token }),
      await call(deprecated.app, { url: `/v1/orgs/${owner.orgId}/members`, token }),
      await call(deprecated.app, { url: `/v1/orgs/${owner.orgId}/events` }),
      await call(deprecated.app, { url: `/v1/orgs/${other.orgId}/events`, token }),
      await call(deprecated.app, { url: '/v1/no-such-route', token }),
    ]
    expect(v1.map((response) => response.statusCode)).toEqual([200, 200, 401, 404, 404])
    const { remaining } = await deprecated.services.limiter.take(`cli:${client.id}`, TIERS.sandbox, 0)
    await deprecated.services.limiter.take(`cli:${client.id}`, TIERS.sandbox, remaining)
    const limited = await call(deprecated.app, { url: `/v1/orgs/${owner.orgId}/events`, token })
    expect(limited.statusCode).toBe(429)
    for (const response of [...v1, limited]) {
      // RFC 9745: a structured date in Unix seconds; RFC 8594: an HTTP-date; the link names the migration guide.
      expect(response.headers.deprecation).toBe(`@${Date.parse(DEPRECATION.V1_DEPRECATION_DATE) / 1000}`)
      expect(response.headers.deprecation).toBe('@1803859200')
      expect(response.headers.sunset).toBe('Wed, 01 Mar 2028 00:00:00 GMT')
      expect(response.headers.link).toBe(
        '<https://docs.oeuvre.dev/migrating-to-v2>; rel="deprecation"; type="text/html"',
      )
    }
    for (const response of [
      await call(deprecated.app, { url: '/api/me', token: owner.token }),
      await requestToken(deprecated.app, {
        grant_type: 'client_credentials',
        client_id: client.id,
        client_secret: client.secret,
        scope: 'events:read',
      }),
    ]) {
      expect(response.headers.deprecation).toBeUndefined()
      expect(response.headers.sunset).toBeUndefined()
    }
  })
})

describe('the OpenAPI document', () => {
  it('documents /oauth/token: form body, RFC 6749 errors, examples', async () => {
    const openapi = (await call(plain.app, { url: '/openapi.json' })).json()
    const token = openapi.paths['/oauth/token'].post
    expect(token.requestBody.content['application/x-www-form-urlencoded'].example).toMatchObject({
      grant_type: 'client_credentials',
    })
    expect(token.responses['200'].content['application/json'].example).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
    })
    for (const status of ['400', '401', '429']) {
      expect(resolved(openapi, token.responses[status].content['application/json'].schema)).toHaveProperty(
        'properties.error_description',
      )
    }
    expect(openapi.components.securitySchemes.oauth.flows.clientCredentials.tokenUrl).toBe('/oauth/token')
    expect(Object.keys(openapi.components.securitySchemes.oauth.flows.clientCredentials.scopes)).toContain(
      'events:read',
    )
  })

  it('documents every /v1 org route with its scope, its errors and a response schema', async () => {
    const openapi = (await call(plain.app, { url: '/openapi.json' })).json()
    const routes = plain.app.routeTable.filter((route) => route.url.startsWith('/v1/orgs/'))
    expect(routes.length).toBeGreaterThanOrEqual(3)
    for (const route of routes) {
      const path = route.url.replace(/:([A-Za-z]+)/g, '{$1}')
      const operation = openapi.paths[path]?.[route.method.toLowerCase()]
      expect(operation, `${route.method} ${path}`).toBeDefined()
      expect(operation.security).toEqual([{ oauth: [route.config.access] }])
      const success = Object.keys(operation.responses).find((status) => status.startsWith('2'))
      expect(success, `${route.method} ${path}`).toBeDefined()
      for (const status of ['401', '403', '404', '429'])
        expect(operation.responses, `${route.method} ${path}`).toHaveProperty(status)
    }
  })

  it('gives every partner-facing request body and response an example', async () => {
    const openapi = (await call(plain.app, { url: '/openapi.json' })).json()
    const paths = Object.entries(openapi.paths as Record<string, Record<string, OpenApiOperation>>).filter(
      ([path]) => path.startsWith('/v1') || path === '/oauth/token',
    )
    expect(paths.length).toBeGreaterThanOrEqual(4)
    for (const [path, operations] of paths) {
      for (const [method, operation] of Object.entries(operations)) {
        const media = [
          ...Object.values(operation.requestBody?.content ?? {}),
          ...Object.values(operation.responses).flatMap((response) => Object.values(response.content ?? {})),
        ]
        for (const each of media) expect(each.example ?? each.examples, `${method} ${path}`).toBeDefined()
        const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))
        const json = success?.[1].content?.['application/json']
        // A success example must be a valid response (204s have no body); its schema refers to the components.
        if (json?.schema && json.example !== undefined) {
          const validate = compileValidator({ ...json.schema, components: openapi.components }, 'body')
          expect(validate(json.example), `${method} ${path}: ${JSON.stringify(validate.errors)}`).toBe(true)
        }
      }
    }
  })

  it('gives examples for the feed, one event and the members', async () => {
    const openapi = (await call(plain.app, { url: '/openapi.json' })).json()
    const example = (path: string) => openapi.paths[path].get.responses['200'].content['application/json'].example
    expect(example('/v1/orgs/{orgId}/events').data[0]).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    })
    expect(example('/v1/orgs/{orgId}/events').pagination.cursor).toEqual(expect.any(String))
    expect(example('/v1/orgs/{orgId}/events/{eventId}').orgId).toMatch(/^org_/)
    expect(example('/v1/orgs/{orgId}/members').data[0].userId).toMatch(/^usr_/)
    const create = openapi.paths['/api/clients'].post
    expect(create.requestBody.content['application/json'].example).toMatchObject({
      scopes: ['events:read', 'members:read'],
    })
    expect(create.responses['201'].content['application/json'].example.secret).toMatch(/^cs_test_/)
  })
})
