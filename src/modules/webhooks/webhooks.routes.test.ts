import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOUR, SECOND } from '../../platform/clock.js'
import { idPattern } from '../../platform/ids.js'
import {
  call,
  eventCount,
  expectProblem,
  memberWithRole,
  ownerWithOrg,
  type OrgAccount,
} from '../../../test/helpers.js'
import { buildWebhookTestApp, drain, Receiver, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import { WEBHOOK_KINDS } from './webhooks.kinds.js'

let t: WebhookTestApp
let owner: OrgAccount
let viewer: OrgAccount
let stranger: OrgAccount

const HOOK_URL = 'https://hooks.example.com/oeuvre'

beforeAll(async () => {
  t = await buildWebhookTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '2,7' } })
  t.dns.set('hooks.example.com', '93.184.216.34')
  t.dns.set('internal.example.com', '10.1.2.3')
  owner = await ownerWithOrg(t.app)
  viewer = await memberWithRole(t.app, owner, 'viewer')
  stranger = await ownerWithOrg(t.app)
})
afterAll(() => t.close())

const create = (account: OrgAccount, body: unknown, headers: Record<string, string> = {}) =>
  call(t.app, { method: 'POST', url: '/api/webhooks', token: account.token, body, headers })

async function newWebhook(account: OrgAccount = owner, events: string[] = ['payout.paid', 'catalog.created']) {
  const response = await create(account, { url: HOOK_URL, events })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

const lastEvent = async (orgId: string) =>
  t.db.read(orgId, (db) =>
    db
      .selectFrom('org_events')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('sequence', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow(),
  )

describe('POST /api/webhooks', () => {
  it('registers an endpoint, shows the whsec_ secret once and stores it only encrypted', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const response = await create(owner, { url: HOOK_URL, events: ['payout.paid', 'member.invited', 'payout.paid'] })
    expect(response.statusCode, response.body).toBe(201)
    const webhook = response.json()
    expect(webhook).toMatchObject({
      url: HOOK_URL,
      events: ['payout.paid', 'member.invited'],
      status: 'enabled',
      disabledReason: null,
      previousSecretExpiresAt: null,
      createdBy: owner.userId,
      createdAt: t.clock.now().toISOString(),
    })
    expect(webhook.id).toMatch(new RegExp(idPattern('whk')))
    expect(webhook.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)

    const row = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('org_id', '=', owner.orgId)
        .where('id', '=', webhook.id)
        .executeTakeFirstOrThrow(),
    )
    expect(JSON.stringify(row)).not.toContain(webhook.signingSecret.slice(6))
    expect(t.services.webhooks).toBeDefined()
    const fetched = await call(t.app, { url: `/api/webhooks/${webhook.id}`, token: owner.token })
    expect(fetched.json()).not.toHaveProperty('signingSecret')

    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    const event = await lastEvent(owner.orgId)
    expect(event).toMatchObject({
      action: 'webhook.created',
      resource_type: 'webhook',
      resource_id: webhook.id,
      user_id: owner.userId,
    })
    expect(JSON.stringify(event.data)).not.toContain('whsec_')
  })

  it('accepts every known kind, audit.emitted and *', async () => {
    const response = await create(owner, { url: HOOK_URL, events: [...WEBHOOK_KINDS] })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json().events).toEqual([...WEBHOOK_KINDS])
  })

  it('refuses unknown kinds, bad bodies and internal URLs with 400, writing nothing', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const unknown = await create(owner, { url: HOOK_URL, events: ['payout.paid', 'payout.exploded'] })
    expectProblem(unknown, 400, 'parameter_invalid')
    expect(unknown.json().param).toBe('events.1')
    expectProblem(await create(owner, { url: HOOK_URL, events: ['not a kind'] }), 400, 'parameter_invalid')
    expectProblem(await create(owner, { url: HOOK_URL, events: [] }), 400, 'parameter_invalid')
    expectProblem(await create(owner, { url: HOOK_URL }), 400, 'parameter_missing')
    expectProblem(await create(owner, { url: HOOK_URL, events: ['*'], secret: 'mine' }), 400, 'parameter_unknown')
    expectProblem(await create(owner, { url: 42, events: ['*'] }), 400, 'parameter_invalid')
    const internal = await create(owner, { url: 'https://internal.example.com/hook', events: ['*'] })
    expectProblem(internal, 400, 'parameter_invalid')
    expect(internal.json().detail).toMatch(/internal\.example\.com resolves to 10\.1\.2\.3, a private address/)
    expectProblem(
      await create(owner, { url: 'http://hooks.example.com/oeuvre', events: ['*'] }),
      400,
      'parameter_invalid',
    )
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })

  it('replays the first answer for the same Idempotency-Key, without the secret, which is never stored in clear', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const body = { url: HOOK_URL, events: ['*'] }
    const first = await create(owner, body, { 'idempotency-key': 'hook-1' })
    const second = await create(owner, body, { 'idempotency-key': 'hook-1' })
    expect(second.headers['idempotent-replayed']).toBe('true')
    const { signingSecret, ...record } = first.json()
    expect(signingSecret).toMatch(/^whsec_/)
    expect(second.json()).toEqual(record)
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    const stored = await t.db.global
      .selectFrom('idempotency_keys')
      .select('response_body')
      .where('key', '=', 'hook-1')
      .execute()
    expect(stored).toHaveLength(1)
    expect(stored[0]!.response_body).not.toContain(signingSecret)
  })
})

