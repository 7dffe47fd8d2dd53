import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, call, eventCount, expectProblem, ownerWithOrg, uniqueEmail, type TestApp } from './helpers.js'

/** The web app's session: an HttpOnly cookie, and the CSRF defence on every write it authenticates. */
let t: TestApp
const ORIGIN = 'http://127.0.0.1:3000'
const APP = { 'x-oeuvre-csrf': '1', origin: ORIGIN }
const PASSWORD = 'correct horse battery'

interface SetCookie {
  name: string
  value: string
  attributes: string[]
}

function setCookies(response: LightMyRequestResponse): SetCookie[] {
  const header = response.headers['set-cookie']
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header]
  return lines.map((line) => {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim())
    const at = pair.indexOf('=')
    return { name: pair.slice(0, at), value: pair.slice(at + 1), attributes: attributes.map((a) => a.toLowerCase()) }
  })
}

async function cookieSignup(headers: Record<string, string> = APP) {
  const email = uniqueEmail('web')
  const response = await call(t.app, {
    method: 'POST',
    url: '/api/auth/signup/cookie',
    headers,
    body: { email, password: PASSWORD, name: 'Web User' },
  })
  return { email, response }
}

/** A signed-up browser: the cookie header it sends back. */
async function browser(): Promise<{ cookie: string; email: string }> {
  const { email, response } = await cookieSignup()
  expect(response.statusCode, response.body).toBe(201)
  const session = setCookies(response).find((c) => c.name === 'oeuvre_session')
  expect(session).toBeDefined()
  return { cookie: `oeuvre_session=${session!.value}`, email }
}

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

describe('signing in with a cookie', () => {
  it('sets an HttpOnly, SameSite=Lax session cookie and leaves the token out of the body', async () => {
    const { response } = await cookieSignup()
    expect(response.statusCode, response.body).toBe(201)
    const [session] = setCookies(response)
    expect(session?.name).toBe('oeuvre_session')
    expect(session?.value).toMatch(/^sess_/)
    expect(session?.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']))
    expect(session?.attributes).not.toContain('secure')
    expect(response.body).not.toContain(session!.value)
    expect(response.json()).not.toHaveProperty('token')
    expect(response.json().user.name).toBe('Web User')
  })

  it('logs in with a cookie; a wrong password is 401 and sets none', async () => {
    const { email } = await browser()
    const login = (password: string) =>
      call(t.app, { method: 'POST', url: '/api/auth/login/cookie', headers: APP, body: { email, password } })
    const ok = await login(PASSWORD)
    expect(ok.statusCode, ok.body).toBe(200)
    expect(setCookies(ok)[0]?.attributes).toContain('httponly')
    expect(ok.json()).not.toHaveProperty('token')
    const wrong = await login('not the password')
    expectProblem(wrong, 401, 'authentication_required')
    expect(setCookies(wrong)).toEqual([])
  })

  it('refuses a cookie sign-up or login without the CSRF header or from another origin, creating nothing', async () => {
    const noHeader = await cookieSignup({ origin: ORIGIN })
    expectProblem(noHeader.response, 403, 'csrf_failed')
    expect(noHeader.response.json().param).toBe('x-oeuvre-csrf')
    const foreign = await cookieSignup({ 'x-oeuvre-csrf': '1', origin: 'https://evil.example' })
    expectProblem(foreign.response, 403, 'csrf_failed')
    expect(foreign.response.json().param).toBe('origin')
    const noOrigin = await cookieSignup({ 'x-oeuvre-csrf': '1' })
    expectProblem(noOrigin.response, 403, 'csrf_failed')
    for (const { email, response } of [noHeader, foreign, noOrigin]) {
      expect(setCookies(response)).toEqual([])
      // The account was never created: the email is still free.
      const again = await call(t.app, {
        method: 'POST',
        url: '/api/auth/signup',
        body: { email, password: PASSWORD, name: 'x' },
      })
      expect(again.statusCode).toBe(201)
    }
    const { email } = await browser()
    const login = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login/cookie',
      headers: { origin: 'https://evil.example', 'x-oeuvre-csrf': '1' },
      body: { email, password: PASSWORD },
    })
    expectProblem(login, 403, 'csrf_failed')
  })
})

