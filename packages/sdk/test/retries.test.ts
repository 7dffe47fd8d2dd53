import { ConnectionError, Oeuvre, RateLimitError, TimeoutError } from '@oeuvre/sdk'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../../src/platform/clock.js'
import { closedPortUrl, FaultyProxy, silentServer } from './network.js'
import { credentials, LinkedClock, sandboxPartner, startService, type LiveService, type Partner } from './service.js'

let service: LiveService
let proxy: FaultyProxy
let clock: LinkedClock

beforeAll(async () => {
  const serverClock = new ManualClock()
  service = await startService({ clock: serverClock })
  clock = new LinkedClock(serverClock)
})
afterAll(() => service.close())
afterEach(() => proxy?.close())

/** A new partner (its own rate-limit bucket) and a client that reaches the service through a fresh proxy. */
async function throughProxy(options: { maxRetries?: number; timeoutMs?: number } = {}) {
  const partner = await sandboxPartner(service)
  proxy = await FaultyProxy.start(service.baseUrl)
  const oeuvre = new Oeuvre({ ...credentials(service, partner), baseUrl: proxy.url, clock, ...options })
  const creator = await oeuvre.creators.create(partner.orgId, {
    name: 'Ada',
    kind: 'person',
    roles: ['composer'],
    payoutCurrency: 'EUR',
  })
  const work = (title: string) => ({
    kind: 'work' as const,
    title,
    splits: [{ creatorId: creator.id, role: 'composer' as const, shareBps: 10_000 }],
  })
  return { partner, oeuvre, work }
}

async function catalogTitles(oeuvre: Oeuvre, partner: Partner): Promise<string[]> {
  return (await oeuvre.catalog.list(partner.orgId).toArray()).map((entry) => entry.title)
}

describe('a create whose connection breaks', () => {
  it('creates exactly one record when the answer is lost after the service took the request', async () => {
    const { partner, oeuvre, work } = await throughProxy()
    proxy.inject('drop-after', /^POST \/v1\/orgs\/\S+\/catalog$/)
    const entry = await oeuvre.catalog.create(partner.orgId, work('Lost Answer'))
    expect(entry.title).toBe('Lost Answer')
    const posts = proxy.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/catalog'))
    expect(posts.map((post) => post.fault)).toEqual(['drop-after', ...posts.slice(1).map(() => null)])
    expect(posts.length).toBeGreaterThanOrEqual(2)
    // One key for every attempt: the service ran the create once and replayed it (or said it was still running).
    const keys = new Set(posts.map((post) => post.headers['idempotency-key']))
    expect(keys.size).toBe(1)
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/)
    expect(proxy.answers.at(-1)).toMatch(/^HTTP\/1\.1 201[\s\S]*idempotent-replayed: true/i)
    expect(await catalogTitles(oeuvre, partner)).toEqual(['Lost Answer'])
    expect(await oeuvre.catalog.get(partner.orgId, entry.id)).toEqual(entry)
  })

  it('creates exactly one record when the request never reached the service', async () => {
    const { partner, oeuvre, work } = await throughProxy()
    proxy.inject('drop-before', /^POST \/v1\/orgs\/\S+\/catalog$/)
    const entry = await oeuvre.catalog.create(partner.orgId, work('Never Arrived'))
    const posts = proxy.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/catalog'))
    expect(posts.map((post) => post.fault)).toEqual(['drop-before', null])
    expect(posts[0]!.headers['idempotency-key']).toBe(posts[1]!.headers['idempotency-key'])
    expect(proxy.answers.at(-1)).not.toMatch(/idempotent-replayed/i)
    expect(await catalogTitles(oeuvre, partner)).toEqual([entry.title])
  })

  it('uses the caller’s Idempotency-Key when given, also on every retry, and a new one per call otherwise', async () => {
    const { partner, oeuvre, work } = await throughProxy()
    proxy.inject('drop-after', /^POST \/v1\/orgs\/\S+\/catalog$/)
    const first = await oeuvre.catalog.create(partner.orgId, work('Keyed'), { idempotencyKey: 'sync-42' })
    const again = await oeuvre.catalog.create(partner.orgId, work('Keyed'), { idempotencyKey: 'sync-42' })
    expect(again).toEqual(first)
    await oeuvre.catalog.create(partner.orgId, work('Unkeyed'))
    await oeuvre.catalog.create(partner.orgId, work('Unkeyed'))
    const keys = proxy.requests
      .filter((request) => request.method === 'POST' && request.path.endsWith('/catalog'))
      .map((r) => r.headers['idempotency-key'])
    expect(keys.slice(0, 3)).toEqual(['sync-42', 'sync-42', 'sync-42'])
    expect(new Set(keys.slice(3)).size).toBe(2)
    expect((await catalogTitles(oeuvre, partner)).sort()).toEqual(['Keyed', 'Unkeyed', 'Unkeyed'])
  })

  it('gives up after maxRetries with a ConnectionError, the create having been attempted that often', async () => {
    const { partner, oeuvre, work } = await throughProxy({ maxRetries: 1 })
    proxy.inject('drop-before', /^POST \/v1\/orgs\/\S+\/catalog$/)
    proxy.inject('drop-before', /^POST \/v1\/orgs\/\S+\/catalog$/)
    const failure = await oeuvre.catalog.create(partner.orgId, work('Unlucky')).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ConnectionError)
    expect(failure).not.toBeInstanceOf(TimeoutError)
    expect(failure).toMatchObject({
      status: undefined,
      message: expect.stringMatching(/^POST \/v1\/orgs\/.+\/catalog: /),
    })
    expect(
      proxy.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/catalog')),
    ).toHaveLength(2)
    expect(await catalogTitles(oeuvre, partner)).toEqual([])
  })
})