describe('GET /api/webhooks and /api/webhooks/:id', () => {
  it('lists the org’s endpoints newest first, with keyset pages', async () => {
    const org = await ownerWithOrg(t.app)
    const made = [] as string[]
    for (let i = 0; i < 3; i += 1) {
      t.clock.advance(1000)
      made.push((await newWebhook(org)).id)
    }
    const page1 = await call(t.app, { url: '/api/webhooks?limit=2', token: org.token })
    expect(page1.statusCode).toBe(200)
    expect(page1.json().data.map((w: { id: string }) => w.id)).toEqual([made[2], made[1]])
    expect(page1.json().pagination.hasMore).toBe(true)
    const page2 = await call(t.app, {
      url: `/api/webhooks?limit=2&cursor=${page1.json().pagination.cursor}`,
      token: org.token,
    })
    expect(page2.json()).toMatchObject({ data: [{ id: made[0] }], pagination: { hasMore: false, cursor: null } })
    expectProblem(await call(t.app, { url: '/api/webhooks?limit=0', token: org.token }), 400, 'parameter_invalid')
    expectProblem(await call(t.app, { url: '/api/webhooks?cursor=garbage', token: org.token }), 400, 'invalid_cursor')
  })

  it('fetches one for any member and hides other orgs’ endpoints', async () => {
    const webhook = await newWebhook()
    const fetched = await call(t.app, { url: `/api/webhooks/${webhook.id}`, token: viewer.token })
    expect(fetched.statusCode).toBe(200)
    expect(fetched.json()).toMatchObject({ id: webhook.id, url: HOOK_URL })
    expectProblem(
      await call(t.app, { url: `/api/webhooks/${webhook.id}`, token: stranger.token }),
      404,
      'resource_missing',
    )
    expectProblem(await call(t.app, { url: '/api/webhooks/whk_nope', token: owner.token }), 404, 'resource_missing')
    const list = await call(t.app, { url: '/api/webhooks?limit=100', token: stranger.token })
    expect(list.json().data.map((w: { id: string }) => w.id)).not.toContain(webhook.id)
  })
})

