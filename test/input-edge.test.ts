import fc from 'fast-check'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../src/platform/errors.js'
import type { RouteEntry } from '../src/platform/http.js'
import { SCOPES } from '../src/platform/permissions.js'
import { buildTestApp, call, eventCount, expectProblem, uniqueEmail, type OrgAccount, type TestApp } from './helpers.js'
import { expectOAuthError, requestToken, sandboxPartner, type ClientCredentials } from './partner-helpers.js'

/**
 * Input at the edge, over every route of the route table: a NUL or an unpaired surrogate in a
 * path parameter, query string, JSON body (keys included) or header is a 400 naming it and
 * never reaches the database; a form body is refused everywhere but /oauth/token.
 */
let t: TestApp
let owner: OrgAccount
let client: ClientCredentials
let accessToken: string
let routes: RouteEntry[]

const TOKEN_ROUTE = '/oauth/token'
const FAKE_ID = '01JZ0000000000000000000000'
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const PASSWORD = 'correct horse battery'
/**
 * This file's own client address: other files share the PostgreSQL database, so what this
 * file could write is counted by its callers (this address, its user, its client) and emails.
 */
const ADDRESS = `203.0.113.${(process.pid % 250) + 1}`
const SIGNUP_EMAIL = uniqueEmail('nul-signup')
const FORM_EMAIL = uniqueEmail('form-signup')

beforeAll(async () => {
  t = await buildTestApp()
  const partner = await sandboxPartner(t.app, SCOPES)
  owner = partner.owner
  client = partner.client
  accessToken = partner.token
  // Operator routes answer 404 to anyone else: the owner is made an operator so probes reach their input.
  await t.services.partners.addOperator(owner.email)
  routes = t.app.routeTable
})
afterAll(() => t.close())

const paramNames = (route: RouteEntry) => [...route.url.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] as string)
/** Path parameters that pass the guard: the caller's org, and an id nobody has. */
const validParams = (route: RouteEntry) =>
  Object.fromEntries(paramNames(route).map((name) => [name, name === 'orgId' ? owner.orgId : FAKE_ID]))
const schemaKeys = (schema: unknown) => Object.keys((schema as { properties?: object } | undefined)?.properties ?? {})

/** The route's own credentials, so requests get past authentication to the input. */
async function credentials(route: RouteEntry): Promise<Record<string, string>> {
  if (route.url === '/api/auth/logout') {
    // A session of its own: a request that got through would end it.
    const login = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      body: { email: owner.email, password: PASSWORD },
    })
    return { authorization: `Bearer ${login.json().token}` }
  }
  if (route.config.auth === 'session') return { authorization: `Bearer ${owner.token}` }
  if (route.config.auth === 'client') return { authorization: `Bearer ${accessToken}` }
  return {}
}

/**
 * Percent-encodes every code unit; an unpaired surrogate as the three UTF-8-style bytes a
 * careless encoder sends (encodeURIComponent refuses to), which no decoder accepts.
 */
function percentEncode(text: string): string {
  let encoded = ''
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index)
    const next = text.charCodeAt(index + 1)
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      encoded += encodeURIComponent(text.slice(index, index + 2))
      index += 1
    } else if (code >= 0xd800 && code <= 0xdfff) {
      encoded += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('')
    } else {
      encoded += encodeURIComponent(text[index] as string)
    }
  }
  return encoded
}

interface Probe {
  params: Record<string, string>
  query: [string, string][]
  /** JSON for the JSON routes (serialised with JSON.stringify: NUL and surrogates as \u escapes), fields for the token route. */
  body?: unknown
  headers: Record<string, string>
  basic?: [string, string]
}

function urlOf(route: RouteEntry, probe: Probe): string {
  const path = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => percentEncode(probe.params[name] ?? ''))
  const query = probe.query.map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`).join('&')
  return query ? `${path}?${query}` : path
}

async function send(route: RouteEntry, probe: Probe): Promise<LightMyRequestResponse> {
  // Every probe is a fresh minute's worth of rate limit: the limits are not what is tested here.
  t.clock.advance(1_000)
  const headers: Record<string, string> = { ...(await credentials(route)), ...probe.headers }
  let payload: string | undefined
  if (route.url === TOKEN_ROUTE) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    payload = Object.entries((probe.body ?? {}) as Record<string, string>)
      .map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`)
      .join('&')
    if (probe.basic) {
      const [id, secret] = probe.basic
      headers.authorization = `Basic ${Buffer.from(`${percentEncode(id)}:${percentEncode(secret)}`).toString('base64')}`
    }
  } else if (probe.body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(probe.body)
  }
  const options = {
    method: route.method as 'GET',
    url: urlOf(route, probe),
    headers,
    remoteAddress: ADDRESS,
    ...(payload === undefined ? {} : { payload }),
  }
  if (!route.url.endsWith('/stream')) return t.app.inject(options)
  // An event stream answers for as long as it is read: its status and headers, then it is closed.
  const response = await t.app.inject({ ...options, payloadAsStream: true })
  const stream = response.stream()
  if (response.statusCode === 200) {
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/)
    stream.destroy()
    return { ...response, body: '', payload: '', json: () => ({}) } as LightMyRequestResponse
  }
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks).toString('utf8')
  return { ...response, body, payload: body, json: () => JSON.parse(body) as unknown } as LightMyRequestResponse
}