describe('requests the cookie authenticates', () => {
  it('reads without the CSRF header', async () => {
    const { cookie, email } = await browser()
    const me = await call(t.app, { url: '/api/me', headers: { cookie } })
    expect(me.statusCode, me.body).toBe(200)
    expect(me.json().user.email).toBe(email)
  })

  it('refuses a write without the header, from another origin or without Origin, writing nothing', async () => {
    const { cookie } = await browser()
    const create = (headers: Record<string, string>) =>
      call(t.app, { method: 'POST', url: '/api/orgs', headers: { cookie, ...headers }, body: { name: 'Forged' } })
    const refused = [
      await create({ origin: ORIGIN }),
      await create({ 'x-oeuvre-csrf': '1', origin: 'http://127.0.0.1:3001' }),
      await create({ 'x-oeuvre-csrf': '1', origin: 'null' }),
      await create({ 'x-oeuvre-csrf': '1' }),
      await create({ 'x-oeuvre-csrf': '', origin: ORIGIN }),
    ]
    for (const response of refused) expectProblem(response, 403, 'csrf_failed')
    const me = await call(t.app, { url: '/api/me', headers: { cookie } })
    expect(me.json().memberships).toEqual([])
  })

  it('writes with the header and this origin', async () => {
    const { cookie } = await browser()
    const created = await call(t.app, {
      method: 'POST',
      url: '/api/orgs',
      headers: { cookie, ...APP },
      body: { name: 'Cookie Label', environment: 'sandbox' },
    })
    expect(created.statusCode, created.body).toBe(201)
    const orgId = created.json().id as string
    const creator = await call(t.app, {
      method: 'POST',
      url: '/api/creators',
      headers: { cookie, ...APP },
      body: { name: 'Ada', kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
    })
    expect(creator.statusCode, creator.body).toBe(201)
    expect(await eventCount(t.db, orgId)).toBeGreaterThan(0)
  })

  it('logs out: the cookie is cleared and the session ends', async () => {
    const { cookie } = await browser()
    const refused = await call(t.app, { method: 'POST', url: '/api/auth/logout', headers: { cookie } })
    expectProblem(refused, 403, 'csrf_failed')
    const out = await call(t.app, { method: 'POST', url: '/api/auth/logout', headers: { cookie, ...APP } })
    expect(out.statusCode).toBe(204)
    const [cleared] = setCookies(out)
    expect(cleared?.name).toBe('oeuvre_session')
    expect(cleared?.value).toBe('')
    expect(cleared?.attributes.some((a) => a === 'max-age=0' || a.startsWith('expires=thu, 01 jan 1970'))).toBe(true)
    expectProblem(await call(t.app, { url: '/api/me', headers: { cookie } }), 401, 'invalid_token')
  })

  it('answers 401 to a cookie that is not a session', async () => {
    expectProblem(
      await call(t.app, { url: '/api/me', headers: { cookie: 'oeuvre_session=sess_nope' } }),
      401,
      'invalid_token',
    )
  })
})

describe('the bearer surface', () => {
  it('needs neither the header nor Origin, and wins over a cookie', async () => {
    const owner = await ownerWithOrg(t.app)
    const created = await call(t.app, {
      method: 'POST',
      url: '/api/creators',
      token: owner.token,
      headers: { origin: 'https://evil.example' },
      body: { name: 'Bearer', kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
    })
    expect(created.statusCode, created.body).toBe(201)
    const { cookie } = await browser()
    const both = await call(t.app, {
      method: 'POST',
      url: '/api/creators',
      token: owner.token,
      headers: { cookie },
      body: { name: 'Both', kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
    })
    expect(both.statusCode, both.body).toBe(201)
    const login = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      body: { email: owner.email, password: PASSWORD },
    })
    expect(login.statusCode).toBe(200)
    expect(login.json().token).toMatch(/^sess_/)
    expect(setCookies(login)).toEqual([])
  })
})

describe('over HTTPS', () => {
  it('names the cookie __Host- and marks it Secure; the Origin must be PUBLIC_URL', async () => {
    const https = await buildTestApp({ env: { PUBLIC_URL: 'https://app.oeuvre.example' }, db: t.db })
    try {
      const signup = await call(https.app, {
        method: 'POST',
        url: '/api/auth/signup/cookie',
        headers: { 'x-oeuvre-csrf': '1', origin: 'https://app.oeuvre.example' },
        body: { email: uniqueEmail('tls'), password: PASSWORD, name: 'TLS' },
      })
      expect(signup.statusCode, signup.body).toBe(201)
      const [session] = setCookies(signup)
      expect(session?.name).toBe('__Host-oeuvre_session')
      expect(session?.attributes).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax', 'path=/']))
      const cookie = `__Host-oeuvre_session=${session!.value}`
      const http = await call(https.app, {
        method: 'POST',
        url: '/api/orgs',
        headers: { cookie, 'x-oeuvre-csrf': '1', origin: 'http://app.oeuvre.example' },
        body: { name: 'Downgraded' },
      })
      expectProblem(http, 403, 'csrf_failed')
      const ok = await call(https.app, {
        method: 'POST',
        url: '/api/orgs',
        headers: { cookie, 'x-oeuvre-csrf': '1', origin: 'https://app.oeuvre.example' },
        body: { name: 'Secure Label' },
      })
      expect(ok.statusCode, ok.body).toBe(201)
    } finally {
      await https.close()
    }
  })
})
