import { readFile } from 'node:fs/promises'
import { Validator } from '@seriousme/openapi-schema-validator'
import openapiTS, { astToString } from 'openapi-typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPENAPI_FILE, openApiText } from '../scripts/openapi-document.js'
import { compileValidator } from '../src/platform/validation.js'
import { buildTestApp, call, type TestApp } from './helpers.js'

interface Media {
  schema?: { $ref?: string }
  example?: unknown
}
interface Response {
  $ref?: string
  headers?: Record<string, { $ref?: string }>
  content?: Record<string, Media>
}
interface Parameter {
  $ref?: string
  name?: string
  in?: string
  required?: boolean
  schema?: { default?: unknown }
}
interface Operation {
  operationId?: string
  parameters?: Parameter[]
  requestBody?: { content: Record<string, Media> }
  responses: Record<string, Response>
  'x-oeuvre-resource'?: string
  'x-oeuvre-method'?: string
}
interface Document {
  paths: Record<string, Record<string, Operation>>
  components: {
    schemas: Record<string, object>
    responses: Record<string, Response>
    headers: Record<string, object>
    parameters: Record<string, Parameter>
  }
}

let t: TestApp
let document: Document
let served: string

beforeAll(async () => {
  t = await buildTestApp()
  const response = await call(t.app, { url: '/openapi.json' })
  served = response.body
  document = response.json()
})
afterAll(() => t.close())

const operations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation, name: `${method} ${path}` })),
  )
