import { readFile } from 'node:fs/promises'
import { Oeuvre, OPERATIONS, PagePromise } from '@oeuvre/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventBody } from '../../../test/records-fixtures.js'
import { credentials, sandboxPartner, startService, type LiveService, type Partner } from './service.js'

let service: LiveService
let partner: Partner
let oeuvre: Oeuvre

beforeAll(async () => {
  service = await startService()
  partner = await sandboxPartner(service)
  oeuvre = new Oeuvre(credentials(service, partner))
})
afterAll(() => service.close())

interface Operation {
  operationId: string
  'x-oeuvre-resource': string
  'x-oeuvre-method': string
}

describe('the generated methods', () => {
  it('cover every /v1 operation of openapi.json, as oeuvre.<resource>.<method> with its path and verb', async () => {
    const document = JSON.parse(await readFile(new URL('../../../openapi.json', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, Operation>>
    }
    const table = OPERATIONS as unknown as Record<string, Record<string, { httpMethod: string; path: string }>>
    let count = 0
    for (const [path, item] of Object.entries(document.paths)) {
      if (!path.startsWith('/v1/')) continue
      for (const [verb, operation] of Object.entries(item)) {
        const resource = operation['x-oeuvre-resource']
        const method = operation['x-oeuvre-method']
        if (method === 'stream') {
          // A server-sent event stream: written by hand over the transport (stream.ts), not generated.
          expect(typeof (oeuvre as unknown as Record<string, Record<string, unknown>>)[resource]?.stream).toBe(
            'function',
          )
          continue
        }
        expect(table[resource]?.[method], operation.operationId).toMatchObject({ httpMethod: verb.toUpperCase(), path })
        const bound = (oeuvre as unknown as Record<string, Record<string, unknown>>)[resource]?.[method]
        expect(typeof bound, `oeuvre.${resource}.${method}`).toBe('function')
        count += 1
      }
    }
    expect(count).toBe(Object.values(table).reduce((total, methods) => total + Object.keys(methods).length, 0))
    expect(count).toBeGreaterThanOrEqual(38)
  })

  it('creators, catalog, revenue and payouts: create, get, list and every payout action', async () => {
    const { orgId } = partner
    const creator = await oeuvre.creators.create(orgId, {
      name: 'Ada Lovelace',
      kind: 'person',
      roles: ['composer'],
      payoutCurrency: 'EUR',
    })
    expect(creator).toMatchObject({ id: expect.stringMatching(/^crt_/), name: 'Ada Lovelace' })
    expect(await oeuvre.creators.get(orgId, creator.id)).toEqual(creator)
    expect((await oeuvre.creators.list(orgId)).data.map((c) => c.id)).toContain(creator.id)

    const work = await oeuvre.catalog.create(orgId, {
      kind: 'work',
      title: 'A Song',
      splits: [{ creatorId: creator.id, role: 'composer', shareBps: 10_000 }],
    })
    expect(await oeuvre.catalog.get(orgId, work.id)).toEqual(work)
    expect((await oeuvre.catalog.list(orgId, { kind: 'work' })).data.map((entry) => entry.id)).toEqual([work.id])

    const line = {
      catalogId: work.id,
      source: 'Spotify',
      type: 'stream' as const,
      periodStart: '2026-09-01',
      periodEnd: '2026-09-30',
      territory: 'DE',
      units: 1000,
      amount: '10.00',
      currency: 'EUR',
    }
    const revenue = await oeuvre.revenue.create(orgId, line)
    expect(revenue).toMatchObject({ id: expect.stringMatching(/^rev_/), amount: '10.00' })
    expect((await oeuvre.revenue.list(orgId, { catalogId: work.id })).data.map((entry) => entry.id)).toEqual([
      revenue.id,
    ])

    // Each payout takes the creator's whole balance; cancel and fail give it back for the next.
    const cancelled = await oeuvre.payouts.create(orgId, { creatorId: creator.id })
    expect(cancelled).toMatchObject({ amount: '10.00', currency: 'EUR', status: 'pending' })
    expect((await oeuvre.payouts.cancel(orgId, cancelled.id)).status).toBe('canceled')
    const failed = await oeuvre.payouts.create(orgId, { creatorId: creator.id })
    expect(await oeuvre.payouts.markFailed(orgId, failed.id, { failureMessage: 'bank refused' })).toMatchObject({
      status: 'failed',
    })
    // A sandbox org's payouts move on their own rail: the manual steps reach the route and are refused.
    const moving = await oeuvre.payouts.create(orgId, { creatorId: creator.id })
    const refused = { status: 422, code: 'invalid_state', detail: expect.stringMatching(/sandbox rail/) }
    await expect(oeuvre.payouts.markInTransit(orgId, moving.id)).rejects.toMatchObject({ problem: refused })
    await expect(oeuvre.payouts.markPaid(orgId, moving.id)).rejects.toMatchObject({ problem: refused })
    expect((await oeuvre.payouts.get(orgId, moving.id)).status).toBe('pending')
    const listed = (await oeuvre.payouts.list(orgId)).data.map((payout) => payout.id)
    expect(listed).toEqual([moving.id, failed.id, cancelled.id])
  })

  it('ticketed events: create, get, list, publish and cancel', async () => {
    const { orgId } = partner
    const draft = await oeuvre.ticketedEvents.create(orgId, eventBody() as never)
    expect(await oeuvre.ticketedEvents.get(orgId, draft.id)).toEqual(draft)
    expect((await oeuvre.ticketedEvents.publish(orgId, draft.id)).status).toBe('published')
    expect((await oeuvre.ticketedEvents.cancel(orgId, draft.id)).status).toBe('cancelled')
    expect((await oeuvre.ticketedEvents.list(orgId)).data.map((show) => show.id)).toContain(draft.id)
  })

  it('members and webhooks: every endpoint action', async () => {
    const { orgId } = partner
    expect((await oeuvre.members.list(orgId)).data.map((member) => member.userId)).toContain(partner.owner.userId)
    const endpoint = await oeuvre.webhooks.create(orgId, {
      url: 'http://127.0.0.1:9/hooks',
      events: ['catalog.created'],
    })
    expect(endpoint.signingSecret).toMatch(/^whsec_/)
    expect(await oeuvre.webhooks.get(orgId, endpoint.id)).toMatchObject({ id: endpoint.id, status: 'enabled' })
    expect((await oeuvre.webhooks.list(orgId)).data.map((hook) => hook.id)).toEqual([endpoint.id])
    expect((await oeuvre.webhooks.disable(orgId, endpoint.id)).status).toBe('disabled')
    expect((await oeuvre.webhooks.enable(orgId, endpoint.id)).status).toBe('enabled')
    const rotated = await oeuvre.webhooks.rotateSecret(orgId, endpoint.id)
    expect(rotated.signingSecret).not.toBe(endpoint.signingSecret)
    const delivery = await oeuvre.webhooks.test(orgId, endpoint.id)
    expect(delivery).toMatchObject({ id: expect.stringMatching(/^whd_/) })
    expect((await oeuvre.webhooks.listDeliveries(orgId, endpoint.id)).data.map((d) => d.id)).toContain(delivery.id)
    expect((await oeuvre.webhooks.redeliver(orgId, endpoint.id, delivery.id)).id).toBe(delivery.id)
    await expect(oeuvre.webhooks.delete(orgId, endpoint.id)).resolves.toBeUndefined()
    await expect(oeuvre.webhooks.get(orgId, endpoint.id)).rejects.toMatchObject({ status: 404 })
  })

  it('events, seals and evidence keys: the feed, one event, its proof and a consistency proof', async () => {
    const { orgId } = partner
    const older = (await service.t.services.evidence.sealOrg(orgId))!
    await oeuvre.creators.create(orgId, { name: 'Grace', kind: 'person', roles: ['producer'], payoutCurrency: 'EUR' })
    const newer = (await service.t.services.evidence.sealOrg(orgId))!
    const feed = await oeuvre.events.list(orgId, { limit: 5 })
    expect(feed.data.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5])
    const first = feed.data[0]!
    expect(await oeuvre.events.get(orgId, first.id)).toEqual(first)
    expect(await oeuvre.events.getProof(orgId, first.id, { seal: older.id })).toMatchObject({
      sealId: older.id,
      eventHash: first.hash,
      leafIndex: 0,
    })
    expect((await oeuvre.seals.list(orgId)).data.map((seal) => seal.id)).toEqual([newer.id, older.id])
    expect(await oeuvre.seals.get(orgId, older.id)).toMatchObject({ id: older.id, treeSize: older.treeSize })
    expect(await oeuvre.seals.getConsistency(orgId, newer.id, { from: older.id })).toMatchObject({
      fromSize: older.treeSize,
      toSize: newer.treeSize,
    })
    const keys = await oeuvre.evidence.getKeys()
    expect(keys.keys.map((key) => key.kid)).toContain(older.keyId)
  })

  it('needs no credentials for the one public route, and refuses a call that needs them', async () => {
    const anonymous = new Oeuvre({ baseUrl: `${service.baseUrl}/v1/` })
    expect((await anonymous.evidence.getKeys()).keys.length).toBeGreaterThan(0)
    await expect(anonymous.catalog.get(partner.orgId, 'cat_01JD2YB6X8Q0W3M5N7P9R1T3V5')).rejects.toThrow(
      /no credentials/,
    )
  })

  it('rejects a missing path parameter before sending anything', async () => {
    await expect(oeuvre.catalog.get(partner.orgId, '')).rejects.toThrow(TypeError)
    const list = oeuvre.catalog.list(undefined as unknown as string)
    expect(list).toBeInstanceOf(PagePromise)
    await expect(list).rejects.toThrow(/orgId must be a non-empty string/)
  })

  it('sends any route through request(), with the same credentials and errors', async () => {
    const page = await oeuvre.request<{ data: unknown[] }>({
      method: 'get',
      path: `/v1/orgs/${partner.orgId}/events`,
      query: { limit: 2 },
    })
    expect(page.data).toHaveLength(2)
    await expect(oeuvre.request({ method: 'GET', path: `/v1/orgs/${partner.orgId}/nothing` })).rejects.toMatchObject({
      status: 404,
    })
  })
})
