import { AuthenticationError, Oeuvre, REFRESH_MARGIN_MS, regionOf, type Clock, type StoredToken } from '@oeuvre/sdk'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../../src/platform/clock.js'
import { credentials, sandboxPartner, startService, type LiveService, type Partner } from './service.js'

let service: LiveService
let serverClock: ManualClock

beforeAll(async () => {
  serverClock = new ManualClock()
  service = await startService({ clock: serverClock })
})
afterAll(() => service.close())

/** The SDK's own time, moved by the test (the service's stays where it is unless moved too). */
class TestClock implements Clock {
  constructor(private at = Date.parse('2026-11-22T10:00:00.000Z')) {}
  now(): number {
    return this.at
  }
  async sleep(ms: number): Promise<void> {
    this.at += ms
  }
  advance(ms: number): void {
    this.at += ms
  }
}

/** fetch that counts the requests by path, and may rewrite them on their way. */
function countingFetch(rewrite?: (url: string, init: RequestInit) => RequestInit) {
  const calls: string[] = []
  const fetcher: typeof fetch = (input, init = {}) => {
    const url = String(input)
    calls.push(new URL(url).pathname)
    return fetch(input, rewrite ? rewrite(url, init) : init)
  }
  const count = (path: string | RegExp) =>
    calls.filter((call) => (typeof path === 'string' ? call === path : path.test(call))).length
  return { fetcher, calls, count }
}

async function client(
  options: { clock?: Clock; rewrite?: Parameters<typeof countingFetch>[0]; partner?: Partner } = {},
) {
  const partner = options.partner ?? (await sandboxPartner(service))
  const counter = countingFetch(options.rewrite)
  const oeuvre = new Oeuvre({
    ...credentials(service, partner),
    fetch: counter.fetcher,
    clock: options.clock ?? new TestClock(),
  })
  return { partner, oeuvre, ...counter }
}

