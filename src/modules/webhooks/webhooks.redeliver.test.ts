import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, ownerWithOrg, type OrgAccount } from '../../../test/helpers.js'
import { buildWebhookTestApp, drain, Receiver, type WebhookTestApp } from '../../../test/webhook-helpers.js'

/**
 * Redeliveries of one delivery, many at once, while creates queue new deliveries and the
 * worker sends and records attempts: every lock is taken in one order (queue entry, then
 * delivery), so nothing deadlocks, no answer is a 5xx, and no recorded attempt is lost.
 */
let t: WebhookTestApp
let receiver: Receiver
let owner: OrgAccount

beforeAll(async () => {
  // An attempt never times out here, however busy the machine: every one succeeds.
  t = await buildWebhookTestApp({ timeoutMs: 120_000 })
  receiver = await Receiver.start()
  owner = await ownerWithOrg(t.app)
})
afterAll(async () => {
  await receiver.close()
  await t.close()
})

const LOOPS = 6
const REDELIVERIES_PER_LOOP = 25
const CREATES = 40

describe('concurrent redeliveries beside creates and the worker', () => {
  it('answer 200 or 409, never a 5xx, and the receiver gets exactly the attempts the log shows', async () => {
    const webhook = await call(t.app, {
      method: 'POST',
      url: '/api/webhooks',
      token: owner.token,
      body: { url: receiver.url(), events: ['creator.created'] },
    })
    expect(webhook.statusCode, webhook.body).toBe(201)
    const webhookId = webhook.json().id as string
    const createCreator = (i: number) =>
      call(t.app, {
        method: 'POST',
        url: '/api/creators',
        token: owner.token,
        body: { name: `Creator ${i}`, kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
      })
    expect((await createCreator(0)).statusCode).toBe(201)
    await drain(t.deliveries)
    const deliveries = await call(t.app, { url: `/api/webhooks/${webhookId}/deliveries`, token: owner.token })
    const deliveryId = deliveries.json().data[0].id as string

    const statuses = new Map<number, number>()
    const note = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)
    let writing = true
    const redeliveries = Array.from({ length: LOOPS }, async () => {
      for (let i = 0; i < REDELIVERIES_PER_LOOP; i += 1) {
        const response = await call(t.app, {
          method: 'POST',
          url: `/api/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`,
          token: owner.token,
        })
        note(response.statusCode)
      }
    })
    const creates = (async () => {
      for (let i = 1; i <= CREATES; i += 1) note((await createCreator(i)).statusCode)
    })()
    const worker = (async () => {
      while (writing) await t.deliveries.run()
    })()
    await Promise.all([...redeliveries, creates])
    writing = false
    await worker
    await drain(t.deliveries)

    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([])
    expect(statuses.get(201)).toBe(CREATES)
    expect((statuses.get(200) ?? 0) + (statuses.get(409) ?? 0)).toBe(LOOPS * REDELIVERIES_PER_LOOP)
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0)

    // Every attempt the log shows reached the receiver, and nothing reached it that the log does not show.
    const logged = new Map<string, number>()
    let cursor: string | undefined
    do {
      const page = await call(t.app, {
        url: `/api/webhooks/${webhookId}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        token: owner.token,
      })
      for (const delivery of page.json().data as { id: string; attempts: unknown[]; status: string }[]) {
        logged.set(delivery.id, delivery.attempts.length)
        expect(delivery.status).toBe('succeeded')
      }
      cursor = page.json().pagination.hasMore ? page.json().pagination.cursor : undefined
    } while (cursor)
    const received = new Map<string, number>()
    for (const request of receiver.received) {
      const id = String(request.headers['x-service-delivery'])
      received.set(id, (received.get(id) ?? 0) + 1)
    }
    expect(logged.size).toBe(CREATES + 1)
    expect(Object.fromEntries(received)).toEqual(Object.fromEntries(logged))
  }, 120_000)
})
