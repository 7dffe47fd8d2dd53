import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOUR } from '../../platform/clock.js'
import {
  call,
  eventCount,
  expectProblem,
  memberWithRole,
  ownerWithOrg,
  type OrgAccount,
} from '../../../test/helpers.js'
import { buildWebhookTestApp, drain, Receiver, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import { firstBytes, REQUEST_BODY_SHOWN } from './webhooks.repo.js'

/**
 * "Resend every failed delivery since ...": one attempt per delivery here
 * (WEBHOOK_RETRY_SCHEDULE=0), so a 500 leaves a delivery failed at once.
 */
let t: WebhookTestApp
let receiver: Receiver
let owner: OrgAccount
beforeAll(async () => {
  t = await buildWebhookTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '0' } })
  receiver = await Receiver.start()
  owner = await ownerWithOrg(t.app)
})
afterAll(async () => {
  await receiver.close()
  await t.close()
})

interface LoggedDelivery {
  id: string
  status: string
  attempts: { status: string; requestBody: string; responseBody: string | null }[]
}

const newWebhook = async (account = owner) => {
  const response = await call(t.app, {
    method: 'POST',
    url: '/api/webhooks',
    token: account.token,
    body: { url: receiver.url(), events: ['creator.created'] },
  })
  expect(response.statusCode, response.body).toBe(201)
  return response.json().id as string
}
const sendTest = async (webhookId: string) => {
  const response = await call(t.app, { method: 'POST', url: `/api/webhooks/${webhookId}/test`, token: owner.token })
  expect(response.statusCode, response.body).toBe(200)
  return response.json().id as string
}
const log = async (webhookId: string): Promise<LoggedDelivery[]> =>
  (await call(t.app, { url: `/api/webhooks/${webhookId}/deliveries?limit=100`, token: owner.token })).json().data
const redeliverFailed = (webhookId: string, since: unknown, account = owner) =>
  call(t.app, {
    method: 'POST',
    url: `/api/webhooks/${webhookId}/deliveries/redeliver-failed`,
    token: account.token,
    body: { since },
  })

