import type { ServerResponse } from 'node:http'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SECOND } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import { eventually } from '../../../test/eventually.js'
import { ownerWithOrg, type OrgAccount } from '../../../test/helpers.js'
import { drain, Receiver, useWebhookSuite, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import { createAgentPool, sendAttempt } from './webhooks.http.js'
import {
  ATTEMPT_TIMEOUT_MS,
  createDeliveryJob,
  DEFAULT_RETRY_SCHEDULE,
  deliveryPacing,
  nextClaimSize,
  type DeliveryWorkerDeps,
} from './webhooks.worker.js'
import { asOwner } from '../../db/sql-backend.js'

/**
 * The delivery worker's own machinery: kept-alive connections pinned to the checked
 * address, batched recording across orgs, claims that grow while attempts are quick, and
 * leases that no attempt outlives.
 */
const TIMEOUT_MS = 1000
const suite = useWebhookSuite({ timeoutMs: TIMEOUT_MS })
let t: WebhookTestApp
let receiver: Receiver
let owner: OrgAccount
beforeAll(() => {
  ;({ t, receiver, owner } = suite)
})
afterEach(() => {
  t.dns.onLookup = null
})

const ctxOf = (account: OrgAccount): RequestContext => ({
  orgId: account.orgId,
  requestId: 'req_test',
  actor: { userId: account.userId, kind: 'person', role: 'owner' },
})
const subscribe = (account: OrgAccount, url: string) =>
  t.services.webhooks.create(ctxOf(account), { url, events: ['payout.paid'] })
const sendTest = (account: OrgAccount, webhookId: string) => t.services.webhooks.test(ctxOf(account), webhookId)
const deliveryLog = async (account: OrgAccount, webhookId: string) =>
  (await t.services.webhooks.listDeliveries(ctxOf(account), webhookId, { limit: 100 })).data
const deliveryIds = (from: Receiver) => from.received.map((delivery) => String(delivery.headers['x-service-delivery']))

/** Another delivery worker on the same database, as a second process would run it. */
const anotherWorker = (deps: Partial<DeliveryWorkerDeps> = {}) =>
  createDeliveryJob({
    db: t.db,
    clock: t.clock,
    audit: t.services.audit,
    box: t.secretBox,
    allowLoopback: true,
    lookup: t.dns.lookup,
    schedule: DEFAULT_RETRY_SCHEDULE,
    jitter: 0,
    timeoutMs: TIMEOUT_MS,
    ...deps,
  })

/** Waits for something the receiver or a worker does on its own (real sockets; bounded). */
const until = (condition: () => boolean, what: string) => eventually(condition, what, { everyMs: 5 })

/**
 * undici hands a kept-alive socket back to its pool on a later turn of the event loop;
 * PGlite's queries run without yielding one, so sequential attempts wait for it here.
 */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

/** A statement as the table owner (DDL the application role may not run). */
async function ownerStatement(statement: string): Promise<void> {
  await asOwner(t.db.backend, statement)
}

/** Makes the database refuse every attempt recorded for one org (a failure inside that org's transaction); returns the undo. */
async function refuseRecordingFor(orgId: string): Promise<() => Promise<void>> {
  const name = `refuse_${orgId.toLowerCase()}`
  await ownerStatement(
    `create function ${name}() returns trigger language plpgsql as $$ begin raise exception 'recording refused'; end $$`,
  )
  await ownerStatement(
    `create trigger ${name} before insert on webhook_attempts for each row when (new.org_id = '${orgId}') execute function ${name}()`,
  )
  return async () => {
    await ownerStatement(`drop trigger if exists ${name} on webhook_attempts`)
    await ownerStatement(`drop function if exists ${name}()`)
  }
}

describe('connections', () => {
  it('reuses one kept-alive connection for attempts to the same origin and checked address', async () => {
    const own = await Receiver.start()
    try {
      const webhook = await subscribe(owner, own.url())
      const sent = []
      for (let i = 0; i < 3; i += 1) {
        sent.push((await sendTest(owner, webhook.id)).id)
        await nextTurn()
        expect(await t.deliveries.run()).toBe(1)
      }
      expect(deliveryIds(own)).toEqual(sent)
      expect(own.connections).toBe(1)
    } finally {
      await own.close()
    }
  })

  it('checks the address at every attempt: a name now resolving to a refused address is blocked, never sent over the open connection', async () => {
    const own = await Receiver.start()
    try {
      t.dns.set('localhost', '127.0.0.1')
      const webhook = await subscribe(owner, `http://localhost:${own.port}/hooks`)
      const first = await sendTest(owner, webhook.id)
      await t.deliveries.run()
      expect(deliveryIds(own)).toEqual([first.id])
      await nextTurn()

      // Re-pointed while the connection to 127.0.0.1 is still open.
      t.dns.set('localhost', '127.0.0.2')
      const second = await sendTest(owner, webhook.id)
      expect(await t.deliveries.run()).toBe(1)
      expect(deliveryIds(own)).toEqual([first.id])
      expect((await deliveryLog(owner, webhook.id)).find((delivery) => delivery.id === second.id)).toMatchObject({
        status: 'blocked',
        lastError: 'blocked: localhost does not resolve to 127.0.0.1',
        attempts: [{ status: 'blocked', address: null }],
      })

      // Back on the allowed address: the kept-alive connection serves it again.
      t.dns.set('localhost', '127.0.0.1')
      const third = await sendTest(owner, webhook.id)
      await nextTurn()
      await t.deliveries.run()
      expect(deliveryIds(own)).toEqual([first.id, third.id])
      expect(own.connections).toBe(1)
    } finally {
      await own.close()
    }
  })

  it('never reuses a connection to another address, even for the same origin', async () => {
    // One port on two loopback addresses: the same URL origin, two different servers.
    const first = await Receiver.start()
    const second = await Receiver.start(first.port, '127.0.0.2')
    const agents = createAgentPool({ timeoutMs: TIMEOUT_MS })
    try {
      const url = new URL(`http://pinned.invalid:${first.port}/hooks`)
      const send = (address: string) =>
        sendAttempt({
          url,
          address,
          family: 4,
          headers: { 'content-type': 'application/json' },
          body: '{}',
          timeoutMs: TIMEOUT_MS,
          agents,
        })
      for (const address of ['127.0.0.1', '127.0.0.1', '127.0.0.2', '127.0.0.1']) {
        await nextTurn()
        expect(await send(address), address).toMatchObject({ kind: 'success', httpStatus: 200 })
      }
      expect([first.received.length, first.connections]).toEqual([3, 1])
      expect([second.received.length, second.connections]).toEqual([1, 1])
      expect(agents.size).toBe(2)
    } finally {
      await agents.close()
      await second.close()
      await first.close()
    }
  })

  it('keeps at most maxAgents pinned agents, closing the least recently used', async () => {
    const agents = createAgentPool({ timeoutMs: TIMEOUT_MS, maxAgents: 2 })
    try {
      const agentFor = (host: string) => agents.agentFor(new URL(`https://${host}/hooks`), '93.184.216.34', 4)
      const a = agentFor('a.example')
      const b = agentFor('b.example')
      // a is used again, so b is now the least recently used.
      expect(agentFor('a.example')).toBe(a)
      const c = agentFor('c.example')
      expect(agents.size).toBe(2)
      expect([a.closed, b.closed, c.closed]).toEqual([false, true, false])
      expect(agentFor('b.example')).not.toBe(b)
      expect(a.closed).toBe(true)
    } finally {
      await agents.close()
    }
  })

  it('opens a new connection to a receiver whose agent was evicted, and reuses the others', async () => {
    const receivers = [await Receiver.start(), await Receiver.start(), await Receiver.start()]
    const worker = anotherWorker({ maxAgents: 2 })
    try {
      const webhooks = []
      for (const each of receivers) webhooks.push(await subscribe(owner, each.url()))
      // 0, 1, 1 again, 2 (evicts 0), 0 (evicts 1): only receiver 0 is connected to twice.
      for (const index of [0, 1, 1, 2, 0]) {
        await sendTest(owner, webhooks[index]!.id)
        await nextTurn()
        expect(await worker.run()).toBe(1)
      }
      expect(receivers.map((each) => each.received.length)).toEqual([2, 2, 1])
      expect(receivers.map((each) => each.connections)).toEqual([2, 1, 1])
    } finally {
      for (const each of receivers) await each.close()
    }
  })
})

describe('recording', () => {
  // A batch of successes is recorded the short way, a mixed one the general way: a lost lease must be handled on both.
  it.each([
    ['a failure', 500],
    ['a success', 202],
  ])(
    'logs an attempt (%s) whose lease another worker recovered meanwhile, keeps that worker’s state, and records the rest of the batch',
    async (_kind, lateStatus) => {
      const webhook = await subscribe(owner, receiver.url())
      const stalled = await sendTest(owner, webhook.id)
      t.clock.advance(1)
      const kept = await sendTest(owner, webhook.id)
      // This worker's two requests are held until the other worker has delivered the first one.
      const held = new Map<string, ServerResponse>()
      for (let i = 0; i < 2; i += 1)
        receiver.respondWith(
          (request, response) => void held.set(String(request.headers['x-service-delivery']), response),
        )
      const round = t.deliveries.run()
      await until(() => held.size === 2, 'both requests')

      // The first delivery's lease runs out (as when a process freezes); the other worker recovers it and succeeds.
      await t.db.global
        .updateTable('webhook_queue')
        .set({ leased_until: t.clock.now() })
        .where('delivery_id', '=', stalled.id)
        .execute()
      expect(await anotherWorker().run()).toBe(1)
      held.get(kept.id)!.end('ok')
      held.get(stalled.id)!.writeHead(lateStatus).end()
      expect(await round).toBe(2)

      const log = await deliveryLog(owner, webhook.id)
      const stalledLog = log.find((delivery) => delivery.id === stalled.id)!
      expect(stalledLog).toMatchObject({
        status: 'succeeded',
        attemptCount: 2,
        lastHttpStatus: 200,
        lastError: null,
        nextAttemptAt: null,
      })
      expect(stalledLog.attempts.map((attempt) => [attempt.attempt, attempt.status, attempt.httpStatus])).toEqual([
        [1, 'succeeded', 200],
        [2, lateStatus === 202 ? 'succeeded' : 'failed', lateStatus],
      ])
      expect(log.find((delivery) => delivery.id === kept.id)).toMatchObject({
        status: 'succeeded',
        attemptCount: 1,
        attempts: [{ attempt: 1, status: 'succeeded' }],
      })
      expect(deliveryIds(receiver).sort()).toEqual([stalled.id, stalled.id, kept.id].sort())
      // Nothing is left to send.
      expect(await drain(t.deliveries)).toBe(0)
      expect(receiver.received).toHaveLength(3)
    },
  )

  it('records the deliveries of several orgs claimed in one round, each in its own org’s scope', async () => {
    const other = await ownerWithOrg(t.app)
    const mine = await subscribe(owner, receiver.url())
    const theirs = await subscribe(other, receiver.url())
    try {
      const ours = await sendTest(owner, mine.id)
      const their = await sendTest(other, theirs.id)
      expect(await t.deliveries.run()).toBe(2)
      expect(deliveryIds(receiver).sort()).toEqual([ours.id, their.id].sort())
      // Row-level security is forced for the worker's role: a row written under another org's scope would be refused, an update would find nothing.
      expect(await deliveryLog(owner, mine.id)).toMatchObject([
        {
          id: ours.id,
          status: 'succeeded',
          attemptCount: 1,
          attempts: [{ attempt: 1, status: 'succeeded', httpStatus: 200 }],
        },
      ])
      expect(await deliveryLog(other, theirs.id)).toMatchObject([
        {
          id: their.id,
          status: 'succeeded',
          attemptCount: 1,
          attempts: [{ attempt: 1, status: 'succeeded', httpStatus: 200 }],
        },
      ])
    } finally {
      await t.services.webhooks.remove(ctxOf(other), theirs.id)
    }
  })

  it('keeps the other orgs’ outcomes when recording one org’s fails, and sends that org’s again under the same id once the lease is recovered', async () => {
    const other = await ownerWithOrg(t.app)
    const mine = await subscribe(owner, receiver.url())
    const theirs = await subscribe(other, receiver.url())
    let lift: (() => Promise<void>) | null = await refuseRecordingFor(other.orgId)
    try {
      const ours = await sendTest(owner, mine.id)
      const their = await sendTest(other, theirs.id)
      await expect(t.deliveries.run()).rejects.toThrow(/while delivering webhooks/)
      expect(deliveryIds(receiver).sort()).toEqual([ours.id, their.id].sort())
      expect(await deliveryLog(owner, mine.id)).toMatchObject([{ id: ours.id, status: 'succeeded', attemptCount: 1 }])
      expect(await deliveryLog(other, theirs.id)).toMatchObject([
        { id: their.id, status: 'pending', attemptCount: 0, attempts: [] },
      ])

      await lift()
      lift = null
      // The failed round's lease owner is gone, so its claim is recovered at once (no waiting for the lease to run out).
      expect(await t.deliveries.run()).toBe(1)
      expect(deliveryIds(receiver).slice(2)).toEqual([their.id])
      expect(await deliveryLog(other, theirs.id)).toMatchObject([
        { id: their.id, status: 'succeeded', attemptCount: 1, attempts: [{ attempt: 1, status: 'succeeded' }] },
      ])
    } finally {
      await lift?.()
      await t.services.webhooks.remove(ctxOf(other), theirs.id)
    }
  })
})

describe('claim sizes', () => {
  it('doubles each claim of a round up to four per lane while attempts are quick successes, back to one per lane after any other; a fixed batch size stays', () => {
    const pacing = deliveryPacing({ concurrency: 2, endpointConcurrency: 2, endpointCap: 8 })
    expect([pacing.claimSize, pacing.maxClaimSize]).toEqual([2, 8])
    const sizes = [pacing.claimSize]
    for (const since of ['quick', 'quick', 'quick', 'slow', 'none', 'quick'] as const)
      sizes.push(nextClaimSize(sizes.at(-1)!, since, pacing))
    expect(sizes).toEqual([2, 4, 8, 8, 2, 2, 4])
    const fixed = deliveryPacing({ concurrency: 2, batchSize: 5 })
    expect(nextClaimSize(5, 'quick', fixed)).toBe(5)
    // Each claim's lease covers its own size (4 rounds of attempts ahead instead of 1) and the endpoint's cap (4 rounds of its own).
    expect(pacing.leaseFor(8) - pacing.leaseFor(2)).toBe(3 * ATTEMPT_TIMEOUT_MS)
    expect(pacing.leaseFor(2)).toBe((1 + 4 + 1) * ATTEMPT_TIMEOUT_MS + 15 * SECOND)
    expect(pacing.leaseMs).toBe(pacing.leaseFor(2))
  })

  it('claims more at a time while a round’s attempts are answered quickly, and keeps its first size while they fail', async () => {
    const own = await Receiver.start()
    /** Each claim is the first size, the last one, twice the last one, or back to the first. */
    const followsTheRule = (sizes: number[]) =>
      sizes.every((size, i) =>
        i === 0 ? size === 2 : [2, sizes[i - 1], Math.min(8, 2 * sizes[i - 1]!)].includes(size),
      )
    try {
      const webhook = await subscribe(owner, own.url())
      for (let i = 0; i < 30; i += 1) await sendTest(owner, webhook.id)
      const sizes: number[] = []
      // The circuit stays out of it (the failures below would open it).
      const worker = anotherWorker({
        concurrency: 2,
        onClaim: (size) => sizes.push(size),
        circuit: { threshold: 1000, openMs: SECOND, maxOpenMs: SECOND },
      })
      expect(await drain(worker)).toBe(30)
      expect(own.received).toHaveLength(30)
      expect(followsTheRule(sizes), sizes.join()).toBe(true)
      expect(sizes).toContain(8)

      own.setFallback((_request, response) => {
        response.writeHead(500)
        response.end()
      })
      for (let i = 0; i < 20; i += 1) await sendTest(owner, webhook.id)
      sizes.length = 0
      expect(await drain(worker)).toBe(20)
      expect(sizes.length).toBeGreaterThanOrEqual(10)
      expect(sizes.every((size) => size === 2)).toBe(true)

      // Their retries are answered: the claims grow again (and nothing is left for the next test).
      own.setFallback((_request, response) => response.end('ok'))
      t.clock.advance(5 * SECOND)
      sizes.length = 0
      expect(await drain(worker)).toBe(20)
      expect(followsTheRule(sizes), sizes.join()).toBe(true)
      expect(Math.max(...sizes)).toBeGreaterThan(2)
      expect(own.received).toHaveLength(70)
    } finally {
      await own.close()
    }
  })
})

describe('leases', () => {
  it('ends an attempt at its timeout even while the answer keeps trickling in (no attempt outlives the time its lease counted on)', async () => {
    const webhook = await subscribe(owner, receiver.url())
    const delivery = await sendTest(owner, webhook.id)
    // Headers at once, then a byte every 50 ms: never idle long enough for a per-read timeout, never 64 KiB.
    receiver.respondWith((_request, response) => {
      response.writeHead(200)
      const drip = setInterval(() => (response.destroyed ? clearInterval(drip) : response.write('x')), 50)
    })
    expect(await t.deliveries.run()).toBe(1)
    expect(await deliveryLog(owner, webhook.id)).toMatchObject([
      {
        id: delivery.id,
        status: 'pending',
        attemptCount: 1,
        lastHttpStatus: null,
        lastError: `no response within ${TIMEOUT_MS} ms`,
        attempts: [{ status: 'failed', responseBody: null }],
      },
    ])
    // The retry finds a receiver that answers.
    t.clock.advance(5 * SECOND)
    expect(await drain(t.deliveries)).toBe(1)
    expect(await deliveryLog(owner, webhook.id)).toMatchObject([
      { id: delivery.id, status: 'succeeded', attemptCount: 2 },
    ])
  })

  it('never starts an attempt with less lease left than its timeout and a margin: the claim goes back and is sent once, later', async () => {
    // The suite's worker runs with the default sizes.
    const { leaseMs, minLeaseLeftMs } = deliveryPacing({ timeoutMs: TIMEOUT_MS })
    expect(minLeaseLeftMs).toBeGreaterThan(TIMEOUT_MS)
    t.dns.set('localhost', '127.0.0.1')
    const webhook = await subscribe(owner, `http://localhost:${receiver.port}/hooks`)
    const delivery = await sendTest(owner, webhook.id)

    // While the attempt is being prepared (its address resolved), the lease comes to have just too little left.
    t.dns.onLookup = () => {
      t.dns.onLookup = null
      t.clock.advance(leaseMs - minLeaseLeftMs + 1)
    }
    expect(await t.deliveries.run()).toBe(1)
    expect(receiver.received).toEqual([])
    expect(await deliveryLog(owner, webhook.id)).toMatchObject([
      { id: delivery.id, status: 'pending', attemptCount: 0, attempts: [] },
    ])

    // Exactly enough left: sent, and the request arrives while the lease still covers the whole timeout.
    t.dns.onLookup = () => {
      t.dns.onLookup = null
      t.clock.advance(leaseMs - minLeaseLeftMs)
    }
    let leaseLeftMs: number | null = null
    receiver.respondWith((_request, response) => {
      void t.db.global
        .selectFrom('webhook_queue')
        .select('leased_until')
        .where('delivery_id', '=', delivery.id)
        .executeTakeFirstOrThrow()
        .then((queued) => {
          leaseLeftMs = queued.leased_until!.getTime() - t.clock.now().getTime()
          response.end('ok')
        })
    })
    expect(await t.deliveries.run()).toBe(1)
    expect(deliveryIds(receiver)).toEqual([delivery.id])
    expect(leaseLeftMs).toBe(minLeaseLeftMs)
    expect(await deliveryLog(owner, webhook.id)).toMatchObject([
      { id: delivery.id, status: 'succeeded', attemptCount: 1 },
    ])
  })
})
