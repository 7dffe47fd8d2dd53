import { createHash } from 'node:crypto'
import canonicalize from 'canonicalize'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, ownerWithOrg, type TestApp } from '../../../test/helpers.js'
import { deliveryPayload } from '../webhooks/index.js'
import type { RequestContext } from '../../platform/context.js'
import { canonicalJsonOfJson } from '../../platform/canonical-json.js'
import { canonicalTemplate, fillSlots, joinRunTexts, RUN_TEXT_SEPARATOR, type PendingEvent } from './audit.template.js'
import { verifyChain } from '../verification/index.js'

/** The docs/audit.md recipe, from the document: the reference the SQL-side hashing must equal. */
const reference = canonicalize as unknown as (value: unknown) => string
const recipeHash = (content: Record<string, unknown>, previousHash: string) =>
  `sha256:${createHash('sha256')
    .update(reference({ ...content, previousHash }), 'utf8')
    .digest('hex')}`

// JSON that PostgreSQL's jsonb can hold (no NUL, no lone surrogate): what an API body can carry.
const storableString = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((text) => !text.includes('\0'))
const jsonData = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    storableString,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(storableString, tie('value'), { maxKeys: 5 }),
  ),
})).value
const resource = fc.option(
  fc.record({
    type: fc.constantFrom('catalog', 'revenue', 'payout'),
    id: fc.stringMatching(/^[a-z]{3}_[0-9A-Z]{26}$/),
  }),
  { nil: null },
)

/** An event as the audit log stages it, and its content as the recipe reads it (the data as JSON gives it back). */
function pending(
  action: string,
  data: unknown,
  res: PendingEvent['resource'],
): { event: PendingEvent; content: Record<string, unknown> } {
  const fields = {
    id: 'evt_01M82P9XJY6W0Z6JYP4FZ77ZJP',
    orgId: 'org_01M82P9V2PMK4K55C1J1E7DXVP',
    action,
    userId: 'usr_01M82P9V4Z5KTM88KFMMC76PP1',
    resource: res,
  }
  return {
    event: { ...fields, dataText: canonicalJsonOfJson(data) },
    content: { ...fields, data: JSON.parse(JSON.stringify(data)) as unknown },
  }
}

describe('the template the appending SQL fills in', () => {
  it('give the recipe’s canonical text once previousHash, sequence and createdAt are spliced in', () => {
    fc.assert(
      fc.property(
        jsonData,
        resource,
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2999-12-31') }),
        (data, res, sequence, at) => {
          const { event, content } = pending('catalog.created', { record: data }, res)
          const previousHash = `sha256:${createHash('sha256').update(String(sequence)).digest('hex')}`
          const createdAt = at.toISOString()
          const filled = fillSlots(canonicalTemplate(event), {
            previousHash,
            sequence: String(sequence),
            createdAt,
            data: event.dataText,
          })
          expect(filled).toBe(reference({ ...content, sequence, createdAt, previousHash }))
        },
      ),
      // Found by a CI run: replacement patterns ($&, $', $`, $$) in the data are text like any other.
      { examples: [[[{ '': "$& $' $` $$" }], null, 1, new Date('2000-01-01T00:00:00.000Z')]] },
    )
  })

  it('join a run into one text that splits back into exactly its templates, and its data texts likewise', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(jsonData, resource), { minLength: 1, maxLength: 6 }), (items) => {
        const events = items.map(([data, res]) => pending('catalog.created', { record: data }, res).event)
        for (const texts of [events.map(canonicalTemplate), events.map((event) => event.dataText)]) {
          expect(joinRunTexts(texts).split(RUN_TEXT_SEPARATOR)).toEqual(texts)
        }
      }),
    )
    // JSON escapes U+0002 in any string it writes, so a template cannot hold it raw; a text that did is refused.
    const holding = pending('catalog.created', { record: '\u0002' }, null).event
    expect(canonicalTemplate(holding) + holding.dataText).not.toContain(RUN_TEXT_SEPARATOR)
    expect(() => joinRunTexts(['{"a":1}', 'x\u0002y'])).toThrow('U+0002')
  })
})