/** What every answer must be: never a 5xx, every error in its surface's format with the request id. */
function expectWellFormed(route: RouteEntry, response: LightMyRequestResponse): void {
  const name = `${route.method} ${route.url}`
  expect(response.statusCode, `${name}: ${response.body}`).toBeLessThan(500)
  expect(response.headers['x-request-id'], name).toBeTruthy()
  if (response.statusCode < 400) return
  const body = response.json()
  if (route.url === TOKEN_ROUTE) {
    expect(response.headers['content-type'], name).toMatch(/^application\/json/)
    expect(Object.keys(body).sort(), name).toEqual(['error', 'error_description'])
    return
  }
  expect(response.headers['content-type'], name).toMatch(/^application\/problem\+json/)
  expect(Object.keys(ERROR_CODES), name).toContain(body.code)
  expect(body, name).toMatchObject({ status: response.statusCode, requestId: response.headers['x-request-id'] })
}

/**
 * What any write by these requests would change: the idempotency keys of their callers, the
 * users their sign-ups would create, the partner org's event log, the owner's orgs.
 */
async function writtenState(): Promise<unknown[]> {
  const keys = await t.db.global
    .selectFrom('idempotency_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('caller', 'in', [owner.userId, client.id, `ip:${ADDRESS}`])
    .executeTakeFirstOrThrow()
  const users = await t.db.global
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('email', 'in', [SIGNUP_EMAIL, FORM_EMAIL])
    .executeTakeFirstOrThrow()
  const me = await call(t.app, { url: '/api/me', token: owner.token })
  return [Number(keys.n), Number(users.n), await eventCount(t.db, owner.orgId), me.body]
}

const unsafeUnit = fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff')
const codeUnit = fc.oneof(
  { weight: 2, arbitrary: unsafeUnit },
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) },
  { weight: 1, arbitrary: fc.constantFrom('é', '\ud83c\udfb5', '%', '/', '?', '&', '=', '+', '.') },
)
const text = fc.array(codeUnit, { maxLength: 10 }).map((units) => units.join(''))
const hasNul = (value: string) => value.includes('\u0000')
/** encodeURIComponent refuses exactly the unpaired surrogates. */
const wellFormed = (value: string) => {
  try {
    encodeURIComponent(value)
    return true
  } catch {
    return false
  }
}
const isUnsafe = (value: string) => hasNul(value) || !wellFormed(value)

const jsonValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(text, tie('value'), { maxKeys: 2 }),
  ),
})).value

function collectStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(collectStrings)
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => [key, ...collectStrings(item)])
  return []
}

/** Arbitrary requests to one route: its own parameter and field names, and any others, with arbitrary strings. */
function probes(route: RouteEntry): fc.Arbitrary<Probe> {
  const params = Object.fromEntries(
    paramNames(route).map((name) => [
      name,
      name === 'orgId'
        ? fc.oneof({ weight: 4, arbitrary: fc.constant(owner.orgId) }, { weight: 1, arbitrary: text })
        : fc.oneof({ weight: 3, arbitrary: text }, { weight: 1, arbitrary: fc.constant(FAKE_ID) }),
    ]),
  )
  const queryKey = fc.oneof(fc.constantFrom('limit', 'cursor', ...schemaKeys(route.schema?.querystring)), text)
  const bodyKey = fc.oneof(fc.constantFrom('name', ...schemaKeys(route.schema?.body)), text)
  const headers = fc.record(
    { 'idempotency-key': text, 'x-request-id': text, 'x-note': text },
    { requiredKeys: [] },
  ) as fc.Arbitrary<Record<string, string>>
  const tokenFields = fc.dictionary(
    fc.oneof(fc.constantFrom('grant_type', 'client_id', 'client_secret', 'scope'), text),
    fc.oneof(text, fc.constantFrom('client_credentials', client.id, client.secret, 'events:read')),
    { maxKeys: 5 },
  )
  const body =
    route.url === TOKEN_ROUTE
      ? tokenFields
      : BODY_METHODS.has(route.method)
        ? fc.option(fc.dictionary(bodyKey, jsonValue, { maxKeys: 4 }), { nil: undefined })
        : fc.constant(undefined)
  return fc.record({
    params: fc.record(params),
    query: fc.array(fc.tuple(queryKey, fc.oneof(text, fc.constantFrom('10', '0', ''))), { maxLength: 3 }),
    body,
    headers,
    basic: route.url === TOKEN_ROUTE ? fc.option(fc.tuple(text, text), { nil: undefined }) : fc.constant(undefined),
  }) as fc.Arbitrary<Probe>
}