describe('POST /api/webhooks/:id/deliveries/redeliver-failed', () => {
  it('queues again the failed deliveries created since the time given, and only those', async () => {
    const webhookId = await newWebhook()
    await drain(t.deliveries)
    receiver.setFallback((_request, response) => response.writeHead(500).end('down for maintenance'))
    const early = [await sendTest(webhookId), await sendTest(webhookId)]
    await drain(t.deliveries)
    t.clock.advance(HOUR)
    const since = t.clock.now().toISOString()
    const late = [await sendTest(webhookId), await sendTest(webhookId)]
    await drain(t.deliveries)
    receiver.setFallback((_request, response) => response.end('ok'))
    const succeeded = await sendTest(webhookId)
    await drain(t.deliveries)
    const before = await log(webhookId)
    expect(
      before
        .filter((d) => d.status === 'failed')
        .map((d) => d.id)
        .sort(),
    ).toEqual([...early, ...late].sort())
    expect(before.find((d) => d.id === succeeded)?.status).toBe('succeeded')

    const events = await eventCount(t.db, owner.orgId)
    const answer = await redeliverFailed(webhookId, since)
    expect(answer.statusCode, answer.body).toBe(200)
    expect(answer.json()).toEqual({ redelivered: 2, more: false })
    expect(await eventCount(t.db, owner.orgId)).toBe(events + 2)
    const queued = await log(webhookId)
    expect(
      queued
        .filter((d) => d.status === 'pending')
        .map((d) => d.id)
        .sort(),
    ).toEqual([...late].sort())
    expect(
      queued
        .filter((d) => d.status === 'failed')
        .map((d) => d.id)
        .sort(),
    ).toEqual([...early].sort())

    receiver.clear()
    await drain(t.deliveries)
    expect(receiver.received.map((request) => request.headers['x-service-delivery']).sort()).toEqual([...late].sort())
    const after = await log(webhookId)
    for (const id of late) expect(after.find((d) => d.id === id)?.status).toBe('succeeded')

    // Nothing failed is left since then: a second call queues nothing.
    expect((await redeliverFailed(webhookId, since)).json()).toEqual({ redelivered: 0, more: false })
  })

  it('shows each attempt the body it sent (the signed bytes the receiver got) and the body it received', async () => {
    const webhookId = await newWebhook()
    await drain(t.deliveries)
    receiver.clear()
    receiver.answer({ status: 503, body: 'try later' })
    const deliveryId = await sendTest(webhookId)
    await drain(t.deliveries)
    const [delivery] = (await log(webhookId)).filter((d) => d.id === deliveryId)
    const received = receiver.received.find((request) => request.headers['x-service-delivery'] === deliveryId)
    expect(delivery!.attempts).toHaveLength(1)
    expect(delivery!.attempts[0]).toMatchObject({ status: 'failed', responseBody: 'try later' })
    expect(delivery!.attempts[0]!.requestBody).toBe(received!.body)
    expect(JSON.parse(delivery!.attempts[0]!.requestBody)).toMatchObject({
      id: expect.any(String),
      type: 'webhook.test',
    })
  })

  it('refuses a time that is not one (400), a disabled endpoint (422), a viewer (403) and another org (404)', async () => {
    const webhookId = await newWebhook()
    const events = await eventCount(t.db, owner.orgId)
    expectProblem(await redeliverFailed(webhookId, 'yesterday'), 400, 'parameter_invalid')
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    const viewerEvents = await eventCount(t.db, owner.orgId)
    expectProblem(await redeliverFailed(webhookId, t.clock.now().toISOString(), viewer), 403, 'forbidden')
    const stranger = await ownerWithOrg(t.app)
    expectProblem(await redeliverFailed(webhookId, t.clock.now().toISOString(), stranger), 404, 'resource_missing')
    expect(await eventCount(t.db, owner.orgId)).toBe(viewerEvents)
    expect(viewerEvents).toBeGreaterThan(events) // the viewer's joining, nothing else
    await call(t.app, { method: 'POST', url: `/api/webhooks/${webhookId}/disable`, token: owner.token })
    expectProblem(await redeliverFailed(webhookId, t.clock.now().toISOString()), 422, 'invalid_state')
  })
})

describe('resending every failed delivery beside single redeliveries and the worker', () => {
  it('never answers a 5xx: every lock is taken queue entry first, then delivery, in id order', async () => {
    const webhookId = await newWebhook()
    await drain(t.deliveries)
    receiver.setFallback((_request, response) => response.writeHead(500).end())
    const since = t.clock.now().toISOString()
    const ids: string[] = []
    for (let i = 0; i < 6; i += 1) ids.push(await sendTest(webhookId))
    await drain(t.deliveries)
    const statuses: number[] = []
    let running = true
    const worker = (async () => {
      // A macrotask between rounds: on PGlite a round with nothing due never leaves the microtask queue.
      while (running) {
        await t.deliveries.run()
        await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    const bulk = Array.from({ length: 3 }, async () => {
      for (let i = 0; i < 10; i += 1) statuses.push((await redeliverFailed(webhookId, since)).statusCode)
    })
    const single = ids.slice(0, 3).map(async (id) => {
      for (let i = 0; i < 10; i += 1) {
        const url = `/api/webhooks/${webhookId}/deliveries/${id}/redeliver`
        statuses.push((await call(t.app, { method: 'POST', url, token: owner.token })).statusCode)
      }
    })
    await Promise.all([...bulk, ...single])
    running = false
    await worker
    receiver.setFallback((_request, response) => response.end('ok'))
    expect(statuses.filter((status) => status >= 500)).toEqual([])
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0)
    expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([])
  })
})

describe('firstBytes', () => {
  it('keeps the longest prefix of whole characters within the limit', () => {
    expect(REQUEST_BODY_SHOWN).toBe(4096)
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(64), (value, limit) => {
        const kept = firstBytes(value, limit)
        expect(value.startsWith(kept)).toBe(true)
        expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(limit)
        const next = [...value.slice(kept.length)][0]
        if (next !== undefined) expect(Buffer.byteLength(kept + next)).toBeGreaterThan(limit)
      }),
    )
  })
})
