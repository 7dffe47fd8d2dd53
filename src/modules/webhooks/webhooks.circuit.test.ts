import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { SECOND } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import { drain, useWebhookSuite, type Receiver, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import {
  circuitAfter,
  circuitPhase,
  CLOSED,
  DEFAULT_CIRCUIT_RULES,
  type CircuitRules,
  type CircuitState,
} from './webhooks.circuit.js'
import { createDeliveryJob, DEFAULT_RETRY_SCHEDULE } from './webhooks.worker.js'

/**
 * The circuit breaker: its rules as a state machine, then with a worker and a receiver
 * that fails and recovers (one attempt at a time, so "in a row" is exact).
 */
describe('the circuit’s rules', () => {
  const rules: CircuitRules = { threshold: 3, openMs: 10 * SECOND, maxOpenMs: 45 * SECOND }
  const step = fc.record({ success: fc.boolean(), afterMs: fc.integer({ min: 0, max: 60 * SECOND }) })

  it('opens after `threshold` failures in a row, stays open for its time, lets a failed probe reopen it for twice as long (up to the most), and closes on any success', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        let state: CircuitState = CLOSED
        let now = 0
        let failuresInARow = 0
        let openings = 0
        for (const { success, afterMs } of steps) {
          now += afterMs
          const at = new Date(now)
          const before = circuitPhase(state, at)
          const next = circuitAfter(state, success ? 'success' : 'failure', at, rules)
          failuresInARow = success ? 0 : failuresInARow + 1
          expect(next.failures).toBe(failuresInARow)
          if (success) {
            expect(next).toEqual(CLOSED)
            openings = 0
          } else if (before === 'open') {
            // An attempt that started before the opening: the opening stands.
            expect(next.openUntil).toEqual(state.openUntil)
          } else if (before === 'half-open' || failuresInARow >= rules.threshold) {
            openings += 1
            const lasts = Math.min(rules.openMs * 2 ** (openings - 1), rules.maxOpenMs)
            expect(next.openUntil!.getTime() - now).toBe(lasts)
            expect(circuitPhase(next, at)).toBe('open')
          } else {
            expect(circuitPhase(next, at)).toBe('closed')
          }
          expect(next.opened).toBe(openings)
          state = next
        }
      }),
      { numRuns: 500 },
    )
  })
})

const suite = useWebhookSuite()
let t: WebhookTestApp
let receiver: Receiver
beforeAll(() => {
  ;({ t, receiver } = suite)
})

const ctx = (): RequestContext => suite.ctx()
const subscribe = () => t.services.webhooks.create(ctx(), { url: receiver.url(), events: ['payout.paid'] })
const sendTest = (webhookId: string) => t.services.webhooks.test(ctx(), webhookId)
const deliveries = async (webhookId: string) =>
  (await t.services.webhooks.listDeliveries(ctx(), webhookId, { limit: 100 })).data
const circuitOf = (endpointId: string) =>
  t.db.global.selectFrom('webhook_circuits').selectAll().where('endpoint_id', '=', endpointId).executeTakeFirst()
const failing = () => receiver.setFallback((_request, response) => response.writeHead(500).end())
const answering = () => receiver.setFallback((_request, response) => response.end('ok'))

/** A worker with one attempt under way at a time. */
const oneAtATime = () =>
  createDeliveryJob({
    db: t.db,
    clock: t.clock,
    audit: t.services.audit,
    box: t.secretBox,
    allowLoopback: true,
    lookup: t.dns.lookup,
    schedule: DEFAULT_RETRY_SCHEDULE,
    jitter: 0,
    timeoutMs: 1000,
    concurrency: 1,
  })

