import { randomBytes } from 'node:crypto'
import { Oeuvre, verifyWebhook, WebhookVerificationError } from '@oeuvre/sdk'
import fc from 'fast-check'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drain, Receiver, type ReceivedDelivery } from '../../../test/webhook-helpers.js'
import { credentials, RealTimeClock, sandboxPartner, startService, type LiveService, type Partner } from './service.js'

let service: LiveService
let partner: Partner
let oeuvre: Oeuvre
let receiver: Receiver

beforeAll(async () => {
  // Deliveries carry the service's time in webhook-timestamp: let it be now, as in production.
  service = await startService({ clock: new RealTimeClock(), isolated: true })
  partner = await sandboxPartner(service)
  oeuvre = new Oeuvre(credentials(service, partner))
  receiver = await Receiver.start()
})
afterAll(async () => {
  await receiver.close()
  await service.close()
})

const deliver = () => drain(service.t.services.jobs.find((job) => job.name === 'webhook-deliveries')!)

/** Registers an endpoint for `events`, makes one creator, and returns what the receiver got. */
async function realDelivery(events: string[] = ['creator.created']) {
  const endpoint = await oeuvre.webhooks.create(partner.orgId, { url: receiver.url(), events })
  receiver.clear()
  const creator = await oeuvre.creators.create(partner.orgId, {
    name: 'Delivered',
    kind: 'person',
    roles: ['composer'],
    payoutCurrency: 'EUR',
  })
  await deliver()
  const delivery = receiver.received.find((received) => received.body.includes(creator.id))
  expect(delivery, 'the delivery of creator.created').toBeDefined()
  return { endpoint, creator, delivery: delivery! }
}

const flip = (text: string) => text.replace(/"Delivered"/, '"Delivere\u0064 "')
const withHeader = (delivery: ReceivedDelivery, name: string, value: string | undefined) => {
  const headers = { ...delivery.headers }
  if (value === undefined) delete headers[name]
  else headers[name] = value
  return headers
}

async function refusal(call: Promise<unknown>): Promise<WebhookVerificationError> {
  const failure = await call.then(
    () => expect.unreachable('the delivery verified'),
    (error: unknown) => error,
  )
  expect(failure).toBeInstanceOf(WebhookVerificationError)
  return failure as WebhookVerificationError
}