describe('client credentials', () => {
  it('exchanges once for many concurrent calls, sending the requested scopes', async () => {
    const partner = await sandboxPartner(service, ['events:read', 'members:read'])
    const { oeuvre, count } = await client({ partner })
    const pages = await Promise.all(Array.from({ length: 10 }, () => oeuvre.members.list(partner.orgId)))
    expect(pages.map((page) => page.data.length)).toEqual(Array(10).fill(1))
    expect(count('/oauth/token')).toBe(1)
    expect(count(/\/members$/)).toBe(10)
  })

  it('reuses the token until 60 s before it expires, then exchanges again', async () => {
    const clock = new TestClock()
    const { partner, oeuvre, count } = await client({ clock })
    await oeuvre.members.list(partner.orgId)
    clock.advance(3_600_000 - REFRESH_MARGIN_MS - 1_000)
    await oeuvre.members.list(partner.orgId)
    expect(count('/oauth/token')).toBe(1)
    clock.advance(2_000)
    await oeuvre.members.list(partner.orgId)
    expect(count('/oauth/token')).toBe(2)
  })

  it('after a 401 invalid_token, exchanges again and retries the call once', async () => {
    const { partner, oeuvre, count } = await client()
    await oeuvre.members.list(partner.orgId)
    // The service's hour passes while the client's does not: it still holds the old token.
    serverClock.advance(2 * 3_600_000)
    const page = await oeuvre.members.list(partner.orgId)
    expect(page.data).toHaveLength(1)
    expect(count('/oauth/token')).toBe(2)
    expect(count(/\/members$/)).toBe(3)
  })

  it('retries a refused token only once, then throws AuthenticationError', async () => {
    const { partner, oeuvre, count } = await client({
      rewrite: (url, init) =>
        url.includes('/v1/') ? { ...init, headers: { ...init.headers, authorization: 'Bearer oat_forged' } } : init,
    })
    const failure = await oeuvre.members.list(partner.orgId).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(AuthenticationError)
    expect(failure).toMatchObject({ status: 401, code: 'invalid_token', requestId: expect.stringMatching(/^req_/) })
    expect(count('/oauth/token')).toBe(2)
    expect(count(/\/members$/)).toBe(2)
  })

  it('refused credentials are an AuthenticationError with the OAuth error, not retried', async () => {
    const partner = await sandboxPartner(service)
    const counter = countingFetch()
    const oeuvre = new Oeuvre({
      ...credentials(service, partner),
      clientSecret: `${partner.clientSecret}x`,
      fetch: counter.fetcher,
    })
    const failure = await oeuvre.members.list(partner.orgId).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(AuthenticationError)
    expect(failure).toMatchObject({ status: 401, code: 'invalid_client' })
    expect(counter.calls).toEqual(['/oauth/token'])
  })

  it('a scope the client may not have is refused by the token endpoint', async () => {
    const partner = await sandboxPartner(service, ['events:read'])
    const oeuvre = new Oeuvre({ ...credentials(service, partner), scopes: ['events:read', 'payouts:write'] })
    await expect(oeuvre.events.list(partner.orgId)).rejects.toMatchObject({
      name: 'AuthenticationError',
      status: 400,
      code: 'invalid_scope',
    })
  })

  it('keeps the token in the client only, unless given a store to share it', async () => {
    const partner = await sandboxPartner(service)
    const first = await client({ partner })
    const second = await client({ partner })
    await first.oeuvre.members.list(partner.orgId)
    await second.oeuvre.members.list(partner.orgId)
    expect(first.count('/oauth/token') + second.count('/oauth/token')).toBe(2)

    let kept: StoredToken | undefined
    const store = { load: () => kept, save: (token: StoredToken | undefined) => void (kept = token) }
    const counter = countingFetch()
    const options = { ...credentials(service, partner), fetch: counter.fetcher, tokenStore: store }
    await new Oeuvre(options).members.list(partner.orgId)
    expect(kept).toMatchObject({ accessToken: expect.stringMatching(/^oat_/), scope: partner.scopes.join(' ') })
    await new Oeuvre(options).members.list(partner.orgId)
    expect(counter.count('/oauth/token')).toBe(1)
  })

  it('uses a given access token as it is and never exchanges', async () => {
    const partner = await sandboxPartner(service)
    const counter = countingFetch()
    const issued = await fetch(`${service.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: partner.clientId,
        client_secret: partner.clientSecret,
        scope: 'members:read',
      }),
    }).then((response) => response.json() as Promise<{ access_token: string }>)
    const fixed = new Oeuvre({ baseUrl: service.baseUrl, accessToken: issued.access_token, fetch: counter.fetcher })
    expect((await fixed.members.list(partner.orgId)).data).toHaveLength(1)
    await expect(fixed.events.list(partner.orgId)).rejects.toMatchObject({ status: 403, code: 'insufficient_scope' })
    expect(counter.count('/oauth/token')).toBe(0)
  })

  it('refuses options that cannot work', () => {
    expect(() => new Oeuvre({ baseUrl: 'eu-west.example' })).toThrow(/baseUrl/)
    expect(() => new Oeuvre({ baseUrl: service.baseUrl, clientId: 'cli_x' })).toThrow(/clientId and clientSecret/)
    expect(() => new Oeuvre({ baseUrl: service.baseUrl, clientId: 'cli_x', clientSecret: 'cs_test_x' })).toThrow(
      /scopes/,
    )
  })
})

describe('the deployment from the credential', () => {
  it('talks to the deployment of the region its credentials were issued in', async () => {
    const partner = await sandboxPartner(service)
    expect(partner.clientSecret).toMatch(/^cs_test_euw_/)
    const oeuvre = new Oeuvre({
      regionUrls: { 'us-east': 'http://127.0.0.1:9', 'eu-west': service.baseUrl },
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
      scopes: partner.scopes,
    })
    expect(oeuvre.region).toBe('eu-west')
    expect(oeuvre.baseUrl).toBe(service.baseUrl)
    expect((await oeuvre.members.list(partner.orgId)).data).toHaveLength(1)
    expect(
      () =>
        new Oeuvre({
          regionUrls: { 'us-east': 'http://127.0.0.1:9' },
          clientId: partner.clientId,
          clientSecret: partner.clientSecret,
          scopes: ['events:read'],
        }),
    ).toThrow(/no address for the credential's region \(eu-west\)/)
  })

  it('reads the region as the service marks it, for ids and secrets (property)', async () => {
    const { regionOf: serverRegionOf } = await import('../../../src/platform/region.js')
    const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
    const id = fc
      .tuple(
        fc.constantFrom('org', 'cli', 'cat', 'evt', 'seal', 'usr', 'prt'),
        fc.string({ unit: fc.constantFrom(...crockford), minLength: 26, maxLength: 26 }),
      )
      .map(([prefix, rest]) => `${prefix}_${rest}`)
    const secret = fc
      .tuple(
        fc.constantFrom('sess', 'oat', 'cs_test', 'cs_live', 'invt', 'whsec'),
        fc.constantFrom('use', 'euw', 'aue', 'xyz', ''),
        fc.string({ minLength: 1, maxLength: 20 }),
      )
      .map(([prefix, tag, rest]) => `${prefix}_${tag ? `${tag}_` : ''}${rest}`)
    fc.assert(
      fc.property(fc.oneof(id, secret, fc.string()), (value) => {
        expect(regionOf(value) ?? null).toBe(serverRegionOf(value))
      }),
      { numRuns: 500 },
    )
  })
})
