import { createHmac, timingSafeEqual } from 'node:crypto'
import { verify as octokitVerify } from '@octokit/webhooks-methods'
import { Webhook } from 'standardwebhooks'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { DAY, HOUR, SECOND } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import { call, type OrgAccount } from '../../../test/helpers.js'
import {
  drain,
  useWebhookSuite,
  type ReceivedDelivery,
  type Receiver,
  type WebhookTestApp,
} from '../../../test/webhook-helpers.js'
import { RESPONSE_READ_LIMIT } from './webhooks.http.js'

const suite = useWebhookSuite()
let t: WebhookTestApp
let receiver: Receiver
let owner: OrgAccount
beforeAll(() => {
  ;({ t, receiver, owner } = suite)
})

// Through the service: these tests move the clock by days, past any session's life.
const subscribe = (events: string[], url = receiver.url()) => t.services.webhooks.create(ctxOf(owner), { url, events })

const ctxOf = (account: OrgAccount): RequestContext => ({
  orgId: account.orgId,
  requestId: 'req_test',
  actor: { userId: account.userId, kind: 'person', role: 'owner' },
})
const sendTest = (webhookId: string) => t.services.webhooks.test(ctxOf(owner), webhookId)
const deliveries = async (webhookId: string) =>
  (await t.services.webhooks.listDeliveries(ctxOf(owner), webhookId, { limit: 100 })).data

