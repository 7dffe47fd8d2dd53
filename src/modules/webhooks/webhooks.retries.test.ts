import { beforeAll, describe, expect, it } from 'vitest'
import { DAY, HOUR, SECOND } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import type { OrgAccount } from '../../../test/helpers.js'
import { drain, useWebhookSuite, type Receiver, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import { ATTEMPT_TIMEOUT_MS, DEFAULT_RETRY_SCHEDULE, retryAfterMs } from './webhooks.worker.js'

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
const endpoint = (webhookId: string) => t.services.webhooks.get(ctxOf(owner), webhookId)

describe('retries and disabling', () => {
  it('retries on the schedule: 500, 500, then 200 make three attempts with one delivery id', async () => {
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    receiver.clear()
    receiver.answer(500, 500)
    const delivery = await sendTest(webhook.id)
    expect(await t.deliveries.run()).toBe(1)
    expect((await deliveries(webhook.id))[0]).toMatchObject({
      status: 'pending',
      attemptCount: 1,
      nextAttemptAt: new Date(t.clock.now().getTime() + 5 * SECOND).toISOString(),
    })
    expect(await t.deliveries.run()).toBe(0)
    t.clock.advance(5 * SECOND)
    expect(await t.deliveries.run()).toBe(1)
    t.clock.advance(5 * 60 * SECOND - 1)
    expect(await t.deliveries.run()).toBe(0)
    t.clock.advance(1)
    expect(await t.deliveries.run()).toBe(1)
    expect(receiver.received.map((d) => d.headers['x-service-delivery'])).toEqual([
      delivery.id,
      delivery.id,
      delivery.id,
    ])
    const [log] = await deliveries(webhook.id)
    expect(log).toMatchObject({ status: 'succeeded', attemptCount: 3, nextAttemptAt: null })
    expect(log!.attempts.map((a) => [a.status, a.httpStatus, a.responseBody])).toEqual([
      ['failed', 500, 'status 500'],
      ['failed', 500, 'status 500'],
      ['succeeded', 200, 'ok'],
    ])
    expect(log!.attempts[0]!.error).toBe('the receiver answered 500')
  })

  it('gives up after the last step of the schedule (10 attempts over about 3 days)', async () => {
    expect(DEFAULT_RETRY_SCHEDULE).toEqual([0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400])
    expect(ATTEMPT_TIMEOUT_MS).toBe(15_000)
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    receiver.setFallback((_request, response) => response.writeHead(500).end())
    try {
      await sendTest(webhook.id)
      for (const seconds of DEFAULT_RETRY_SCHEDULE) {
        t.clock.advance(seconds * SECOND)
        expect(await t.deliveries.run()).toBe(1)
      }
      t.clock.advance(DAY)
      expect(await t.deliveries.run()).toBe(0)
      expect((await deliveries(webhook.id))[0]).toMatchObject({
        status: 'failed',
        attemptCount: 10,
        nextAttemptAt: null,
      })
      expect((await endpoint(webhook.id)).status).toBe('enabled')
    } finally {
      receiver.setFallback((_request, response) => response.end('ok'))
    }
  })

  it('honours Retry-After when it asks for longer than the schedule, in seconds or as a date', async () => {
    expect(retryAfterMs('120', t.clock.now())).toBe(120 * SECOND)
    expect(retryAfterMs(new Date(t.clock.now().getTime() + 90 * SECOND).toUTCString(), t.clock.now())).toBe(90 * SECOND)
    expect(retryAfterMs('soon', t.clock.now())).toBeNull()
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    receiver.answer({ status: 503, headers: { 'retry-after': '120' } })
    await sendTest(webhook.id)
    await t.deliveries.run()
    expect((await deliveries(webhook.id))[0]!.nextAttemptAt).toBe(
      new Date(t.clock.now().getTime() + 120 * SECOND).toISOString(),
    )
    t.clock.advance(119 * SECOND)
    expect(await t.deliveries.run()).toBe(0)
    t.clock.advance(SECOND)
    expect(await t.deliveries.run()).toBe(1)
    expect((await deliveries(webhook.id))[0]!.status).toBe('succeeded')
  })

  it('disables the endpoint on 410 Gone and tells the org, as the system user', async () => {
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    receiver.answer(410)
    await sendTest(webhook.id)
    await t.deliveries.run()
    expect(await endpoint(webhook.id)).toMatchObject({
      status: 'disabled',
      disabledReason: 'the receiver answered 410 Gone',
    })
    expect((await deliveries(webhook.id))[0]!.status).toBe('failed')
    const events = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('org_events')
        .innerJoin('users', 'users.id', 'org_events.user_id')
        .select(['action', 'resource_id', 'users.kind'])
        .where('org_id', '=', owner.orgId)
        .orderBy('sequence', 'desc')
        .limit(1)
        .execute(),
    )
    expect(events[0]).toEqual({ action: 'webhook.disabled', resource_id: webhook.id, kind: 'system' })
  })

  it('disables an endpoint that failed continuously for 5 days, and not before', async () => {
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    receiver.setFallback((_request, response) => response.writeHead(500).end())
    try {
      const start = t.clock.now().getTime()
      let disabledAt: number | null = null
      for (let hour = 0; hour <= 6 * 24 && disabledAt === null; hour += 1) {
        if (hour % 12 === 0) await sendTest(webhook.id)
        await drain(t.deliveries)
        if ((await endpoint(webhook.id)).status === 'disabled') disabledAt = t.clock.now().getTime()
        t.clock.advance(HOUR)
      }
      expect(disabledAt).not.toBeNull()
      expect(disabledAt! - start).toBeGreaterThanOrEqual(5 * DAY)
      expect(disabledAt! - start).toBeLessThanOrEqual(5 * DAY + 12 * HOUR)
      expect((await endpoint(webhook.id)).disabledReason).toBe('every delivery failed for 5 days')
      const last = await t.db.read(owner.orgId, (db) =>
        db
          .selectFrom('org_events')
          .select(['action', 'data'])
          .where('org_id', '=', owner.orgId)
          .orderBy('sequence', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow(),
      )
      expect({ ...last, data: JSON.parse(last.data) as unknown }).toMatchObject({
        action: 'webhook.disabled',
        data: { id: webhook.id, status: 'disabled' },
      })
      // The org's owners and admins are told by email, with the endpoint and its last error.
      const emails = await t.db.global
        .selectFrom('email_outbox')
        .select(['to_address', 'variables'])
        .where('tenant_org', '=', owner.orgId)
        .where('kind', '=', 'webhook_disabled')
        .execute()
      const about = emails.filter((email) => (email.variables.webhook as { id: string }).id === webhook.id)
      expect(about).toEqual([
        {
          to_address: owner.email,
          variables: expect.objectContaining({
            webhook: { id: webhook.id, url: (await endpoint(webhook.id)).url },
            lastError: 'the receiver answered 500',
          }),
        },
      ])
      // What was still queued is not sent to a disabled endpoint.
      receiver.clear()
      t.clock.advance(DAY)
      await drain(t.deliveries)
      expect(receiver.received).toEqual([])
      expect((await deliveries(webhook.id)).filter((d) => d.status === 'pending')).toEqual([])
    } finally {
      receiver.setFallback((_request, response) => response.end('ok'))
    }
  })

  it('a success resets the failure streak', async () => {
    const webhook = await subscribe(['payout.paid'])
    await drain(t.deliveries)
    receiver.answer(500)
    await sendTest(webhook.id)
    await t.deliveries.run()
    t.clock.advance(4 * DAY)
    await sendTest(webhook.id)
    await drain(t.deliveries)
    t.clock.advance(2 * DAY)
    receiver.answer(500)
    await sendTest(webhook.id)
    await t.deliveries.run()
    expect((await endpoint(webhook.id)).status).toBe('enabled')
  })
})