/**
 * Whether the server sees unsafe text once it has decoded the request. A query-string key or
 * value holding an encoded surrogate is not decoded at all (its %00 included).
 */
function carriesUnsafeText(route: RouteEntry, probe: Probe): boolean {
  if (Object.values(probe.params).some(isUnsafe)) return true
  const decodedNul = (component: string) => hasNul(component) && wellFormed(component)
  if (probe.query.some(([key, value]) => decodedNul(key) || decodedNul(value))) return true
  if (Object.values(probe.headers).some(isUnsafe)) return true
  if (probe.basic?.some(hasNul)) return true
  const strings = collectStrings(probe.body)
  return route.url === TOKEN_ROUTE ? strings.some(hasNul) : strings.some(isUnsafe)
}

const RUNS_PER_ROUTE = Number(process.env.INPUT_FUZZ_RUNS ?? 12)

describe('arbitrary strings at every route of the route table', () => {
  it('never answer 5xx, always answer errors in the surface’s format, and refuse what carries unsafe text', async () => {
    expect(routes.length).toBeGreaterThan(80)
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(probes(route), async (probe) => {
          const response = await send(route, probe)
          expectWellFormed(route, response)
          if (carriesUnsafeText(route, probe)) {
            expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBeGreaterThanOrEqual(400)
          }
        }),
        { numRuns: RUNS_PER_ROUTE },
      )
    }
  })
})

describe('a NUL or an unpaired surrogate, in each place, at every route', () => {
  const NUL = 'a\u0000b'
  const LONE = 'a\ud800b'

  /** A probe that is valid apart from the one unsafe string. */
  function probeWith(route: RouteEntry, change: Partial<Probe>): Probe {
    return { query: [], headers: {}, ...change, params: { ...validParams(route), ...change.params } }
  }

  async function expectRefused(route: RouteEntry, probe: Probe, param: string): Promise<void> {
    const response = await send(route, probe)
    if (route.url === TOKEN_ROUTE) {
      expectOAuthError(response, 400, 'invalid_request')
      expect(response.json().error_description).toContain(param)
      return
    }
    expectProblem(response, 400, 'parameter_invalid')
    expect(response.json().param, `${route.method} ${route.url}`).toBe(param)
  }

  it('is a 400 naming the parameter, and nothing is written', async () => {
    const before = await writtenState()
    for (const route of routes) {
      for (const name of paramNames(route)) {
        // Another org's path (any orgId but the caller's) is a 404 before the input is looked at.
        if (name === 'orgId') {
          expectProblem(await send(route, probeWith(route, { params: { orgId: NUL } })), 404, 'resource_missing')
          continue
        }
        await expectRefused(route, probeWith(route, { params: { [name]: NUL } }), name)
        await expectRefused(route, probeWith(route, { params: { [name]: LONE } }), name)
      }
      await expectRefused(route, probeWith(route, { query: [['q', NUL]] }), 'q')
      await expectRefused(route, probeWith(route, { query: [[NUL, '1']] }), 'a\\u0000b')
      await expectRefused(route, probeWith(route, { headers: { 'idempotency-key': NUL } }), 'Idempotency-Key')
      await expectRefused(route, probeWith(route, { headers: { 'x-request-id': LONE } }), 'X-Request-Id')
      if (route.url === TOKEN_ROUTE) {
        await expectRefused(
          route,
          probeWith(route, { body: { grant_type: 'client_credentials', client_id: NUL } }),
          'client_id',
        )
      } else if (BODY_METHODS.has(route.method)) {
        await expectRefused(route, probeWith(route, { body: { name: NUL } }), 'name')
        await expectRefused(route, probeWith(route, { body: { items: [{ note: LONE }] } }), 'items.0.note')
        await expectRefused(route, probeWith(route, { body: { [LONE]: 'x' } }), 'a\\ud800b')
      }
    }
    expect(await writtenState()).toEqual(before)
  })

  it('refuses the public entry points without credentials: login, signup and the token endpoint', async () => {
    const before = await writtenState()
    const login = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      body: '{"email":"demo\\u0000@example.com","password":"x"}',
    })
    expectProblem(login, 400, 'parameter_invalid')
    expect(login.json().param).toBe('email')
    const signup = await call(t.app, {
      method: 'POST',
      url: '/api/auth/signup',
      body: `{"email":"${SIGNUP_EMAIL}","password":"${PASSWORD}","name":"\\ud800"}`,
    })
    expectProblem(signup, 400, 'parameter_invalid')
    expect(signup.json().param).toBe('name')
    const form = await requestToken(t.app, {
      grant_type: 'client_credentials',
      client_id: `${client.id}\u0000`,
      client_secret: client.secret,
      scope: 'events:read',
    })
    expectOAuthError(form, 400, 'invalid_request')
    const basic = await requestToken(
      t.app,
      { grant_type: 'client_credentials', scope: 'events:read' },
      { basic: { id: client.id, secret: `${client.secret}\u0000` } },
    )
    expectOAuthError(basic, 400, 'invalid_request')
    expect(await writtenState()).toEqual(before)
  })
})

