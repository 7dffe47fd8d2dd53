import { createHmac, timingSafeEqual } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { newSigningSecret, serviceSignature, signedHeaders, standardSignature } from './webhooks.signing.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('X-Service-Signature', () => {
  it('is sha256= and the lowercase hex HMAC-SHA256 of the raw body: GitHub’s published vector', () => {
    expect(serviceSignature("It's a Secret to Everybody", 'Hello, World!')).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    )
  })

  it('is keyed with the whole signing secret string, as a receiver following the spec computes it', () => {
    const secret = newSigningSecret()
    const body = '{"id":"evt_1","type":"payout.paid"}'
    const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
    const header = serviceSignature(secret, body)
    expect(timingSafeEqual(Buffer.from(header), Buffer.from(expected))).toBe(true)
    expect(serviceSignature(secret, `${body} `)).not.toBe(header)
  })
})

describe('Standard Webhooks headers', () => {
  it('verify with the standardwebhooks package, using the whsec_ secret as issued', () => {
    const secret = newSigningSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const now = new Date('2026-11-22T10:15:30.123Z')
    vi.useFakeTimers({ toFake: ['Date'], now })
    const body = JSON.stringify({ id: 'evt_x', type: 'catalog.created', data: { émoji: '🎵' } })
    const headers = signedHeaders({
      secrets: [secret],
      deliveryId: 'whd_1',
      eventType: 'catalog.created',
      timestampSeconds: Math.floor(now.getTime() / 1000),
      body,
    })
    expect(headers['webhook-id']).toBe('whd_1')
    expect(headers['x-service-delivery']).toBe('whd_1')
    expect(headers['x-service-event']).toBe('catalog.created')
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body))
    // Any change to the body, id or timestamp fails.
    expect(() => new Webhook(secret).verify(`${body} `, { ...headers })).toThrow()
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'whd_2' })).toThrow()
    expect(() => new Webhook(newSigningSecret()).verify(body, { ...headers })).toThrow()
    expect(standardSignature(secret, 'whd_1', 1, body)).not.toBe(standardSignature(secret, 'whd_1', 2, body))
  })

  it('carry both signatures during a rotation overlap, each verifying on its own; X-Service-Signature one, the previous secret’s', () => {
    const current = newSigningSecret()
    const previous = newSigningSecret()
    const now = new Date('2026-11-22T10:15:30.000Z')
    vi.useFakeTimers({ toFake: ['Date'], now })
    const body = '{"hello":"world"}'
    const headers = signedHeaders({
      secrets: [current, previous],
      deliveryId: 'whd_9',
      eventType: 'webhook.test',
      timestampSeconds: now.getTime() / 1000,
      body,
    })
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2)
    expect(headers['x-service-signature']).toBe(serviceSignature(previous, body))
    expect(headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/)
    expect(() => new Webhook(current).verify(body, { ...headers })).not.toThrow()
    expect(() => new Webhook(previous).verify(body, { ...headers })).not.toThrow()
    expect(() => new Webhook(newSigningSecret()).verify(body, { ...headers })).toThrow()
  })
})