describe('verifyWebhook against the service’s real deliveries', () => {
  it('verifies a delivery and returns its body; the standardwebhooks package agrees', async () => {
    const { endpoint, creator, delivery } = await realDelivery()
    const event = await verifyWebhook(delivery.body, delivery.headers, endpoint.signingSecret!)
    expect(event).toEqual(JSON.parse(delivery.body))
    expect(event).toMatchObject({ type: 'creator.created', orgId: partner.orgId, data: { object: { id: creator.id } } })
    expect(event.data.event).toMatchObject({ action: 'creator.created', hash: expect.stringMatching(/^sha256:/) })
    expect(
      new Webhook(endpoint.signingSecret!).verify(delivery.body, delivery.headers as Record<string, string>),
    ).toEqual(event)
    // The raw bytes, a Headers object, an ArrayBuffer: the same answer.
    const bytes = new TextEncoder().encode(delivery.body)
    const headers = new Headers(delivery.headers as Record<string, string>)
    expect(await verifyWebhook(bytes, headers, [endpoint.signingSecret!])).toEqual(event)
    expect(await verifyWebhook(bytes.buffer, headers, endpoint.signingSecret!)).toEqual(event)
    await oeuvre.webhooks.delete(partner.orgId, endpoint.id)
  })

  it('refuses a tampered body, a wrong secret, a tampered or missing signature header', async () => {
    const { endpoint, delivery } = await realDelivery()
    const secret = endpoint.signingSecret!
    const tampered = flip(delivery.body)
    expect(tampered).not.toBe(delivery.body)
    expect((await refusal(verifyWebhook(tampered, delivery.headers, secret))).code).toBe('signature_mismatch')
    expect(() => new Webhook(secret).verify(tampered, delivery.headers as Record<string, string>)).toThrow()
    const stranger = `whsec_${randomBytes(32).toString('base64')}`
    expect((await refusal(verifyWebhook(delivery.body, delivery.headers, stranger))).code).toBe('signature_mismatch')

    const zeros = `sha256=${'0'.repeat(64)}`
    const badService = withHeader(delivery, 'x-service-signature', zeros)
    expect((await refusal(verifyWebhook(delivery.body, badService, secret))).code).toBe('signature_mismatch')
    const badStandard = withHeader(delivery, 'webhook-signature', `v1,${Buffer.alloc(32).toString('base64')}`)
    expect((await refusal(verifyWebhook(delivery.body, badStandard, secret))).code).toBe('signature_mismatch')
    const otherId = withHeader(delivery, 'webhook-id', 'whd_01JD2YB6X8Q0W3M5N7P9R1T3V5')
    expect((await refusal(verifyWebhook(delivery.body, otherId, secret))).code).toBe('signature_mismatch')
    const partial = withHeader(delivery, 'webhook-timestamp', undefined)
    expect((await refusal(verifyWebhook(delivery.body, partial, secret))).code).toBe('signature_missing')
    const bare = { 'content-type': 'application/json' }
    expect((await refusal(verifyWebhook(delivery.body, bare, secret))).code).toBe('signature_missing')
    expect((await refusal(verifyWebhook(delivery.body, delivery.headers, []))).code).toBe('secret_missing')
    await oeuvre.webhooks.delete(partner.orgId, endpoint.id)
  })

  it('accepts X-Service-Signature alone, as GitHub-style receivers see it', async () => {
    const { endpoint, delivery } = await realDelivery()
    const only = { 'x-service-signature': String(delivery.headers['x-service-signature']) }
    expect((await verifyWebhook(delivery.body, only, endpoint.signingSecret!)).id).toBe(JSON.parse(delivery.body).id)
    await oeuvre.webhooks.delete(partner.orgId, endpoint.id)
  })

  it('holds webhook-timestamp to the tolerance, either way (default 5 minutes)', async () => {
    const { endpoint, delivery } = await realDelivery()
    const sentAt = Number(delivery.headers['webhook-timestamp']) * 1000
    const at = (offsetSeconds: number, toleranceSeconds?: number) =>
      verifyWebhook(delivery.body, delivery.headers, endpoint.signingSecret!, {
        now: sentAt + offsetSeconds * 1000,
        ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
      })
    await expect(at(299)).resolves.toMatchObject({ type: 'creator.created' })
    await expect(at(-299)).resolves.toMatchObject({ type: 'creator.created' })
    expect((await refusal(at(301))).code).toBe('timestamp_outside_tolerance')
    expect((await refusal(at(-301))).code).toBe('timestamp_outside_tolerance')
    expect((await refusal(at(61, 60))).code).toBe('timestamp_outside_tolerance')
    const replayed = withHeader(delivery, 'webhook-timestamp', 'soon')
    expect((await refusal(verifyWebhook(delivery.body, replayed, endpoint.signingSecret!))).code).toBe(
      'invalid_timestamp',
    )
    await oeuvre.webhooks.delete(partner.orgId, endpoint.id)
  })

  it('during a secret rotation, verifies with the new and the previous secret given together', async () => {
    const { endpoint } = await realDelivery()
    const rotated = await oeuvre.webhooks.rotateSecret(partner.orgId, endpoint.id)
    receiver.clear()
    await oeuvre.creators.create(partner.orgId, {
      name: 'Rotated',
      kind: 'person',
      roles: ['composer'],
      payoutCurrency: 'EUR',
    })
    await deliver()
    const delivery = receiver.received.find((received) => received.body.includes('Rotated'))!
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2)
    const secrets = [rotated.signingSecret!, endpoint.signingSecret!]
    await expect(verifyWebhook(delivery.body, delivery.headers, secrets)).resolves.toMatchObject({
      type: 'creator.created',
    })
    await expect(verifyWebhook(delivery.body, delivery.headers, [...secrets].reverse())).resolves.toBeDefined()
    const stranger = `whsec_${randomBytes(32).toString('base64')}`
    await refusal(verifyWebhook(delivery.body, delivery.headers, [stranger]))
    // Standard Webhooks carries both signatures: either secret alone verifies it.
    const standard = withHeader(delivery, 'x-service-signature', undefined)
    await expect(verifyWebhook(delivery.body, standard, rotated.signingSecret!)).resolves.toBeDefined()
    await expect(verifyWebhook(delivery.body, standard, endpoint.signingSecret!)).resolves.toBeDefined()
    await oeuvre.webhooks.delete(partner.orgId, endpoint.id)
  })
})

describe('verifyWebhook and the standardwebhooks package (property)', () => {
  const secretArbitrary = fc
    .uint8Array({ minLength: 24, maxLength: 64 })
    .map((bytes) => `whsec_${Buffer.from(bytes).toString('base64')}`)

  it('accepts what standardwebhooks signs and refuses any other body, both alike', async () => {
    await fc.assert(
      fc.asyncProperty(
        secretArbitrary,
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.stringMatching(/^msg_[A-Za-z0-9]{1,30}$/),
        fc.integer({ min: -250, max: 250 }),
        fc.string({ minLength: 1, maxLength: 5 }),
        async (secret, text, id, offsetSeconds, extra) => {
          const body = JSON.stringify({ text })
          const sentAt = new Date(Math.floor(Date.now() / 1000 + offsetSeconds) * 1000)
          const signer = new Webhook(secret)
          const headers = {
            'webhook-id': id,
            'webhook-timestamp': String(sentAt.getTime() / 1000),
            'webhook-signature': signer.sign(id, sentAt, body),
          }
          expect(signer.verify(body, headers)).toEqual({ text })
          await expect(verifyWebhook(body, headers, secret)).resolves.toEqual({ text })
          const other = body.slice(0, -1) + extra + '}'
          expect(() => signer.verify(other, headers)).toThrow()
          await expect(verifyWebhook(other, headers, secret)).rejects.toBeInstanceOf(WebhookVerificationError)
        },
      ),
      { numRuns: 100 },
    )
  })
})
