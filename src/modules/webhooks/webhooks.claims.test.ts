import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECOND } from '../../platform/clock.js'
import { buildWebhookTestApp, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import { claimDue, takeLeaseOwner, type Claim, type LeaseOwner } from './webhooks.claims.js'

/**
 * The claim itself (claim_webhook_deliveries, migration 0013), on queue entries written
 * directly: which deliveries it takes, how many per endpoint, and in what shares per org.
 */
let t: WebhookTestApp
beforeAll(async () => {
  t = await buildWebhookTestApp()
})
afterAll(() => t.close())

interface EndpointLayout {
  /** Due deliveries, each this many seconds overdue. */
  ages: number[]
  /** Deliveries not due yet. */
  future: number
  /** Due deliveries another live worker holds. */
  held: number
  /** Due deliveries whose lease (a live worker's) has run out. */
  expired: number
  circuit: 'closed' | 'open' | 'half-open'
}

const endpointLayout = fc.record({
  ages: fc.array(fc.integer({ min: 0, max: 100 }), { maxLength: 12 }),
  future: fc.integer({ min: 0, max: 2 }),
  held: fc.integer({ min: 0, max: 3 }),
  expired: fc.integer({ min: 0, max: 2 }),
  circuit: fc.constantFrom('closed' as const, 'closed' as const, 'open' as const, 'half-open' as const),
})
const layout = fc.record({
  orgs: fc.array(fc.array(endpointLayout, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
  limit: fc.integer({ min: 1, max: 30 }),
  cap: fc.integer({ min: 1, max: 6 }),
})

interface Row {
  delivery_id: string
  tenant_org: string
  endpoint_id: string
  due_at: Date
  leased_until: Date | null
  lease_owner: bigint | null
  lease_token: string | null
}

/** Writes the layout into an empty queue; returns, per endpoint, its org and the deliveries a claim may take, oldest first. */
async function writeLayout(
  orgs: EndpointLayout[][],
  other: LeaseOwner,
  now: Date,
): Promise<Map<string, { org: string; allowance: (cap: number) => number; eligible: string[] }>> {
  await t.db.global.deleteFrom('webhook_queue').execute()
  await t.db.global.deleteFrom('webhook_circuits').execute()
  const at = (seconds: number) => new Date(now.getTime() + seconds * SECOND)
  const endpoints = new Map<string, { org: string; allowance: (cap: number) => number; eligible: string[] }>()
  const rows: Row[] = []
  for (const [o, endpointsOfOrg] of orgs.entries()) {
    const org = `org_p${o}`
    for (const [e, spec] of endpointsOfOrg.entries()) {
      const endpoint = `whk_p${o}_${e}`
      let n = 0
      const row = (due: Date, lease: Partial<Row> = {}): Row => ({
        delivery_id: `whd_${o}_${e}_${String((n += 1)).padStart(3, '0')}`,
        tenant_org: org,
        endpoint_id: endpoint,
        due_at: due,
        leased_until: null,
        lease_owner: null,
        lease_token: null,
        ...lease,
      })
      const eligible: Row[] = []
      for (const age of spec.ages) eligible.push(row(at(-age)))
      for (let i = 0; i < spec.expired; i += 1)
        eligible.push(row(at(-50), { leased_until: at(-1), lease_owner: other.key, lease_token: 'old' }))
      const held = Array.from({ length: spec.held }, () =>
        row(at(-60), { leased_until: at(60), lease_owner: other.key, lease_token: 'theirs' }),
      )
      const future = Array.from({ length: spec.future }, () => row(at(30)))
      rows.push(...eligible, ...held, ...future)
      if (spec.circuit !== 'closed')
        await t.db.global
          .insertInto('webhook_circuits')
          .values({
            endpoint_id: endpoint,
            tenant_org: org,
            failures: 5,
            opened: 1,
            open_until: at(spec.circuit === 'open' ? 20 : -1),
            updated_at: now,
          })
          .execute()
      const ceiling = (cap: number) => (spec.circuit === 'open' ? 0 : spec.circuit === 'half-open' ? 1 : cap)
      eligible.sort((a, b) => a.due_at.getTime() - b.due_at.getTime() || a.delivery_id.localeCompare(b.delivery_id))
      endpoints.set(endpoint, {
        org,
        allowance: (cap) => Math.max(0, ceiling(cap) - spec.held),
        eligible: eligible.map((r) => r.delivery_id),
      })
    }
  }
  if (rows.length > 0) await t.db.global.insertInto('webhook_queue').values(rows).execute()
  return endpoints
}

/** Counts by key. */
function tally(keys: string[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1)
  return counts
}

/** No group got two more than another unless that other had nothing more it could take. */
function expectFairShares(got: Map<string, number>, available: Map<string, number>, what: string): void {
  for (const [x, gotX] of got)
    for (const [y, availableY] of available) {
      const gotY = got.get(y) ?? 0
      if (gotX > gotY + 1) expect(gotY, `${what} ${y} got ${gotY}, ${x} got ${gotX}`).toBe(availableY)
    }
}

describe('claims', () => {
  it('take the oldest claimable deliveries, within each endpoint’s cap and circuit, in fair shares per org and per endpoint, each once', async () => {
    await fc.assert(
      fc.asyncProperty(layout, async ({ orgs, limit, cap }) => {
        const now = t.clock.now()
        const other = await takeLeaseOwner(t.db)
        const me = await takeLeaseOwner(t.db)
        try {
          const endpoints = await writeLayout(orgs, other, now)
          const claimable = new Map(
            [...endpoints].map(([id, e]) => [id, Math.min(e.allowance(cap), e.eligible.length)] as const),
          )
          const claim = () =>
            claimDue(t.db, me, { now, leaseUntil: new Date(now.getTime() + 60 * SECOND), limit, endpointCap: cap })

          // The first claim: the fair shares of at most `limit`.
          const first = await claim()
          const total = [...claimable.values()].reduce((sum, n) => sum + n, 0)
          expect(first).toHaveLength(Math.min(limit, total))
          const byEndpoint = tally(first.map((c) => c.endpointId))
          for (const [id, endpoint] of endpoints) {
            const taken = first.filter((c) => c.endpointId === id).map((c) => c.deliveryId)
            // The oldest first.
            expect(taken.sort()).toEqual(endpoint.eligible.slice(0, taken.length).sort())
            expect(byEndpoint.get(id) ?? 0).toBeLessThanOrEqual(claimable.get(id)!)
          }
          const orgOf = (endpointId: string) => endpoints.get(endpointId)!.org
          const availableByOrg = new Map<string, number>()
          for (const [id, n] of claimable) availableByOrg.set(orgOf(id), (availableByOrg.get(orgOf(id)) ?? 0) + n)
          expectFairShares(tally(first.map((c) => c.orgId)), availableByOrg, 'org')
          for (const org of new Set(first.map((c) => c.orgId))) {
            const ofOrg = [...endpoints].filter(([, e]) => e.org === org).map(([id]) => id)
            expectFairShares(
              tally(first.filter((c) => c.orgId === org).map((c) => c.endpointId)),
              new Map(ofOrg.map((id) => [id, claimable.get(id)!])),
              'endpoint',
            )
          }

          // Claiming on: the caps count what this owner holds too; every claimable delivery once, nothing more.
          const all: Claim[] = [...first]
          for (let batch = await claim(); batch.length > 0; batch = await claim()) all.push(...batch)
          const ids = all.map((c) => c.deliveryId)
          expect(new Set(ids).size).toBe(ids.length)
          expect(ids).toHaveLength(total)
          for (const [id, endpoint] of endpoints)
            expect(
              all
                .filter((c) => c.endpointId === id)
                .map((c) => c.deliveryId)
                .sort(),
            ).toEqual(endpoint.eligible.slice(0, claimable.get(id)).sort())
        } finally {
          await me.release()
          await other.release()
        }
      }),
      { numRuns: 25 },
    )
  })

  it('return the claims in turns: each org’s first delivery before any org’s second', async () => {
    const now = t.clock.now()
    const other = await takeLeaseOwner(t.db)
    const me = await takeLeaseOwner(t.db)
    try {
      const closed = (ages: number[]): EndpointLayout => ({ ages, future: 0, held: 0, expired: 0, circuit: 'closed' })
      // Org 0 has a large, old backlog on one endpoint; orgs 1 and 2 have a little, newer.
      await writeLayout([[closed(Array(20).fill(90))], [closed([5, 4]), closed([3])], [closed([1])]], other, now)
      const claims = await claimDue(t.db, me, {
        now,
        leaseUntil: new Date(now.getTime() + 60 * SECOND),
        limit: 6,
        endpointCap: 10,
      })
      expect(claims.map((c) => c.endpointId)).toEqual([
        'whk_p0_0',
        'whk_p1_0',
        'whk_p2_0',
        'whk_p0_0',
        'whk_p1_1',
        'whk_p0_0',
      ])
    } finally {
      await me.release()
      await other.release()
    }
  })
})
