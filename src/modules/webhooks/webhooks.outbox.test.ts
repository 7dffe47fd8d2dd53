import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SECOND } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import { eventually } from '../../../test/eventually.js'
import { ownerWithOrg, type OrgAccount } from '../../../test/helpers.js'
import { holdTransaction, LockObserver, onPostgres } from '../../../test/locks.js'
import { buildWebhookTestApp, drain, Receiver, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import { DEFAULT_CIRCUIT_RULES } from './webhooks.circuit.js'
import { claimDue, takeLeaseOwner } from './webhooks.claims.js'
import { sendAttempt } from './webhooks.http.js'
import { createDeliveryJob } from './webhooks.worker.js'

let t: WebhookTestApp
let receiver: Receiver
let owner: OrgAccount

beforeAll(async () => {
  t = await buildWebhookTestApp()
  receiver = await Receiver.start()
  owner = await ownerWithOrg(t.app)
})
afterAll(async () => {
  await receiver.close()
  await t.close()
})
afterEach(async () => {
  for (const webhook of (await t.services.webhooks.list(ctx, { limit: 100 })).data)
    await t.services.webhooks.remove(ctx, webhook.id)
  await drain(t.deliveries)
  receiver.clear()
})

let ctx: RequestContext
beforeAll(() => {
  ctx = { orgId: owner.orgId, requestId: 'req_test', actor: { userId: owner.userId, kind: 'person', role: 'owner' } }
})

const subscribe = (events: string[], url = receiver.url()) => t.services.webhooks.create(ctx, { url, events })
const deliveries = async (webhookId: string) =>
  (await t.services.webhooks.listDeliveries(ctx, webhookId, { limit: 100 })).data
const audited = async (action: string) => {
  const [event] = await t.db.tx(ctx, (tx) =>
    t.services.audit.appendNow(tx, ctx, [
      { action, resource: { type: 'catalog', id: `cat_${Math.random()}` }, data: { title: action } },
    ]),
  )
  return event!
}

describe('the transactional outbox', () => {
  it('writes a delivery with the event, and none when the transaction rolls back', async () => {
    const webhook = await subscribe(['catalog.created'])
    await expect(
      t.db.tx(ctx, async (tx) => {
        await t.services.audit.append(
          tx,
          ctx,
          'catalog.created',
          { type: 'catalog', id: 'cat_rolled_back' },
          { title: 'never' },
        )
        throw new Error('the domain write failed')
      }),
    ).rejects.toThrow('the domain write failed')
    expect(await deliveries(webhook.id)).toEqual([])
    expect(await drain(t.deliveries)).toBe(0)
    expect(receiver.received).toEqual([])

    const event = await audited('catalog.created')
    const [delivery] = await deliveries(webhook.id)
    expect(delivery).toMatchObject({ eventId: event.id, status: 'pending' })
    const queued = await t.db.global
      .selectFrom('webhook_queue')
      .selectAll()
      .where('delivery_id', '=', delivery!.id)
      .executeTakeFirstOrThrow()
    expect(queued).toMatchObject({ tenant_org: owner.orgId, due_at: t.clock.now() })
  })

  it('queues one delivery per matching event and endpoint for a run appended at once, and none for the others', async () => {
    const catalogOnly = await subscribe(['catalog.created'])
    const everything = await subscribe(['audit.emitted'])
    const items = ['catalog.created', 'creator.created', 'catalog.created'].map((action, i) => ({
      action,
      resource: { type: 'record', id: `rec_${i}` },
      data: { i },
    }))
    const events = await t.db.tx(ctx, (tx) => t.services.audit.appendNow(tx, ctx, items))
    const run = new Set(events.map((e) => e.id))
    const byEvent = (list: { eventId: string; type: string }[]) =>
      list
        .filter((d) => run.has(d.eventId))
        .map((d) => `${d.eventId} ${d.type}`)
        .sort()
    expect(byEvent(await deliveries(catalogOnly.id))).toEqual(
      [`${events[0]!.id} catalog.created`, `${events[2]!.id} catalog.created`].sort(),
    )
    expect(byEvent(await deliveries(everything.id))).toEqual(events.map((e) => `${e.id} audit.emitted`).sort())
    await drain(t.deliveries)
    const sent = receiver.received
      .map((d) => JSON.parse(d.body) as { id: string; type: string })
      .filter((body) => run.has(body.id))
    expect(sent.map((body) => `${body.id} ${body.type}`).sort()).toEqual(
      [...byEvent(await deliveries(catalogOnly.id)), ...byEvent(await deliveries(everything.id))].sort(),
    )
  })

  it('queues nothing while no endpoint of the org can take a delivery (migration 0012), and again once one can', async () => {
    // Every delivery of the event in the org's scope, each with its queue row.
    const queuedFor = (eventId: string) =>
      t.db.read(owner.orgId, async (db) => {
        const written = await db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', eventId).execute()
        const ids = written.map((delivery) => delivery.id)
        const queued = ids.length
          ? await t.db.global
              .selectFrom('webhook_queue')
              .select('delivery_id')
              .where('delivery_id', 'in', ids)
              .execute()
          : []
        expect(queued).toHaveLength(ids.length)
        return ids.length
      })
    // No endpoint at all, then only a disabled one: the append skips the outbox's statement.
    expect(await queuedFor((await audited('catalog.created')).id)).toBe(0)
    const webhook = await subscribe(['catalog.created'])
    await t.services.webhooks.disable(ctx, webhook.id)
    const whileDisabled = await audited('catalog.created')
    expect(await queuedFor(whileDisabled.id)).toBe(0)
    expect(await deliveries(webhook.id)).toEqual([])
    // Enabled again: the next append queues its delivery, as the join always did.
    await t.services.webhooks.enable(ctx, webhook.id)
    const afterEnable = await audited('catalog.created')
    expect(await queuedFor(afterEnable.id)).toBe(1)
    expect((await deliveries(webhook.id)).map((delivery) => delivery.eventId)).toEqual([afterEnable.id])
  })

  it('queues from the run it is handed, planned once (migration 0008): exactly the rules’ deliveries for a mixed run', async () => {
    const settings = await sql<{
      proconfig: string[] | null
    }>`select proconfig from pg_proc where proname = ${'queue_webhook_deliveries'}`.execute(t.db.global)
    expect(settings.rows).toEqual([{ proconfig: ['plan_cache_mode=force_generic_plan'] }])
    // The generic plan queues exactly what the rules say, for a run of several events at once.
    const webhook = await subscribe(['catalog.created'])
    await t.db.tx(ctx, (tx) =>
      t.services.audit.appendNow(tx, ctx, [
        { action: 'catalog.created', resource: { type: 'catalog', id: 'cat_generic_1' }, data: { title: 'one' } },
        { action: 'creator.created', resource: { type: 'creator', id: 'crt_generic_1' }, data: { name: 'two' } },
        { action: 'catalog.created', resource: { type: 'catalog', id: 'cat_generic_2' }, data: { title: 'three' } },
      ]),
    )
    expect((await deliveries(webhook.id)).map((delivery) => delivery.type).sort()).toEqual([
      'catalog.created',
      'catalog.created',
    ])
  })

  it('delivers every event to a receiver that was down for a while, once it is back', async () => {
    const down = await Receiver.start()
    const port = down.port
    await down.close()
    const webhook = await subscribe(['catalog.created'], `http://127.0.0.1:${port}/hooks`)
    const events = []
    for (let i = 0; i < 5; i += 1) events.push(await audited('catalog.created'))
    await drain(t.deliveries)
    expect((await deliveries(webhook.id)).map((d) => d.status)).toEqual(Array(5).fill('pending'))
    expect((await deliveries(webhook.id))[0]!.lastError).toMatch(/ECONNREFUSED/)

    const back = await Receiver.start(port)
    try {
      // Five failures in a row opened the endpoint's circuit: the retries due after 5 s wait for it.
      t.clock.advance(5 * SECOND)
      expect(await drain(t.deliveries)).toBe(0)
      t.clock.advance(DEFAULT_CIRCUIT_RULES.openMs - 5 * SECOND)
      await drain(t.deliveries)
      const ids = back.received.map((d) => JSON.parse(d.body).id).sort()
      expect(ids).toEqual(events.map((e) => e.id).sort())
      expect((await deliveries(webhook.id)).map((d) => d.status)).toEqual(Array(5).fill('succeeded'))
    } finally {
      await back.close()
    }
  })
})

describe('workers', () => {
  it('two workers never deliver the same delivery concurrently, and each delivery goes out once', async () => {
    const webhook = await subscribe(['catalog.created'])
    for (let i = 0; i < 24; i += 1) await audited('catalog.created')
    const inFlight = new Map<string, number>()
    let overlaps = 0
    receiver.setFallback((request, response) => {
      const id = String(request.headers['x-service-delivery'])
      inFlight.set(id, (inFlight.get(id) ?? 0) + 1)
      if (inFlight.get(id)! > 1) overlaps += 1
      setTimeout(() => {
        inFlight.set(id, inFlight.get(id)! - 1)
        response.end('ok')
      }, 20)
    })
    const second = createDeliveryJob({
      db: t.db,
      clock: t.clock,
      audit: t.services.audit,
      box: t.secretBox,
      allowLoopback: true,
      lookup: t.dns.lookup,
      schedule: [0, 5],
      jitter: 0,
      timeoutMs: 2000,
      batchSize: 5,
    })
    try {
      for (let round = 0; round < 10; round += 1)
        await Promise.all([t.deliveries.run(), second.run(), t.deliveries.run(), second.run()])
    } finally {
      receiver.setFallback((_request, response) => response.end('ok'))
    }
    const ids = receiver.received.map((d) => String(d.headers['x-service-delivery']))
    expect(ids).toHaveLength(24)
    expect(new Set(ids).size).toBe(24)
    expect(overlaps).toBe(0)
    expect((await deliveries(webhook.id)).every((d) => d.status === 'succeeded' && d.attemptCount === 1)).toBe(true)
  })

  it('leaves a live worker’s claim alone and recovers a dead worker’s claim at once', async () => {
    const webhook = await subscribe(['catalog.created'])
    await audited('catalog.created')
    const now = t.clock.now()
    const alive = await takeLeaseOwner(t.db)
    const claims = await claimDue(t.db, alive, {
      now,
      leaseUntil: new Date(now.getTime() + 30 * SECOND),
      limit: 10,
      endpointCap: 10,
    })
    expect(claims).toHaveLength(1)
    // Its owner is alive: nobody else may take it, however often they look.
    expect(await t.deliveries.run()).toBe(0)
    expect(receiver.received).toEqual([])
    // The owner dies without recording anything (as a SIGKILL would leave it).
    await alive.release()
    expect(await t.deliveries.run()).toBe(1)
    expect(receiver.received.map((d) => d.headers['x-service-delivery'])).toEqual([claims[0]!.deliveryId])
    expect((await deliveries(webhook.id))[0]).toMatchObject({ status: 'succeeded', attemptCount: 1 })
  })

  it('recovers a claim whose lease expired even when its owner still looks alive', async () => {
    await subscribe(['catalog.created'])
    await audited('catalog.created')
    const now = t.clock.now()
    const stuck = await takeLeaseOwner(t.db)
    try {
      expect(
        await claimDue(t.db, stuck, {
          now,
          leaseUntil: new Date(now.getTime() + 30 * SECOND),
          limit: 10,
          endpointCap: 10,
        }),
      ).toHaveLength(1)
      expect(await t.deliveries.run()).toBe(0)
      t.clock.advance(30 * SECOND)
      expect(await t.deliveries.run()).toBe(1)
      expect(receiver.received).toHaveLength(1)
    } finally {
      await stuck.release()
    }
  })
})

describe('SSRF at delivery time', () => {
  it('blocks a name that resolved to a public address at registration and to loopback at delivery; the listener sees no connection', async () => {
    const listener = await Receiver.start()
    try {
      t.dns.set('rebind.example', '93.184.216.34')
      const webhook = await subscribe(['catalog.created'], `https://rebind.example:${listener.port}/hooks`)
      t.dns.set('rebind.example', '127.0.0.1')
      await audited('catalog.created')
      await drain(t.deliveries)
      const [delivery] = await deliveries(webhook.id)
      expect(delivery).toMatchObject({
        status: 'blocked',
        lastError: 'blocked: rebind.example resolves to 127.0.0.1, a loopback address',
        nextAttemptAt: null,
      })
      expect(delivery!.attempts).toMatchObject([{ status: 'blocked', httpStatus: null, address: null }])
      expect(listener.connections).toBe(0)
    } finally {
      await listener.close()
    }
  })

  it('blocks each special address a name can resolve to', async () => {
    const listener = await Receiver.start()
    try {
      const vectors = [
        '127.0.0.1',
        '127.0.0.2',
        '0.0.0.0',
        '10.0.0.1',
        '172.16.0.1',
        '192.168.1.1',
        '169.254.169.254',
        '100.64.0.1',
        '::1',
        'fe80::1',
        'fd00::1',
        '::ffff:127.0.0.1',
        '64:ff9b::a00:1',
        '2002:c0a8:1::1',
      ]
      for (const [i, address] of vectors.entries()) {
        t.dns.set(`v${i}.example`, '93.184.216.34')
        const webhook = await subscribe(['catalog.created'], `https://v${i}.example:${listener.port}/`)
        t.dns.set(`v${i}.example`, address)
        await audited('catalog.created')
        await drain(t.deliveries)
        const [delivery] = await deliveries(webhook.id)
        expect(delivery!.status, address).toBe('blocked')
        expect(delivery!.lastError, address).toContain(address)
        await t.services.webhooks.remove(ctx, webhook.id)
      }
      expect(listener.connections).toBe(0)
    } finally {
      await listener.close()
    }
  })

  it('connects to exactly the checked address, whatever the system resolver would say', async () => {
    // .invalid never resolves (RFC 6761): the request can only arrive through the pinned address.
    const outcome = await sendAttempt({
      url: new URL(`http://pinned.invalid:${receiver.port}/pinned`),
      address: '127.0.0.1',
      family: 4,
      headers: { 'content-type': 'application/json' },
      body: '{}',
      timeoutMs: 2000,
    })
    expect(outcome).toMatchObject({ kind: 'success', httpStatus: 200 })
    expect(receiver.received).toMatchObject([{ path: '/pinned', headers: { host: `pinned.invalid:${receiver.port}` } }])
  })

  it('sends to http://localhost only as 127.0.0.1 when loopback is allowed', async () => {
    t.dns.set('localhost', '::1', '127.0.0.1')
    const webhook = await subscribe(['catalog.created'], `http://localhost:${receiver.port}/local`)
    await audited('catalog.created')
    await drain(t.deliveries)
    expect((await deliveries(webhook.id))[0]).toMatchObject({
      status: 'succeeded',
      attempts: [{ address: '127.0.0.1' }],
    })
  })
})

// On PostgreSQL only (test/locks.ts): PGlite runs one transaction at a time.
if (onPostgres) {
  describe('an endpoint changed while a write queues a delivery to it', () => {
    // The write holds the org's chain while it queues its delivery, whose foreign key takes a
    // key-share lock on the endpoint; the change locks the endpoint, then appends its own event to
    // the chain. Had the change locked the endpoint FOR UPDATE, each would wait for the other.
    it('commits both, the write first, without a deadlock', async () => {
      const webhook = await subscribe(['catalog.created'])
      const observer = await LockObserver.open()
      const chain = await holdTransaction(t.db, owner.orgId, (tx) =>
        sql`select sequence from org_event_heads where org_id = ${owner.orgId} for update`.execute(tx),
      )
      let write: Promise<unknown> | undefined
      let change: Promise<unknown> | undefined
      try {
        write = audited('catalog.created')
        await eventually(async () => (await observer.blockedBy(chain.pid)) === 1, 'the write waiting for the chain', {
          everyMs: 5,
        })
        change = t.services.webhooks.disable(ctx, webhook.id)
        await eventually(
          async () => (await observer.blockedBy(chain.pid)) === 2,
          'the change waiting for the chain behind it',
          { everyMs: 5 },
        )
      } finally {
        chain.release()
        await chain.done
        await observer.close()
      }
      await expect(write).resolves.toMatchObject({ action: 'catalog.created' })
      await expect(change).resolves.toMatchObject({ status: 'disabled' })
      expect((await deliveries(webhook.id)).map((delivery) => delivery.type)).toEqual(['catalog.created'])
    })
  })
}