const component = <T>(map: Record<string, T>, ref: string): T => map[ref.split('/').pop()!]!
const resolve = (response: Response): Response =>
  response.$ref ? component(document.components.responses, response.$ref) : response

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 by a maintained validator', async () => {
    const result = await new Validator().validate(structuredClone(document) as unknown as Record<string, unknown>)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(Object.keys(document.paths).length).toBeGreaterThan(50)
  })

  it('names every operation once, as a method name; the /v1 twins carry the surface', () => {
    const ids = operations().map(({ operation, name }) => {
      expect(operation.operationId, name).toMatch(/^[a-z][A-Za-z0-9]+$/)
      return operation.operationId
    })
    expect(new Set(ids).size).toBe(ids.length)
    for (const { path, operation, name } of operations())
      expect(operation.operationId!.startsWith('v1'), name).toBe(path.startsWith('/v1/'))
    const id = (method: string, path: string) => document.paths[path]?.[method]?.operationId
    expect(id('get', '/api/catalog')).toBe('listCatalogEntries')
    expect(id('post', '/api/catalog')).toBe('createCatalogEntry')
    expect(id('get', '/api/catalog/{id}')).toBe('getCatalogEntry')
    expect(id('get', '/v1/orgs/{orgId}/catalog')).toBe('v1ListCatalogEntries')
    expect(id('post', '/oauth/token')).toBe('requestAccessToken')
  })

  it('groups every /v1 operation by resource and method, each pair once', () => {
    const pairs = operations()
      .filter(({ path }) => path.startsWith('/v1/'))
      .map(({ operation, name }) => {
        expect(operation['x-oeuvre-resource'], name).toMatch(/^[a-z][A-Za-z]+$/)
        expect(operation['x-oeuvre-method'], name).toMatch(/^[a-z][A-Za-z]+$/)
        return `${operation['x-oeuvre-resource']}.${operation['x-oeuvre-method']}`
      })
    expect(new Set(pairs).size).toBe(pairs.length)
    expect(pairs).toEqual(
      expect.arrayContaining([
        'catalog.list',
        'catalog.create',
        'catalog.get',
        'events.list',
        'ticketedEvents.publish',
        'payouts.markInTransit',
        'webhooks.rotateSecret',
        'webhooks.listDeliveries',
        'seals.getConsistency',
      ]),
    )
    for (const { path, operation } of operations())
      if (!path.startsWith('/v1/')) expect(operation['x-oeuvre-resource']).toBeUndefined()
  })

  it('requires no query parameter that has a default; limit is optional everywhere', () => {
    let limits = 0
    for (const { operation, name } of operations()) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query') continue
        if (parameter.schema?.default !== undefined)
          expect(parameter.required, `${name} ?${parameter.name}`).toBe(false)
        if (parameter.name === 'limit') limits += 1
      }
    }
    expect(limits).toBeGreaterThanOrEqual(21)
  })

  it('documents every error as problem+json with the Problem component, and the statuses each route can answer', () => {
    for (const route of t.app.routeTable) {
      const path = route.url.replace(/:(\w+)/g, '{$1}')
      const operation = document.paths[path]?.[route.method.toLowerCase()]
      if (!operation) continue
      const name = `${route.method} ${path}`
      const statuses = Object.keys(operation.responses).map(Number)
      const expected = route.config.rateLimit === false ? [500] : [429, 500]
      if (path !== '/oauth/token') {
        expected.push(503)
        if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)) expected.push(413, 415)
        if (route.config.auth === 'session' || route.config.auth === 'client') expected.push(401)
        if (route.config.access) expected.push(403)
        if (path.includes('{')) expected.push(404)
        if (route.config.idempotent) expected.push(409, 422)
      }
      expect(statuses, name).toEqual(expect.arrayContaining(expected))
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue
        const content = resolve(response).content ?? {}
        if (path === '/oauth/token') {
          // RFC 6749 section 5.2 errors, as OAuth clients expect.
          expect(content['application/json']?.schema?.$ref, `${name} ${status}`).toBe('#/components/schemas/OAuthError')
          continue
        }
        expect(Object.keys(content), `${name} ${status}`).toEqual(['application/problem+json'])
        expect(content['application/problem+json']!.schema?.$ref).toBe('#/components/schemas/Problem')
      }
    }
  })

  it('gives each shared error response an example that is a valid problem of its status', () => {
    const problem = compileValidator({ $ref: '#/components/schemas/Problem', components: document.components }, 'body')
    for (const [name, response] of Object.entries(document.components.responses)) {
      const example = response.content?.['application/problem+json']?.example as { status: number; type: string }
      expect(problem(example), `${name}: ${JSON.stringify(problem.errors)}`).toBe(true)
      expect(example.type).toMatch(/^http:\/\/127\.0\.0\.1:3000\/docs\/errors\/[a-z_]+$/)
    }
  })

  it('documents Idempotency-Key on idempotent operations and the response headers as components', () => {
    const ref = (name: string) => ({ $ref: `#/components/headers/${name}` })
    for (const route of t.app.routeTable) {
      const path = route.url.replace(/:(\w+)/g, '{$1}')
      const operation = document.paths[path]?.[route.method.toLowerCase()]
      if (!operation) continue
      const name = `${route.method} ${path}`
      const keyParameter = (operation.parameters ?? []).some(
        (parameter) => parameter.$ref === '#/components/parameters/IdempotencyKey',
      )
      expect(keyParameter, name).toBe(route.config.idempotent === true)
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers = resolve(response).headers ?? {}
        expect(headers['X-Request-Id'], `${name} ${status}`).toEqual(ref('X-Request-Id'))
        // Error responses are shared components; a route that is not rate limited documents no X-RateLimit-* of its own.
        const limited = route.config.rateLimit !== false || Number(status) >= 400
        for (const header of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'])
          expect(headers[header], `${name} ${status} ${header}`).toEqual(limited ? ref(header) : undefined)
        if (['409', '429', '503'].includes(status))
          expect(headers['Retry-After'], `${name} ${status}`).toEqual(ref('Retry-After'))
        if (status === '401' || status === '403')
          expect(headers['WWW-Authenticate'], `${name} ${status}`).toEqual(ref('WWW-Authenticate'))
      }
    }
    expect(document.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header' })
    expect(Object.keys(document.components.headers)).toEqual(
      expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id']),
    )
  })

  it('refers to shared schemas instead of copies, and stays small', () => {
    for (const { operation, name } of operations()) {
      const media = [
        ...Object.values(operation.requestBody?.content ?? {}),
        ...Object.values(operation.responses).flatMap((response) => Object.values(response.content ?? {})),
      ]
      for (const each of media) expect(each.schema?.$ref, name).toMatch(/^#\/components\/schemas\/[A-Za-z]+$/)
    }
    for (const record of ['CatalogEntry', 'CatalogEntryList', 'Creator', 'OrgEvent', 'Payout', 'Webhook', 'Problem'])
      expect(document.components.schemas, record).toHaveProperty(record)
    // The mark that names a component stays in the schemas; the document has $refs instead.
    expect(served).not.toContain('x-oeuvre-component')
    // With every schema inlined it was 1,015,158 bytes, over 10 KB an operation; shared, an
    // operation is about 2.4 KB (its examples, summary and $refs), whatever the route count.
    const operationCount = operations().length
    expect(Buffer.byteLength(served) / operationCount).toBeLessThan(3_000)
  })

  it('is what openapi.json holds (regenerate it with npm run openapi:dump)', async () => {
    expect(await readFile(OPENAPI_FILE, 'utf8')).toBe(await openApiText(t.db))
  })

  it('gives openapi-typescript types for every record, none of them unknown', async () => {
    const types = astToString(await openapiTS(structuredClone(document) as never))
    for (const name of Object.keys(document.components.schemas))
      expect(types, name).toMatch(new RegExp(`\\n {8}${name}: `))
    // Only an org event's `data` is open by design: its shape depends on the event's action. It
    // appears twice: in OrgEvent and in OrgEventDetail (the same event with its previousHash).
    const unknownMembers = [...types.matchAll(/^\s+"?([\w-]+)"?\??: unknown;$/gm)].map((match) => match[1])
    expect(unknownMembers).toEqual(['data', 'data'])
    for (const name of ['OrgEvent', 'OrgEventDetail']) {
      const record = new RegExp(`\\n {8}${name}: \\{\\n([\\s\\S]*?)\\n {8}\\}`).exec(types)?.[1] ?? ''
      expect(record, name).toMatch(/^ {12}data: unknown;$/m)
    }
    expect(types).toContain('"application/problem+json": components["schemas"]["Problem"]')
  })
})