describe('the circuit, with a worker', () => {
  it('opens after five failures in a row, skips the endpoint while open, probes with one attempt at a time, and closes on a success', async () => {
    const webhook = await subscribe()
    const worker = oneAtATime()
    await drain(worker)
    receiver.clear()
    failing()
    try {
      const t0 = t.clock.now().getTime()
      const sent: string[] = []
      for (let i = 0; i < 8; i += 1) sent.push((await sendTest(webhook.id)).id)

      await drain(worker)
      expect(receiver.received).toHaveLength(DEFAULT_CIRCUIT_RULES.threshold)
      expect(await circuitOf(webhook.id)).toMatchObject({
        failures: 5,
        opened: 1,
        open_until: new Date(t0 + DEFAULT_CIRCUIT_RULES.openMs),
      })
      // The first five were attempted and wait for their retry; the other three were given back unattempted.
      const byId = new Map((await deliveries(webhook.id)).map((delivery) => [delivery.id, delivery]))
      for (const id of sent.slice(0, 5))
        expect(byId.get(id)).toMatchObject({
          status: 'pending',
          attemptCount: 1,
          nextAttemptAt: new Date(t0 + 5 * SECOND).toISOString(),
        })
      for (const id of sent.slice(5)) expect(byId.get(id)).toMatchObject({ status: 'pending', attemptCount: 0 })

      // Open: all eight are due, none is sent.
      t.clock.advance(DEFAULT_CIRCUIT_RULES.openMs - 1)
      expect(await drain(worker)).toBe(0)
      expect(receiver.received).toHaveLength(5)

      // Half open: one probe (the oldest due), not eight. It fails: open again, for twice as long.
      t.clock.advance(1)
      await drain(worker)
      expect(receiver.received.map((delivery) => delivery.headers['x-service-delivery'])).toEqual([
        ...sent.slice(0, 5),
        sent[5],
      ])
      expect(await circuitOf(webhook.id)).toMatchObject({
        failures: 6,
        opened: 2,
        open_until: new Date(t.clock.now().getTime() + 2 * DEFAULT_CIRCUIT_RULES.openMs),
      })
      t.clock.advance(2 * DEFAULT_CIRCUIT_RULES.openMs - 1)
      expect(await drain(worker)).toBe(0)

      // The receiver is back: the next probe succeeds, the circuit closes, and the rest follow in the same round.
      answering()
      t.clock.advance(1)
      await drain(worker)
      expect(receiver.received).toHaveLength(6 + 8)
      expect(await circuitOf(webhook.id)).toBeUndefined()
      const after = await deliveries(webhook.id)
      expect(after.every((delivery) => delivery.status === 'succeeded')).toBe(true)
      // Skipped while open, a delivery kept its place: two attempts for the first five and the probe, one for the others.
      expect(after.map((delivery) => [delivery.id, delivery.attemptCount]).sort()).toEqual(
        sent.map((id, i) => [id, i <= 5 ? 2 : 1]).sort(),
      )
    } finally {
      answering()
    }
  })

  it('keeps the retry schedule while the circuit stays closed, and again once it has closed', async () => {
    const webhook = await subscribe()
    const worker = oneAtATime()
    await drain(worker)
    receiver.clear()
    // Four failures in a row stay under the threshold: each retry comes when the schedule says.
    receiver.answer(500, 500, 500, 500)
    const delivery = await sendTest(webhook.id)
    let at = t.clock.now().getTime()
    for (const [index, seconds] of DEFAULT_RETRY_SCHEDULE.slice(1, 4).entries()) {
      expect(await drain(worker)).toBe(1)
      expect(receiver.received).toHaveLength(index + 1)
      at += seconds * SECOND
      expect((await deliveries(webhook.id))[0]).toMatchObject({
        attemptCount: index + 1,
        nextAttemptAt: new Date(at).toISOString(),
      })
      expect(await circuitOf(webhook.id)).toMatchObject({ failures: index + 1, opened: 0, open_until: null })
      t.clock.set(new Date(at - 1))
      expect(await drain(worker)).toBe(0)
      t.clock.advance(1)
    }
    // The fourth failure, then a success: closed again, nothing counted.
    expect(await drain(worker)).toBe(1)
    t.clock.advance(DEFAULT_RETRY_SCHEDULE[4]! * SECOND)
    expect(await drain(worker)).toBe(1)
    expect((await deliveries(webhook.id))[0]).toMatchObject({ id: delivery.id, status: 'succeeded', attemptCount: 5 })
    expect(await circuitOf(webhook.id)).toBeUndefined()
  })

  it('forgets the circuit when the endpoint is enabled again', async () => {
    const webhook = await subscribe()
    const worker = oneAtATime()
    await drain(worker)
    failing()
    try {
      for (let i = 0; i < 5; i += 1) await sendTest(webhook.id)
      await drain(worker)
      expect(await circuitOf(webhook.id)).toMatchObject({ opened: 1 })
      await t.services.webhooks.disable(ctx(), webhook.id)
      expect(await circuitOf(webhook.id)).toMatchObject({ opened: 1 })
      await t.services.webhooks.enable(ctx(), webhook.id)
      expect(await circuitOf(webhook.id)).toBeUndefined()
    } finally {
      answering()
    }
  })
})
