import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, eventCount, expectProblem, type OrgAccount } from '../../../test/helpers.js'
import { accessToken, createClient, sandboxPartner } from '../../../test/partner-helpers.js'
import { buildWebhookTestApp, drain, Receiver, type WebhookTestApp } from '../../../test/webhook-helpers.js'

/** The partner surface: the same webhook and evidence routes under /v1, with OAuth scopes. */
let t: WebhookTestApp
let receiver: Receiver
let owner: OrgAccount
let clientUserId: string
let writer: string
let reader: string
let stranger: string

beforeAll(async () => {
  t = await buildWebhookTestApp()
  receiver = await Receiver.start()
  const partner = await sandboxPartner(t.app, ['webhooks:read', 'webhooks:write', 'events:read'])
  owner = partner.owner
  writer = partner.token
  clientUserId = partner.client.userId
  reader = await accessToken(t.app, await createClient(t.app, owner, ['webhooks:read']), 'webhooks:read')
  stranger = (await sandboxPartner(t.app, ['webhooks:read', 'webhooks:write', 'events:read'])).token
})
afterAll(async () => {
  await receiver.close()
  await t.close()
})

const base = () => `/v1/orgs/${owner.orgId}/webhooks`

describe('/v1/orgs/:orgId/webhooks', () => {
  it('runs the whole life of an endpoint with webhooks:write, acting as the client', async () => {
    const created = await call(t.app, {
      method: 'POST',
      url: base(),
      token: writer,
      body: { url: receiver.url(), events: ['webhook.enabled'] },
    })
    expect(created.statusCode, created.body).toBe(201)
    const webhook = created.json()
    expect(webhook).toMatchObject({ status: 'enabled', createdBy: clientUserId })
    expect(webhook.signingSecret).toMatch(/^whsec_/)

    const listed = await call(t.app, { url: base(), token: reader })
    expect(listed.statusCode).toBe(200)
    expect(listed.json().data.map((w: { id: string }) => w.id)).toContain(webhook.id)
    expect((await call(t.app, { url: `${base()}/${webhook.id}`, token: reader })).json()).toMatchObject({
      id: webhook.id,
    })

    const tested = await call(t.app, { method: 'POST', url: `${base()}/${webhook.id}/test`, token: writer })
    expect(tested.statusCode, tested.body).toBe(200)
    await drain(t.deliveries)
    expect(receiver.received.map((d) => d.headers['x-service-event'])).toEqual(['webhook.test'])
    const log = await call(t.app, { url: `${base()}/${webhook.id}/deliveries`, token: reader })
    expect(log.json().data[0]).toMatchObject({
      id: tested.json().id,
      status: 'succeeded',
      attempts: [{ httpStatus: 200 }],
    })
    const again = await call(t.app, {
      method: 'POST',
      url: `${base()}/${webhook.id}/deliveries/${tested.json().id}/redeliver`,
      token: writer,
    })
    expect(again.statusCode, again.body).toBe(200)
    await drain(t.deliveries)
    expect(receiver.received).toHaveLength(2)

    expect(
      (await call(t.app, { method: 'POST', url: `${base()}/${webhook.id}/disable`, token: writer })).json().status,
    ).toBe('disabled')
    expect(
      (await call(t.app, { method: 'POST', url: `${base()}/${webhook.id}/enable`, token: writer })).json().status,
    ).toBe('enabled')
    await drain(t.deliveries)
    expect(receiver.received.map((d) => d.headers['x-service-event'])).toEqual([
      'webhook.test',
      'webhook.test',
      'webhook.enabled',
    ])
    const rotated = await call(t.app, { method: 'POST', url: `${base()}/${webhook.id}/rotate-secret`, token: writer })
    expect(rotated.json().signingSecret).not.toBe(webhook.signingSecret)
    expect((await call(t.app, { method: 'DELETE', url: `${base()}/${webhook.id}`, token: writer })).statusCode).toBe(
      204,
    )

    const events = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('org_events')
        .select(['action', 'user_id'])
        .where('org_id', '=', owner.orgId)
        .where('action', 'like', 'webhook.%')
        .orderBy('sequence')
        .execute(),
    )
    expect(events.map((e) => e.action)).toEqual([
      'webhook.created',
      'webhook.test',
      'webhook.redelivered',
      'webhook.disabled',
      'webhook.enabled',
      'webhook.secret_rotated',
      'webhook.deleted',
    ])
    expect(new Set(events.map((e) => e.user_id))).toEqual(new Set([clientUserId]))
  })

  it('needs a token (401) with the right scope (403), and hides other orgs (404)', async () => {
    const webhook = (
      await call(t.app, { method: 'POST', url: base(), token: writer, body: { url: receiver.url(), events: ['*'] } })
    ).json()
    const before = await eventCount(t.db, owner.orgId)
    // The partner surface answers a missing token like any other bad one.
    expectProblem(await call(t.app, { url: base() }), 401, 'invalid_token')
    expectProblem(await call(t.app, { url: base(), token: owner.token }), 401, 'invalid_token')
    const denied = await call(t.app, {
      method: 'POST',
      url: base(),
      token: reader,
      body: { url: receiver.url(), events: ['*'] },
    })
    expectProblem(denied, 403, 'insufficient_scope')
    expect(denied.json().scope).toBe('webhooks:write')
    expectProblem(
      await call(t.app, { method: 'POST', url: `${base()}/${webhook.id}/disable`, token: reader }),
      403,
      'insufficient_scope',
    )
    expectProblem(await call(t.app, { url: base(), token: stranger }), 404, 'resource_missing')
    expectProblem(await call(t.app, { url: `${base()}/${webhook.id}`, token: stranger }), 404, 'resource_missing')
    expectProblem(
      await call(t.app, { method: 'DELETE', url: `${base()}/${webhook.id}`, token: stranger }),
      404,
      'resource_missing',
    )
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: base(),
        token: writer,
        body: { url: receiver.url(), events: ['nope.nope'] },
      }),
      400,
      'parameter_invalid',
    )
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })
})