describe('state changes', () => {
  it('disables and enables, each an org event; repeating one changes nothing', async () => {
    const webhook = await newWebhook()
    const before = await eventCount(t.db, owner.orgId)
    const disabled = await call(t.app, {
      method: 'POST',
      url: `/api/webhooks/${webhook.id}/disable`,
      token: owner.token,
    })
    expect(disabled.statusCode, disabled.body).toBe(200)
    expect(disabled.json()).toMatchObject({ status: 'disabled', disabledReason: `disabled by ${owner.userId}` })
    expect((await lastEvent(owner.orgId)).action).toBe('webhook.disabled')
    await call(t.app, { method: 'POST', url: `/api/webhooks/${webhook.id}/disable`, token: owner.token })
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    const enabled = await call(t.app, { method: 'POST', url: `/api/webhooks/${webhook.id}/enable`, token: owner.token })
    expect(enabled.json()).toMatchObject({ status: 'enabled', disabledReason: null })
    expect((await lastEvent(owner.orgId)).action).toBe('webhook.enabled')
  })

  it('rotates the secret with a 24 hour overlap', async () => {
    const webhook = await newWebhook()
    const rotated = await call(t.app, {
      method: 'POST',
      url: `/api/webhooks/${webhook.id}/rotate-secret`,
      token: owner.token,
    })
    expect(rotated.statusCode, rotated.body).toBe(200)
    expect(rotated.json().signingSecret).toMatch(/^whsec_/)
    expect(rotated.json().signingSecret).not.toBe(webhook.signingSecret)
    expect(rotated.json().previousSecretExpiresAt).toBe(new Date(t.clock.now().getTime() + 24 * HOUR).toISOString())
    const event = await lastEvent(owner.orgId)
    expect(event.action).toBe('webhook.secret_rotated')
    expect(JSON.stringify(event.data)).not.toContain('whsec_')
  })

  it('deletes: 204, then 404 everywhere, and an org event', async () => {
    const webhook = await newWebhook()
    const deleted = await call(t.app, { method: 'DELETE', url: `/api/webhooks/${webhook.id}`, token: owner.token })
    expect(deleted.statusCode).toBe(204)
    expect((await lastEvent(owner.orgId)).action).toBe('webhook.deleted')
    expectProblem(
      await call(t.app, { url: `/api/webhooks/${webhook.id}`, token: owner.token }),
      404,
      'resource_missing',
    )
    expectProblem(
      await call(t.app, { method: 'DELETE', url: `/api/webhooks/${webhook.id}`, token: owner.token }),
      404,
      'resource_missing',
    )
    expectProblem(
      await call(t.app, { method: 'POST', url: `/api/webhooks/${webhook.id}/enable`, token: owner.token }),
      404,
      'resource_missing',
    )
    const row = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('org_id', '=', owner.orgId)
        .where('id', '=', webhook.id)
        .executeTakeFirstOrThrow(),
    )
    expect(row.secret_sealed).toBeNull()
  })
})

describe('test events, the delivery log and redelivery', () => {
  it('sends webhook.test to that endpoint only, logs it, and redelivers it under the same id', async () => {
    const webhook = await newWebhook()
    const other = await newWebhook(owner, ['*'])
    const tested = await call(t.app, { method: 'POST', url: `/api/webhooks/${webhook.id}/test`, token: owner.token })
    expect(tested.statusCode, tested.body).toBe(200)
    const delivery = tested.json()
    expect(delivery).toMatchObject({
      webhookId: webhook.id,
      type: 'webhook.test',
      status: 'pending',
      attemptCount: 0,
      attempts: [],
    })
    expect(delivery.id).toMatch(new RegExp(idPattern('whd')))
    expect((await lastEvent(owner.orgId)).action).toBe('webhook.test')

    const log = await call(t.app, { url: `/api/webhooks/${webhook.id}/deliveries`, token: viewer.token })
    expect(log.statusCode).toBe(200)
    expect(log.json().data[0]).toMatchObject({ id: delivery.id, type: 'webhook.test' })
    const otherLog = await call(t.app, { url: `/api/webhooks/${other.id}/deliveries`, token: owner.token })
    expect(otherLog.json().data.map((d: { type: string }) => d.type)).not.toContain('webhook.test')
    const pending = await call(t.app, {
      url: `/api/webhooks/${webhook.id}/deliveries?status=succeeded`,
      token: owner.token,
    })
    expect(pending.json().data).toEqual([])

    const again = await call(t.app, {
      method: 'POST',
      url: `/api/webhooks/${webhook.id}/deliveries/${delivery.id}/redeliver`,
      token: owner.token,
    })
    expect(again.statusCode, again.body).toBe(200)
    expect(again.json()).toMatchObject({ id: delivery.id, status: 'pending' })
    expect((await lastEvent(owner.orgId)).action).toBe('webhook.redelivered')
  })

  it('refuses a test or redelivery on a disabled endpoint (422) and unknown deliveries (404)', async () => {
    const webhook = await newWebhook()
    const delivery = (
      await call(t.app, { method: 'POST', url: `/api/webhooks/${webhook.id}/test`, token: owner.token })
    ).json()
    await call(t.app, { method: 'POST', url: `/api/webhooks/${webhook.id}/disable`, token: owner.token })
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(
      await call(t.app, { method: 'POST', url: `/api/webhooks/${webhook.id}/test`, token: owner.token }),
      422,
      'invalid_state',
    )
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: `/api/webhooks/${webhook.id}/deliveries/${delivery.id}/redeliver`,
        token: owner.token,
      }),
      422,
      'invalid_state',
    )
    await call(t.app, { method: 'POST', url: `/api/webhooks/${webhook.id}/enable`, token: owner.token })
    const afterEnable = await eventCount(t.db, owner.orgId)
    expect(afterEnable).toBe(before + 1)
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: `/api/webhooks/${webhook.id}/deliveries/whd_nope/redeliver`,
        token: owner.token,
      }),
      404,
      'resource_missing',
    )
    expectProblem(
      await call(t.app, { url: `/api/webhooks/whk_nope/deliveries`, token: owner.token }),
      404,
      'resource_missing',
    )
    expect(await eventCount(t.db, owner.orgId)).toBe(afterEnable)
  })
})

