import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RequestContext } from '../../platform/context.js'
import { buildTestApp, call, ownerWithOrg, type TestApp } from '../../../test/helpers.js'
import { jsonString } from './audit.render.js'

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const ACTIONS = ['catalog.created', 'creator.created', 'revenue.created'] as const

/** What event data can hold: anything JSON, strings with quotes, escapes and astral characters included. */
const data = fc.jsonValue({ maxDepth: 3, depthSize: 'small' })
const resource = fc.option(
  fc.record({
    type: fc.constantFrom('catalog', 'creator', 'revenue'),
    id: fc.string({ unit: 'grapheme', maxLength: 20 }),
  }),
  { nil: null },
)

describe('the feed written straight from the stored rows', () => {
  it('is exactly the page `list` builds, for any events, filters and page sizes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ action: fc.constantFrom(...ACTIONS), resource, data }), { minLength: 0, maxLength: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.option(fc.constantFrom(...ACTIONS), { nil: undefined }),
        async (items, limit, action) => {
          const owner = await ownerWithOrg(t.app)
          const ctx: RequestContext = {
            orgId: owner.orgId,
            requestId: 'req_test',
            actor: { userId: owner.userId, kind: 'person', role: 'owner' },
          }
          await t.db.tx(ctx, (tx) => t.services.audit.appendNow(tx, ctx, items))
          let cursor: string | undefined
          for (let pages = 0; pages < 20; pages += 1) {
            const query = { limit, ...(action ? { action } : {}), ...(cursor ? { cursor } : {}) }
            const expected = await t.services.audit.list(owner.orgId, query)
            const rendered = await t.services.audit.listJson(owner.orgId, query)
            expect(JSON.parse(rendered)).toEqual(JSON.parse(JSON.stringify(expected)))
            cursor = expected.pagination.cursor ?? undefined
            if (!expected.pagination.hasMore) break
          }
        },
      ),
      { numRuns: 25 },
    )
  })

  it('writes every string exactly as JSON.stringify does (quotes, escapes, controls, surrogates, astral characters)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.string({ unit: 'grapheme' }),
          fc.stringMatching(/^[a-z]{3}_[0-9A-Z]{26}$/),
        ),
        (value) => {
          expect(jsonString(value)).toBe(JSON.stringify(value))
        },
      ),
      { numRuns: 2000 },
    )
    for (const value of ['', '"', '\\', '\u0000', '\u001f', '\u007f', '\u2028', '\ud800', '\udc00x', 'é😀'])
      expect(jsonString(value)).toBe(JSON.stringify(value))
  })

  it('writes the same page as the service presents, and the session route answers the same events', async () => {
    const owner = await ownerWithOrg(t.app)
    const presented = JSON.parse(JSON.stringify(await t.services.audit.list(owner.orgId, { limit: 5 })))
    expect(JSON.parse(await t.services.audit.listJson(owner.orgId, { limit: 5 }))).toEqual(presented)
    const response = await call(t.app, { url: '/api/org-events?limit=5', token: owner.token })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
    expect(response.json().data).toEqual(presented.data)
    expect(response.json().data[0]).toMatchObject({ action: 'org.created', sequence: 1, orgId: owner.orgId })
  })
})