describe('/v1 evidence', () => {
  it('serves seals, an inclusion proof and a consistency proof under events:read', async () => {
    const first = (await t.services.evidence.sealOrg(owner.orgId))!
    await call(t.app, {
      method: 'POST',
      url: base(),
      token: writer,
      body: { url: receiver.url(), events: ['payout.paid'] },
    })
    const second = (await t.services.evidence.sealOrg(owner.orgId))!
    const sealsUrl = `/v1/orgs/${owner.orgId}/seals`
    const list = await call(t.app, { url: sealsUrl, token: writer })
    expect(list.statusCode, list.body).toBe(200)
    expect(list.json().data.map((s: { id: string }) => s.id)).toEqual([second.id, first.id])
    expect((await call(t.app, { url: `${sealsUrl}/${first.id}`, token: writer })).json()).toEqual(first)

    const event = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('org_events')
        .select('id')
        .where('org_id', '=', owner.orgId)
        .orderBy('sequence')
        .limit(1)
        .executeTakeFirstOrThrow(),
    )
    const proof = await call(t.app, {
      url: `/v1/orgs/${owner.orgId}/events/${event.id}/proof?seal=${first.id}`,
      token: writer,
    })
    expect(proof.statusCode, proof.body).toBe(200)
    expect(proof.json()).toMatchObject({
      sealId: first.id,
      leafIndex: 0,
      treeSize: first.treeSize,
      rootHash: first.rootHash,
    })
    const consistency = await call(t.app, {
      url: `${sealsUrl}/${second.id}/consistency?from=${first.id}`,
      token: writer,
    })
    expect(consistency.json()).toMatchObject({
      fromSize: first.treeSize,
      toSize: second.treeSize,
      fromRoot: first.rootHash,
      toRoot: second.rootHash,
    })

    expectProblem(await call(t.app, { url: sealsUrl, token: reader }), 403, 'insufficient_scope')
    expectProblem(await call(t.app, { url: sealsUrl, token: stranger }), 404, 'resource_missing')
    expectProblem(
      await call(t.app, { url: `/v1/orgs/${owner.orgId}/events/${event.id}/proof`, token: stranger }),
      404,
      'resource_missing',
    )
    expectProblem(await call(t.app, { url: sealsUrl }), 401, 'invalid_token')
    const keys = await call(t.app, { url: '/v1/evidence/keys' })
    expect(keys.json().keys.map((k: { kid: string }) => k.kid)).toEqual([first.keyId])
  })
})