describe('retries', () => {
  it('retries a 502 from the network with exponential backoff and jitter', async () => {
    const { partner, oeuvre } = await throughProxy({ maxRetries: 3 })
    proxy.inject('bad-gateway', /^GET \/v1\/orgs\/\S+\/members/)
    proxy.inject('bad-gateway', /^GET \/v1\/orgs\/\S+\/members/)
    const before = clock.sleeps.length
    const page = await oeuvre.members.list(partner.orgId)
    expect(page.data.map((member) => member.userId)).toEqual([partner.owner.userId])
    const waits = clock.sleeps.slice(before)
    expect(waits).toHaveLength(2)
    expect(waits[0]).toBeGreaterThanOrEqual(375)
    expect(waits[0]).toBeLessThanOrEqual(500)
    expect(waits[1]).toBeGreaterThanOrEqual(750)
    expect(waits[1]).toBeLessThanOrEqual(1000)
  })

  it('times out an attempt that gets no answer and retries it', async () => {
    const { partner, oeuvre } = await throughProxy({ timeoutMs: 300 })
    proxy.inject('hang', /^GET \/v1\/orgs\/\S+\/members/)
    const page = await oeuvre.members.list(partner.orgId)
    expect(page.data).toHaveLength(1)
    expect(proxy.requests.filter((request) => request.path.includes('/members')).map((r) => r.fault)).toEqual([
      'hang',
      null,
    ])
  })

  it('throws TimeoutError when no attempt is answered in time', async () => {
    const silent = await silentServer()
    try {
      const oeuvre = new Oeuvre({ baseUrl: silent.url, accessToken: 'oat_x', timeoutMs: 100, maxRetries: 1, clock })
      const failure = await oeuvre.members.list('org_01JD2YB6X8Q0W3M5N7P9R1T3V4').catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(TimeoutError)
      expect(failure).toBeInstanceOf(ConnectionError)
      expect((failure as Error).message).toMatch(/no answer within 100 ms/)
    } finally {
      await silent.close()
    }
  })

  it('throws ConnectionError when nothing listens, after backing off between its attempts', async () => {
    const oeuvre = new Oeuvre({ baseUrl: await closedPortUrl(), accessToken: 'oat_x', maxRetries: 2, clock })
    const before = clock.sleeps.length
    const failure = await oeuvre.evidence.getKeys().catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ConnectionError)
    expect((failure as Error).message).toMatch(/ECONNREFUSED/)
    expect(clock.sleeps.slice(before)).toHaveLength(2)
  })

  it('stops at once when the caller aborts, also while waiting to retry', async () => {
    const oeuvre = new Oeuvre({ baseUrl: await closedPortUrl(), accessToken: 'oat_x', maxRetries: 5 })
    const controller = new AbortController()
    const call = oeuvre.evidence.getKeys({ signal: controller.signal })
    setTimeout(() => controller.abort(new Error('shutting down')), 50)
    await expect(call).rejects.toThrow('shutting down')
  })
})

describe('rate limits', () => {
  it('130 sequential calls against a burst of 120 all succeed, at the pace the service allows', async () => {
    const partner = await sandboxPartner(service)
    const oeuvre = new Oeuvre({ ...credentials(service, partner), clock })
    const before = clock.sleeps.length
    for (let i = 0; i < 130; i += 1) await oeuvre.members.list(partner.orgId, { limit: 1 })
    const waited = clock.sleeps.slice(before).reduce((total, ms) => total + ms, 0)
    // 60 a minute once the burst is spent: about a second for each of the last ten.
    expect(waited).toBeGreaterThanOrEqual(9_000)
    expect(waited).toBeLessThan(30_000)
  })

  it('130 concurrent calls all succeed: after a 429 the client queues them behind Retry-After', async () => {
    // maxRetries bounds failures; a 429 is no failure (the call had no effect) and has its own budget.
    for (const maxRetries of [undefined, 0]) {
      const partner = await sandboxPartner(service)
      const oeuvre = new Oeuvre({
        ...credentials(service, partner),
        clock,
        ...(maxRetries === undefined ? {} : { maxRetries }),
      })
      const pages = await Promise.all(
        Array.from({ length: 130 }, () => oeuvre.members.list(partner.orgId, { limit: 1 }).firstPage()),
      )
      expect(pages.every((page) => page.data.length === 1)).toBe(true)
    }
  })

  it('throws RateLimitError with retryAfter when the wait would exceed maxRateLimitWaitMs', async () => {
    const partner = await sandboxPartner(service)
    const oeuvre = new Oeuvre({ ...credentials(service, partner), clock, maxRateLimitWaitMs: 0 })
    // All sent before the first answer tells the client the bucket is empty: the last ten are refused.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 130 }, () => oeuvre.members.list(partner.orgId, { limit: 1 }).firstPage()),
    )
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []))
    expect(refused).toHaveLength(10)
    for (const failure of refused) {
      expect(failure).toBeInstanceOf(RateLimitError)
      expect(failure).toMatchObject({ status: 429, code: 'rate_limited', requestId: expect.stringMatching(/^req_/) })
      expect((failure as RateLimitError).retryAfter).toBeGreaterThanOrEqual(1)
    }
  })
})
