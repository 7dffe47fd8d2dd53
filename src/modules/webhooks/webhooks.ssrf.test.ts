import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  ownerWithOrg,
  type OrgAccount,
  type TestApp,
} from '../../../test/helpers.js'
import { FakeDns } from '../../../test/webhook-helpers.js'
import { blockedReason, checkWebhookUrl, parseIpLiteral, resolveTarget } from './webhooks.ssrf.js'

/** Every vector of the issue, plus the other special ranges, as a URL host. */
const REFUSED_HOSTS = [
  '127.0.0.1',
  '127.1',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  '0.0.0.0',
  '10.0.0.1',
  '172.16.0.1',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '[::1]',
  '[fe80::1]',
  '[fd00::1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:a9fe:a9fe]',
  '[::127.0.0.1]',
  '[64:ff9b::a00:1]',
  '[2002:c0a8:1::1]',
  '[2001::1]',
  '[::]',
  '224.0.0.1',
  '[ff02::1]',
  '255.255.255.255',
  '192.0.2.10',
  '198.51.100.7',
  '203.0.113.9',
  '198.18.0.1',
  '240.0.0.1',
  '[2001:db8::1]',
]

let t: TestApp
let owner: OrgAccount

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
})
afterAll(() => t.close())

describe('address classification (ipaddr.js)', () => {
  it('parses every notation the OS resolver accepts', () => {
    expect(parseIpLiteral('127.1')?.toString()).toBe('127.0.0.1')
    expect(parseIpLiteral('2130706433')?.toString()).toBe('127.0.0.1')
    expect(parseIpLiteral('0x7f000001')?.toString()).toBe('127.0.0.1')
    expect(parseIpLiteral('0177.0.0.1')?.toString()).toBe('127.0.0.1')
    expect(parseIpLiteral('[::1]')?.toString()).toBe('::1')
    expect(parseIpLiteral('example.com')).toBeNull()
  })

  it('refuses every special range and allows public unicast', () => {
    for (const host of REFUSED_HOSTS) {
      const address = parseIpLiteral(host)!.toString()
      expect(blockedReason(address), host).not.toBeNull()
    }
    expect(blockedReason('::ffff:127.0.0.1')).toMatch(/IPv4-mapped/)
    expect(blockedReason('64:ff9b::a00:1')).toMatch(/NAT64/)
    expect(blockedReason('2002:c0a8:1::1')).toMatch(/6to4/)
    expect(blockedReason('100.64.0.1')).toMatch(/carrier-grade NAT/)
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '1.1.1.1'])
      expect(blockedReason(address), address).toBeNull()
  })
})

describe('registration refuses every SSRF vector written as a literal', () => {
  it('answers 400 parameter_invalid for each, naming the url, and writes nothing', async () => {
    const before = await eventCount(t.db, owner.orgId)
    for (const host of REFUSED_HOSTS) {
      const response = await call(t.app, {
        method: 'POST',
        url: '/api/webhooks',
        token: owner.token,
        body: { url: `https://${host}/hook`, events: ['*'] },
      })
      expectProblem(response, 400, 'parameter_invalid')
      expect(response.json().param, host).toBe('url')
      expect(response.json().detail, host).toMatch(/refused address/)
    }
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })

  it('refuses plain http, localhost names and credentials when loopback is not allowed', async () => {
    for (const url of [
      'http://example.com/hook',
      'http://127.0.0.1:9000/hook',
      'https://localhost/hook',
      'https://api.localhost/hook',
      'https://user:pw@example.com/',
      'ftp://example.com/',
      'not a url',
    ]) {
      const response = await call(t.app, {
        method: 'POST',
        url: '/api/webhooks',
        token: owner.token,
        body: { url, events: ['*'] },
      })
      expectProblem(response, 400, 'parameter_invalid')
      expect(response.json().param, url).toBe('url')
    }
  })
})

describe('the loopback exception (WEBHOOKS_ALLOW_LOOPBACK=true)', () => {
  it('allows exactly http://127.0.0.1 and http://localhost; every other loopback form stays refused', () => {
    expect(checkWebhookUrl('http://127.0.0.1:8080/hook', true).loopback).toBe(true)
    expect(checkWebhookUrl('http://localhost:8080/hook', true).loopback).toBe(true)
    for (const url of [
      'http://127.1:8080/',
      'http://2130706433:8080/',
      'http://0x7f000001/',
      'http://[::1]:8080/',
      'http://0.0.0.0:8080/',
      'http://127.0.0.2/',
      'http://[::ffff:127.0.0.1]/',
      'http://10.0.0.1/',
    ]) {
      expect(() => checkWebhookUrl(url, true), url).toThrow()
    }
    expect(() => checkWebhookUrl('http://127.0.0.1:8080/', false)).toThrow(/https/)
  })
})

describe('resolution at delivery time', () => {
  const dns = new FakeDns()
  const resolve = (url: string, allowLoopback = false) =>
    resolveTarget(new URL(url), { allowLoopback, lookup: dns.lookup })

  it('blocks a name that resolves to any refused address, and names the address', async () => {
    dns.set('rebind.example', '127.0.0.1')
    expect(await resolve('https://rebind.example/')).toEqual({
      kind: 'blocked',
      reason: 'rebind.example resolves to 127.0.0.1, a loopback address',
    })
    dns.set('mixed.example', '93.184.216.34', '10.0.0.1')
    expect(await resolve('https://mixed.example/')).toMatchObject({
      kind: 'blocked',
      reason: expect.stringMatching(/10\.0\.0\.1, a private address/),
    })
    dns.set('metadata.example', '169.254.169.254')
    expect(await resolve('https://metadata.example/')).toMatchObject({ kind: 'blocked' })
    dns.set('mapped.example', '::ffff:127.0.0.1')
    expect(await resolve('https://mapped.example/')).toMatchObject({ kind: 'blocked' })
  })

  it('returns the checked public address, which the connection then uses', async () => {
    dns.set('public.example', '93.184.216.34')
    expect(await resolve('https://public.example/')).toEqual({ kind: 'ok', address: '93.184.216.34', family: 4 })
    expect(await resolve('https://[2606:4700:4700::1111]/')).toEqual({
      kind: 'ok',
      address: '2606:4700:4700::1111',
      family: 6,
    })
  })

  it('lets localhost through only as 127.0.0.1 and only when allowed', async () => {
    dns.set('localhost', '::1', '127.0.0.1')
    expect(await resolve('http://localhost:9/', true)).toEqual({ kind: 'ok', address: '127.0.0.1', family: 4 })
    dns.set('localhost', '::1')
    expect(await resolve('http://localhost:9/', true)).toMatchObject({ kind: 'blocked' })
    dns.set('localhost', '127.0.0.1')
    expect(await resolve('http://localhost:9/', false)).toMatchObject({ kind: 'blocked' })
    expect(await resolve('http://127.0.0.1:9/', false)).toMatchObject({ kind: 'blocked' })
    expect(await resolve('http://127.0.0.1:9/', true)).toMatchObject({ kind: 'ok', address: '127.0.0.1' })
  })

  it('reports a name that does not resolve as a failure to retry, not as blocked', async () => {
    expect(await resolve('https://nowhere.example/')).toMatchObject({
      kind: 'unresolved',
      reason: expect.stringMatching(/ENOTFOUND/),
    })
  })
})