/** An independent receiver's check: HMAC-SHA256 of the raw body with the secret, compared in constant time. */
function signatureValid(delivery: ReceivedDelivery, secret: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`)
  const given = Buffer.from(String(delivery.headers['x-service-signature']))
  return given.length === expected.length && timingSafeEqual(given, expected)
}

describe('delivery', () => {
  it('sends each subscribed kind and nothing else, signed, with the documented body and headers', async () => {
    const onlyInvites = await subscribe(['member.invited'])
    const everything = await subscribe(['audit.emitted'])
    const wildcard = await subscribe(['*'])
    receiver.clear()
    await drain(t.deliveries)
    receiver.clear()

    const invite = await call(t.app, {
      method: 'POST',
      url: '/api/members/invitations',
      token: owner.token,
      body: { email: 'new@example.com', role: 'viewer' },
    })
    expect(invite.statusCode).toBe(201)
    expect(await drain(t.deliveries)).toBe(3)

    const byEndpoint = (secret: string) => receiver.received.filter((delivery) => signatureValid(delivery, secret))
    const [invited] = byEndpoint(onlyInvites.signingSecret)
    expect(byEndpoint(onlyInvites.signingSecret)).toHaveLength(1)
    expect(invited!.headers).toMatchObject({ 'content-type': 'application/json', 'x-service-event': 'member.invited' })
    const body = JSON.parse(invited!.body)
    expect(Object.keys(body)).toEqual(['id', 'type', 'createdAt', 'orgId', 'data'])
    expect(body).toMatchObject({ type: 'member.invited', orgId: owner.orgId, createdAt: t.clock.now().toISOString() })
    expect(body.id).toMatch(/^evt_/)
    expect(body.data.event).toMatchObject({
      id: body.id,
      action: 'member.invited',
      sequence: expect.any(Number),
      hash: expect.stringMatching(/^sha256:/),
    })
    expect(body.data.object).toMatchObject({ email: 'new@example.com', role: 'viewer' })

    const [log] = await deliveries(onlyInvites.id)
    expect(invited!.headers['x-service-delivery']).toBe(log!.id)
    expect(invited!.headers['webhook-id']).toBe(log!.id)
    expect(invited!.headers['webhook-timestamp']).toBe(String(Math.floor(t.clock.now().getTime() / 1000)))
    vi.useFakeTimers({ toFake: ['Date'], now: t.clock.now() })
    try {
      expect(
        new Webhook(onlyInvites.signingSecret).verify(invited!.body, invited!.headers as Record<string, string>),
      ).toEqual(body)
    } finally {
      vi.useRealTimers()
    }

    expect(byEndpoint(everything.signingSecret).map((d) => d.headers['x-service-event'])).toEqual(['audit.emitted'])
    expect(JSON.parse(byEndpoint(everything.signingSecret)[0]!.body).type).toBe('audit.emitted')
    expect(byEndpoint(wildcard.signingSecret).map((d) => d.headers['x-service-event'])).toEqual(['member.invited'])
    expect(log).toMatchObject({
      status: 'succeeded',
      attemptCount: 1,
      attempts: [
        {
          attempt: 1,
          status: 'succeeded',
          httpStatus: 200,
          responseBody: 'ok',
          trigger: 'scheduled',
          address: '127.0.0.1',
        },
      ],
    })
    expect(log!.attempts[0]!.latencyMs).toBeGreaterThanOrEqual(0)
  })

  it('treats a redirect as a failure and does not follow it', async () => {
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    receiver.clear()
    receiver.answer({ status: 302, headers: { location: receiver.url('/elsewhere') } })
    const delivery = await sendTest(webhook.id)
    await t.deliveries.run()
    expect(receiver.received.filter((d) => d.headers['x-service-delivery'] === delivery.id)).toHaveLength(1)
    expect(receiver.received.map((d) => d.path)).not.toContain('/elsewhere')
    const [log] = await deliveries(webhook.id)
    expect(log).toMatchObject({ status: 'pending', lastHttpStatus: 302 })
    expect(log!.lastError).toMatch(/redirects are not followed/)
  })

  it('reads at most 64 KiB of a response, even one that never ends', async () => {
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    receiver.respondWith((_request, response) => {
      response.writeHead(200)
      const chunk = 'x'.repeat(16 * 1024)
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once('drain', pump)
      }
      pump()
    })
    await sendTest(webhook.id)
    await t.deliveries.run()
    const [log] = await deliveries(webhook.id)
    expect(log!.status).toBe('succeeded')
    expect(log!.attempts[0]!.responseBody).toHaveLength(RESPONSE_READ_LIMIT)
  })

  it('fails an attempt that gets no answer within the timeout', async () => {
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    receiver.respondWith(() => undefined)
    await sendTest(webhook.id)
    await t.deliveries.run()
    const [log] = await deliveries(webhook.id)
    expect(log).toMatchObject({ status: 'pending', lastHttpStatus: null, lastError: 'no response within 1000 ms' })
  })

  it('signs X-Service-Signature with the secret the receiver has until the overlap ends, webhook-signature with both', async () => {
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    const rotated = await t.services.webhooks.rotateSecret(ctxOf(owner), webhook.id)
    const delivered = async () => {
      const { id } = await sendTest(webhook.id)
      await drain(t.deliveries)
      return receiver.received.find((d) => d.headers['x-service-delivery'] === id)!
    }
    const standardVerifies = (delivery: ReceivedDelivery, secret: string) => {
      vi.useFakeTimers({ toFake: ['Date'], now: t.clock.now() })
      try {
        new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)
        return true
      } catch {
        return false
      } finally {
        vi.useRealTimers()
      }
    }

    // During the overlap: one sha256= value, by the previous secret, which GitHub-style verifiers accept.
    const during = await delivered()
    const header = String(during.headers['x-service-signature'])
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/)
    expect(signatureValid(during, webhook.signingSecret)).toBe(true)
    expect(await octokitVerify(webhook.signingSecret, during.body, header)).toBe(true)
    expect(await octokitVerify(rotated.signingSecret, during.body, header)).toBe(false)
    // A receiver that moved to the new secret already verifies Standard Webhooks with either.
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2)
    expect(standardVerifies(during, webhook.signingSecret)).toBe(true)
    expect(standardVerifies(during, rotated.signingSecret)).toBe(true)

    // After it: the new secret alone, in both headers.
    t.clock.advance(24 * HOUR + SECOND)
    const after = await delivered()
    expect(signatureValid(after, rotated.signingSecret)).toBe(true)
    expect(await octokitVerify(rotated.signingSecret, after.body, String(after.headers['x-service-signature']))).toBe(
      true,
    )
    expect(await octokitVerify(webhook.signingSecret, after.body, String(after.headers['x-service-signature']))).toBe(
      false,
    )
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1)
    expect(standardVerifies(after, rotated.signingSecret)).toBe(true)
    expect(standardVerifies(after, webhook.signingSecret)).toBe(false)
  })

  it('redelivers a finished delivery: a new attempt under the same id, logged as a redelivery', async () => {
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    receiver.clear()
    const delivery = await sendTest(webhook.id)
    await t.deliveries.run()
    expect(await t.services.webhooks.redeliver(ctxOf(owner), webhook.id, delivery.id)).toMatchObject({
      id: delivery.id,
      status: 'pending',
    })
    await t.deliveries.run()
    const received = receiver.received.filter((d) => d.headers['x-service-delivery'] === delivery.id)
    expect(received).toHaveLength(2)
    expect(received[0]!.body).toBe(received[1]!.body)
    const [log] = await deliveries(webhook.id)
    expect(log!.attempts.map((a) => [a.attempt, a.trigger, a.status])).toEqual([
      [1, 'scheduled', 'succeeded'],
      [2, 'redelivery', 'succeeded'],
    ])
  })

  it('does not send what was queued for an endpoint disabled since', async () => {
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    receiver.clear()
    await sendTest(webhook.id)
    await t.services.webhooks.disable(ctxOf(owner), webhook.id)
    await drain(t.deliveries)
    expect(receiver.received).toEqual([])
    expect((await deliveries(webhook.id))[0]).toMatchObject({ status: 'failed', lastError: 'the webhook is disabled' })
  })

  it('prunes finished deliveries after 30 days', async () => {
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    await sendTest(webhook.id)
    await t.deliveries.run()
    expect(await deliveries(webhook.id)).toHaveLength(1)
    t.clock.advance(29 * DAY)
    await t.job('webhook-prune').run()
    expect(await deliveries(webhook.id)).toHaveLength(1)
    t.clock.advance(2 * DAY)
    expect(await t.job('webhook-prune').run()).toBeGreaterThan(0)
    expect(await deliveries(webhook.id)).toEqual([])
    const queued = await t.db.global
      .selectFrom('webhook_queue')
      .selectAll()
      .where('tenant_org', '=', owner.orgId)
      .where('finished_at', '<', new Date(t.clock.now().getTime() - 30 * DAY))
      .execute()
    expect(queued).toEqual([])
  })
})