describe('appending in the database', () => {
  let t: TestApp
  beforeAll(async () => {
    // Webhook endpoints on 127.0.0.1: nothing is sent, the outbox rows are what is checked.
    t = await buildTestApp({ env: { WEBHOOKS_ALLOW_LOOPBACK: 'true' } })
  })
  afterAll(() => t.close())

  it('chains every event exactly as the published recipe does, whatever JSON its data holds', async () => {
    const owner = await ownerWithOrg(t.app)
    const ctx = { orgId: owner.orgId, actor: { userId: owner.userId } }
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(jsonData, resource), { minLength: 1, maxLength: 4 }), async (items) => {
        const events = await t.db.tx(ctx, (tx) =>
          t.services.audit.appendNow(
            tx,
            ctx,
            items.map(([data, res]) => ({ action: 'catalog.created', resource: res, data: { record: data } })),
          ),
        )
        // What appendMany answers is what the log holds.
        for (const event of events) expect(await t.services.audit.get(owner.orgId, event.id)).toEqual(event)
      }),
      { numRuns: 25 },
    )
    // Every hash, recomputed from the records as the API shows them, with the recipe of the docs.
    let previousHash = `sha256:${'0'.repeat(64)}`
    let cursor: string | null = null
    let checked = 0
    for (;;) {
      const page = await t.services.audit.list(owner.orgId, { limit: 100, ...(cursor ? { cursor } : {}) })
      for (const { hash, ...content } of page.data) {
        expect(hash).toBe(recipeHash(content, previousHash))
        previousHash = hash
        checked += 1
      }
      cursor = page.pagination.cursor
      if (!page.pagination.hasMore) break
    }
    expect(checked).toBeGreaterThan(25)
    expect(await verifyChain(t.db, owner.orgId)).toMatchObject({ ok: true })
  })

  it('writes each delivery body exactly as deliveryPayload does for the event as logged, whatever its data', async () => {
    const owner = await ownerWithOrg(t.app)
    const ctx = { orgId: owner.orgId, actor: { userId: owner.userId } }
    const session: RequestContext = {
      orgId: owner.orgId,
      requestId: 'req_payloads',
      actor: { userId: owner.userId, kind: 'person', role: 'owner' },
    }
    const everything = await t.services.webhooks.create(session, {
      url: 'http://127.0.0.1:9/hooks',
      events: ['audit.emitted'],
    })
    const catalog = await t.services.webhooks.create(session, {
      url: 'http://127.0.0.1:9/hooks',
      events: ['catalog.created'],
    })
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(jsonData, resource), { minLength: 1, maxLength: 3 }), async (items) => {
        const events = await t.db.tx(ctx, (tx) =>
          t.services.audit.appendNow(
            tx,
            ctx,
            items.map(([data, res]) => ({ action: 'catalog.created', resource: res, data: { record: data } })),
          ),
        )
        const bodies = await t.db.read(owner.orgId, (reader) =>
          reader
            .selectFrom('webhook_deliveries')
            .select(['event_id', 'endpoint_id', 'event_type', 'payload'])
            .where('org_id', '=', owner.orgId)
            .where(
              'event_id',
              'in',
              events.map((e) => e.id),
            )
            .execute(),
        )
        expect(bodies).toHaveLength(2 * events.length)
        for (const body of bodies) {
          const event = await t.services.audit.get(owner.orgId, body.event_id)
          expect(body.event_type).toBe(body.endpoint_id === everything.id ? 'audit.emitted' : 'catalog.created')
          expect(body.payload).toBe(deliveryPayload(event, body.event_type))
          expect(JSON.parse(body.payload)).toMatchObject({
            id: event.id,
            type: body.event_type,
            data: { event: { ...event, data: event.data } },
          })
        }
      }),
      { numRuns: 20 },
    )
    expect(catalog.id).not.toBe(everything.id)
  })

  it('never gives an event an earlier createdAt than its predecessor, even when the clock steps back', async () => {
    const owner = await ownerWithOrg(t.app)
    const ctx = { orgId: owner.orgId, actor: { userId: owner.userId } }
    const later = new Date(t.clock.now().getTime() + 60_000)
    t.clock.set(later)
    const [first] = await t.db.tx(ctx, (tx) =>
      t.services.audit.appendNow(tx, ctx, [{ action: 'catalog.created', resource: null, data: { n: 1 } }]),
    )
    t.clock.set(new Date(later.getTime() - 30_000))
    const [second] = await t.db.tx(ctx, (tx) =>
      t.services.audit.appendNow(tx, ctx, [{ action: 'catalog.created', resource: null, data: { n: 2 } }]),
    )
    expect(first!.createdAt).toBe(later.toISOString())
    expect(second!.createdAt).toBe(first!.createdAt)
    expect((await t.services.audit.get(owner.orgId, second!.id)).createdAt).toBe(first!.createdAt)
    expect(await verifyChain(t.db, owner.orgId)).toMatchObject({ ok: true })
  })
})