describe('OpenAPI', () => {
  it('documents every webhook route on both surfaces, errors included', async () => {
    const spec = (await call(t.app, { url: '/openapi.json' })).json()
    for (const path of [
      '/api/webhooks',
      '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      '/v1/orgs/{orgId}/webhooks',
      '/v1/orgs/{orgId}/webhooks/{id}/rotate-secret',
    ]) {
      expect(spec.paths[path], path).toBeDefined()
    }
    expect(Object.keys(spec.paths['/v1/orgs/{orgId}/webhooks'].post.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '404', '429']),
    )
  })
})

describe('WEBHOOK_RETRY_SCHEDULE', () => {
  it('replaces the default schedule: the delay before each attempt, then the delivery fails', async () => {
    // Retire the earlier tests' endpoints: their queued deliveries end unsent.
    const ctx = {
      orgId: owner.orgId,
      requestId: 'req_t',
      actor: { userId: owner.userId, kind: 'person' as const, role: 'owner' as const },
    }
    for (const webhook of (await t.services.webhooks.list(ctx, { limit: 100 })).data)
      await t.services.webhooks.remove(ctx, webhook.id)
    t.clock.advance(2 * SECOND)
    await drain(t.deliveries)
    const closed = await Receiver.start()
    const url = closed.url()
    await closed.close()
    const webhook = (await create(owner, { url, events: ['payout.paid'] })).json()
    const delivery = (
      await call(t.app, { method: 'POST', url: `/api/webhooks/${webhook.id}/test`, token: owner.token })
    ).json()
    expect(delivery.nextAttemptAt).toBe(new Date(t.clock.now().getTime() + 2 * SECOND).toISOString())
    expect(await t.deliveries.run()).toBe(0)
    t.clock.advance(2 * SECOND)
    expect(await t.deliveries.run()).toBe(1)
    const log = async () =>
      (await call(t.app, { url: `/api/webhooks/${webhook.id}/deliveries`, token: owner.token })).json().data[0]
    expect(await log()).toMatchObject({
      status: 'pending',
      attemptCount: 1,
      nextAttemptAt: new Date(t.clock.now().getTime() + 7 * SECOND).toISOString(),
    })
    t.clock.advance(7 * SECOND)
    expect(await t.deliveries.run()).toBe(1)
    expect(await log()).toMatchObject({
      status: 'failed',
      attemptCount: 2,
      nextAttemptAt: null,
      lastError: expect.stringMatching(/ECONNREFUSED/),
    })
  })
})

describe('security', () => {
  it('needs a token (401), a managing role to write (403), and hides other orgs’ records (404)', async () => {
    const webhook = await newWebhook()
    const delivery = (
      await call(t.app, { method: 'POST', url: `/api/webhooks/${webhook.id}/test`, token: owner.token })
    ).json()
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(await call(t.app, { url: '/api/webhooks' }), 401, 'authentication_required')
    expectProblem(await create(viewer, { url: HOOK_URL, events: ['*'] }), 403, 'forbidden')
    const base = `/api/webhooks/${webhook.id}`
    const writes = [
      ['POST', `${base}/disable`],
      ['POST', `${base}/enable`],
      ['POST', `${base}/rotate-secret`],
      ['POST', `${base}/test`],
      ['POST', `${base}/deliveries/${delivery.id}/redeliver`],
      ['DELETE', base],
    ] as const
    for (const [method, url] of writes) {
      expectProblem(await call(t.app, { method, url, token: viewer.token }), 403, 'forbidden')
      expectProblem(await call(t.app, { method, url, token: stranger.token }), 404, 'resource_missing')
    }
    for (const url of [base, `${base}/deliveries`])
      expectProblem(await call(t.app, { url, token: stranger.token }), 404, 'resource_missing')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })
})
