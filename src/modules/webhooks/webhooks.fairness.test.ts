import type { ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { beforeAll, describe, expect, it } from 'vitest'
import { SECOND } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import { createWorker } from '../../worker/worker.js'
import { eventually } from '../../../test/eventually.js'
import { ownerWithOrg, type OrgAccount } from '../../../test/helpers.js'
import { drain, Receiver, useWebhookSuite, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import { createDeliveryJob, DEFAULT_RETRY_SCHEDULE, type DeliveryWorkerDeps } from './webhooks.worker.js'

/**
 * Fair delivery over real sockets: an endpoint that never answers holds its own share of a
 * worker and nothing more, so the other endpoints of its org and other orgs' endpoints are
 * served as if it were not there; with two workers claiming at once, no endpoint has more
 * attempts under way than its cap and no delivery is sent twice at the same time.
 */
const suite = useWebhookSuite()
let t: WebhookTestApp
let owner: OrgAccount
let other: OrgAccount
beforeAll(async () => {
  ;({ t, owner } = suite)
  other = await ownerWithOrg(t.app)
})

const ctxOf = (account: OrgAccount): RequestContext => ({
  orgId: account.orgId,
  requestId: 'req_test',
  actor: { userId: account.userId, kind: 'person', role: 'owner' },
})
const subscribe = (account: OrgAccount, url: string) =>
  t.services.webhooks.create(ctxOf(account), { url, events: ['payout.paid'] })
const sendTest = async (account: OrgAccount, webhookId: string) =>
  (await t.services.webhooks.test(ctxOf(account), webhookId)).id
const deliveryIds = (from: Receiver) => new Set(from.received.map((d) => String(d.headers['x-service-delivery'])))

const worker = (deps: Partial<DeliveryWorkerDeps>) =>
  createDeliveryJob({
    db: t.db,
    clock: t.clock,
    audit: t.services.audit,
    box: t.secretBox,
    allowLoopback: true,
    lookup: t.dns.lookup,
    schedule: DEFAULT_RETRY_SCHEDULE,
    jitter: 0,
    ...deps,
  })

describe('an endpoint that never answers', () => {
  /** Longer than the test could run: its attempts are still hanging whenever the test looks. */
  const HANG_MS = 10 * 60 * SECOND

  it('holds its share of a worker and no more: healthy endpoints of its org and of another org are served while its attempts hang', async () => {
    // A worker as a process runs it (its own timers: an idle worker looks every second), with
    // four slots, two per endpoint; six deliveries to a receiver that never answers come first.
    const healthy = await Receiver.start()
    const silent = await Receiver.start()
    silent.setFallback(() => undefined)
    const same = await subscribe(owner, healthy.url('/same'))
    const theirs = await subscribe(other, healthy.url('/other'))
    const stuck = await subscribe(owner, silent.url())
    const process = createWorker([worker({ timeoutMs: HANG_MS, concurrency: 4, endpointConcurrency: 2 })], {
      error: () => undefined,
      warn: () => undefined,
    })
    process.start()
    try {
      for (let i = 0; i < 6; i += 1) await sendTest(owner, stuck.id)
      await eventually(() => silent.received.length === 2, 'the hanging endpoint’s two attempts')
      // Four times, one delivery to a healthy endpoint of the same org and one to another org's:
      // each arrives while the hanging attempts are still under way (none of them can end before
      // the test does), so nothing waited for them, however fast or slow the machine is.
      const measured: number[] = []
      for (let i = 0; i < 4; i += 1) {
        const queuedAt = performance.now()
        const ids = [await sendTest(owner, same.id), await sendTest(other, theirs.id)]
        await eventually(() => ids.every((id) => deliveryIds(healthy).has(id)), 'the healthy deliveries', {
          everyMs: 5,
          timeoutMs: 60 * SECOND,
        })
        measured.push(performance.now() - queuedAt)
      }
      // Its share, and not one attempt more, while its attempts hang; none of them finished.
      expect(silent.received).toHaveLength(2)
      const log = await t.services.webhooks.listDeliveries(ctxOf(owner), stuck.id, { limit: 100 })
      expect(
        log.data.flatMap((delivery) => delivery.attempts),
        `healthy after ${measured.join()} ms`,
      ).toEqual([])
    } finally {
      // Its connections dropped, the hanging attempts fail at once and the worker stops without waiting for them.
      await silent.close()
      await process.stop()
      await healthy.close()
      for (const [account, id] of [
        [owner, same.id],
        [other, theirs.id],
        [owner, stuck.id],
      ] as const)
        await t.services.webhooks.remove(ctxOf(account), id)
    }
  })
})

describe('two workers at once', () => {
  it('hold every endpoint to its cap, send every delivery, and never send one twice at the same time', async () => {
    const receiver = await Receiver.start()
    const underWay = new Map<string, number>()
    const most = new Map<string, number>()
    const inFlight = new Set<string>()
    let overlapping = 0
    const failedOnce = new Set<string>()
    // Every request is held 30 ms; the flaky endpoint fails the first attempt of three deliveries (its circuit stays closed).
    receiver.setFallback((request, response: ServerResponse) => {
      const path = request.url ?? ''
      const id = String(request.headers['x-service-delivery'])
      if (inFlight.has(id)) overlapping += 1
      inFlight.add(id)
      underWay.set(path, (underWay.get(path) ?? 0) + 1)
      most.set(path, Math.max(most.get(path) ?? 0, underWay.get(path)!))
      setTimeout(() => {
        underWay.set(path, underWay.get(path)! - 1)
        inFlight.delete(id)
        if (path === '/flaky' && failedOnce.size < 3 && !failedOnce.has(id)) {
          failedOnce.add(id)
          response.writeHead(503).end()
        } else response.end('ok')
      }, 30)
    })
    const endpoints = [
      { account: owner, webhook: await subscribe(owner, receiver.url('/a')) },
      { account: owner, webhook: await subscribe(owner, receiver.url('/flaky')) },
      { account: other, webhook: await subscribe(other, receiver.url('/b')) },
    ]
    try {
      const sent: string[] = []
      for (let i = 0; i < 12; i += 1)
        for (const { account, webhook } of endpoints) sent.push(await sendTest(account, webhook.id))
      // Three per endpoint in all, though each worker alone would run three at once to it.
      const sizes = { timeoutMs: 2000, concurrency: 6, endpointConcurrency: 3, endpointCap: 3 }
      const first = worker(sizes)
      const second = worker(sizes)
      for (let round = 0; round < 12 && deliveryIds(receiver).size < sent.length; round += 1) {
        await Promise.all([first.run(), second.run(), first.run(), second.run()])
        // The flaky endpoint's retries are due 5 s after their failure.
        t.clock.advance(5 * SECOND)
      }
      await drain(first)

      expect(
        [...most.values()].every((n) => n <= 3),
        JSON.stringify([...most]),
      ).toBe(true)
      expect(most.get('/a')).toBeGreaterThan(1)
      expect(overlapping).toBe(0)
      expect([...deliveryIds(receiver)].sort()).toEqual([...sent].sort())
      for (const { account, webhook } of endpoints) {
        const log = (await t.services.webhooks.listDeliveries(ctxOf(account), webhook.id, { limit: 100 })).data
        expect(log).toHaveLength(12)
        expect(log.every((delivery) => delivery.status === 'succeeded')).toBe(true)
        // Sent once each (twice for the three that failed first), never more.
        expect(log.every((delivery) => delivery.attemptCount === (failedOnce.has(delivery.id) ? 2 : 1))).toBe(true)
      }
      expect(failedOnce.size).toBe(3)
      expect(receiver.received).toHaveLength(12 * 3 + 3)
    } finally {
      for (const { account, webhook } of endpoints) await t.services.webhooks.remove(ctxOf(account), webhook.id)
      await receiver.close()
    }
  })
})
