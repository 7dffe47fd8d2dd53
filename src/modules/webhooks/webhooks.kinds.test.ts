import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RequestContext } from '../../platform/context.js'
import { ownerWithOrg } from '../../../test/helpers.js'
import { buildWebhookTestApp, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import { deliveredKind, EVERY_EVENT_KIND, WILDCARD_KIND } from './webhooks.kinds.js'

let t: WebhookTestApp
beforeAll(async () => {
  t = await buildWebhookTestApp()
})
afterAll(() => t.close())

describe('which events an endpoint is sent, and as which kind', () => {
  it('follows deliveredKind exactly (the outbox applies it in SQL), for every subscription and action', async () => {
    const owner = await ownerWithOrg(t.app)
    const ctx: RequestContext = {
      orgId: owner.orgId,
      requestId: 'req_kinds',
      actor: { userId: owner.userId, kind: 'person', role: 'owner' },
    }
    const subscriptions = [
      ['catalog.created'],
      ['creator.created', 'payout.paid'],
      [WILDCARD_KIND],
      [EVERY_EVENT_KIND],
      ['catalog.created', EVERY_EVENT_KIND],
      ['webhook.test'],
      ['revenue.created'],
    ]
    const endpoints = []
    for (const events of subscriptions)
      endpoints.push(await t.services.webhooks.create(ctx, { url: 'http://127.0.0.1:9/hooks', events }))
    const actions = ['catalog.created', 'creator.created', 'payout.paid', 'webhook.test', 'member.invited']
    const appended = await t.db.tx(ctx, (tx) =>
      t.services.audit.appendNow(
        tx,
        ctx,
        actions.map((action, i) => ({ action, resource: { type: 'record', id: `rec_${i}` }, data: { i } })),
      ),
    )
    const run = new Map(appended.map((event) => [event.id, event.action]))

    for (const [index, endpoint] of endpoints.entries()) {
      const deliveries = (await t.services.webhooks.listDeliveries(ctx, endpoint.id, { limit: 100 })).data.filter(
        (delivery) => run.has(delivery.eventId),
      )
      const sent = deliveries.map((delivery) => `${run.get(delivery.eventId)} as ${delivery.type}`).sort()
      const expected = actions.flatMap((action) => {
        const kind = deliveredKind(subscriptions[index]!, action)
        return kind === null ? [] : [`${action} as ${kind}`]
      })
      expect(sent, `endpoint subscribed to ${subscriptions[index]!.join(', ')}`).toEqual(expected.sort())
    }
  })
})