describe('bytes that are not UTF-8', () => {
  // 0xff never appears in UTF-8; 0xc3 0x28 is a lead byte followed by a non-continuation byte.
  const INVALID = [Buffer.from([0xff]), Buffer.from([0xc3, 0x28]), Buffer.from([0xed, 0xa0, 0x80])]

  it('inside a JSON string are a 400 invalid_json on every route that takes a body, and nothing is written', async () => {
    const before = await writtenState()
    const bodyRoutes = routes.filter((route) => BODY_METHODS.has(route.method) && route.url !== TOKEN_ROUTE)
    for (const route of bodyRoutes) {
      for (const bytes of INVALID) {
        t.clock.advance(1_000)
        const response = await t.app.inject({
          method: route.method as 'POST',
          url: urlOf(route, { params: validParams(route), query: [], headers: {} }),
          remoteAddress: ADDRESS,
          headers: {
            ...(await credentials(route)),
            'content-type': 'application/json',
            'idempotency-key': `utf8-${route.method}-${route.url}-${bytes.toString('hex')}`,
          },
          payload: Buffer.concat([Buffer.from('{"name":"Ada '), bytes, Buffer.from('","email":"x@example.com"}')]),
        })
        expectProblem(response, 400, 'invalid_json')
        expect(response.json().detail).toMatch(/not valid UTF-8/)
      }
    }
    expect(await writtenState()).toEqual(before)
  })

  it('in a form body are an invalid_request at /oauth/token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: TOKEN_ROUTE,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: Buffer.concat([
        Buffer.from(`grant_type=client_credentials&scope=events:read&client_id=${client.id}&client_secret=`),
        Buffer.from([0xff]),
      ]),
    })
    expectOAuthError(response, 400, 'invalid_request')
  })

  it('are taken as the text they are when they are UTF-8 (U+FFFD sent as such is kept)', async () => {
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/creators',
      token: owner.token,
      body: { name: 'Ada \ufffd Lovelace', kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
    })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json().name).toBe('Ada \ufffd Lovelace')
  })
})

describe('a form body', () => {
  it('is 415 on every route that takes a body but /oauth/token, and nothing is written', async () => {
    const before = await writtenState()
    const bodyRoutes = routes.filter((route) => BODY_METHODS.has(route.method) && route.url !== TOKEN_ROUTE)
    expect(bodyRoutes.length).toBeGreaterThan(40)
    for (const route of bodyRoutes) {
      t.clock.advance(1_000)
      const response = await t.app.inject({
        method: route.method as 'POST',
        url: urlOf(route, { params: validParams(route), query: [], headers: {} }),
        remoteAddress: ADDRESS,
        headers: {
          ...(await credentials(route)),
          'content-type': 'application/x-www-form-urlencoded',
          'idempotency-key': `form-${route.method}-${route.url}`,
        },
        payload: `name=Form+Label&email=${encodeURIComponent(FORM_EMAIL)}&password=${encodeURIComponent(PASSWORD)}`,
      })
      expectProblem(response, 415, 'unsupported_media_type')
    }
    expect(await writtenState()).toEqual(before)
  })

  it('is still what /oauth/token takes', async () => {
    const response = await requestToken(t.app, {
      grant_type: 'client_credentials',
      client_id: client.id,
      client_secret: client.secret,
      scope: 'events:read',
    })
    expect(response.statusCode, response.body).toBe(200)
  })
})
