import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, ownerWithOrg, type OrgAccount, type TestApp } from '../../../test/helpers.js'
import type { RequestContext } from '../../platform/context.js'
import type { AppError } from '../../platform/errors.js'
import { parseDecimal } from '../../shared/money/money.decimal.js'

/**
 * Conservation of money, through the real services and database: for random splits,
 * opening balances, revenue in several currencies (sub-cent, negative), reversals,
 * payouts, cancels and failures, every statement matches an independent model, and in
 * the end paid + carried forward + unpaid = everything allocated + opening balances.
 */

let t: TestApp
let owner: OrgAccount
let ctx: RequestContext

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
  ctx = {
    orgId: owner.orgId,
    requestId: 'req_property',
    actor: { userId: owner.userId, kind: 'person', role: 'owner' },
  }
})
afterAll(() => t.close())

const MINOR: Record<string, number> = { EUR: 2, JPY: 0, KWD: 3 }
const CURRENCIES = Object.keys(MINOR)
const step = (currency: string) => 10n ** BigInt(6 - MINOR[currency]!)
const floorTo = (micros: bigint, currency: string) =>
  micros - (((micros % step(currency)) + step(currency)) % step(currency))
const micros = (text: string): bigint => {
  const parsed = parseDecimal(text)
  if (!parsed.ok) throw new Error(`not a decimal: ${text}`)
  return parsed.micros
}
const decimal = (value: bigint): string => {
  const sign = value < 0n ? '-' : ''
  const magnitude = value < 0n ? -value : value
  return `${sign}${magnitude / 1_000_000n}.${(magnitude % 1_000_000n).toString().padStart(6, '0')}`
}

const amount = fc.oneof(
  fc.bigInt({ min: 1n, max: 20_000n }),
  fc.bigInt({ min: 1n, max: 300_000_000n }),
  fc.bigInt({ min: -40_000_000n, max: -1n }),
)
const operation = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('revenue' as const), currency: fc.constantFrom(...CURRENCIES), amount }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('payout' as const),
      pick: fc.nat(),
      currency: fc.constantFrom(...CURRENCIES),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fail' as const), pick: fc.nat() }) },
)
const scenario = fc.record({
  creators: fc.array(
    fc.record({
      opening: fc.bigInt({ min: -60_000_000n, max: 60_000_000n }),
      weight: fc.integer({ min: 1, max: 100 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  operations: fc.array(operation, { minLength: 1, maxLength: 14 }),
})

interface ModelAllocation {
  revenueId: string
  creatorId: string
  currency: string
  amount: bigint
  heldBy: string | null
}
interface ModelPayout {
  id: string
  creatorId: string
  currency: string
  status: string
  amount: bigint
  earnings: bigint
}

describe('conservation of money', () => {
  it('pays, carries and leaves unpaid exactly what was allocated plus opening balances', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ creators: specs, operations }) => {
        const { creators, payouts, revenue } = t.services
        const people = [] as { id: string; opening: bigint }[]
        for (const spec of specs) {
          const creator = await creators.create(ctx, {
            name: 'P',
            kind: 'person',
            roles: ['composer'],
            payoutCurrency: 'EUR',
            openingBalance: decimal(spec.opening),
          })
          people.push({ id: creator.id, opening: spec.opening })
        }
        // Basis points in proportion to the weights, the rounding left on the first creator.
        const total = specs.reduce((sum, spec) => sum + spec.weight, 0)
        const shares = specs.map((spec) => Math.floor((spec.weight * 10000) / total))
        shares[0]! += 10000 - shares.reduce((sum, share) => sum + share, 0)
        const splits = people
          .map((person, index) => ({ creatorId: person.id, role: 'composer' as const, shareBps: shares[index]! }))
          .filter((split) => split.shareBps > 0)
        const entry = await t.services.catalog.create(ctx, { kind: 'work', title: 'Property', splits })

        const allocations: ModelAllocation[] = []
        const lines: { id: string; currency: string; amount: bigint; reversed: boolean }[] = []
        const made: ModelPayout[] = []
        const live = (payout: ModelPayout) => payout.status !== 'canceled' && payout.status !== 'failed'
        const base = (creatorId: string, currency: string) =>
          currency === 'EUR' ? people.find((p) => p.id === creatorId)!.opening : 0n
        const carry = (creatorId: string, currency: string) =>
          made
            .filter((p) => p.creatorId === creatorId && p.currency === currency && live(p))
            .reduce((sum, p) => sum + p.earnings - p.amount, base(creatorId, currency))
        const release = (payoutId: string) =>
          allocations.filter((a) => a.heldBy === payoutId).forEach((a) => (a.heldBy = null))

        for (const op of operations) {
          if (op.kind === 'revenue' || op.kind === 'reverse') {
            const original =
              op.kind === 'reverse'
                ? lines.filter((line) => !line.reversed)[op.pick % Math.max(1, lines.filter((l) => !l.reversed).length)]
                : undefined
            if (op.kind === 'reverse' && !original) continue
            const currency = original?.currency ?? (op as { currency: string }).currency
            const value = original ? -original.amount : (op as { amount: bigint }).amount
            const created = await revenue.create(ctx, {
              catalogId: entry.id,
              source: 'DSP',
              type: 'stream',
              periodStart: '2026-09-01',
              periodEnd: '2026-09-30',
              territory: 'WORLD',
              units: original ? -1 : 1,
              amount: decimal(value),
              currency,
              ...(original ? { reverses: original.id } : {}),
            })
            const parts = created.allocations.map((a) => ({ creatorId: a.creatorId, amount: micros(a.amount) }))
            expect(parts.reduce((sum, part) => sum + part.amount, 0n)).toBe(value)
            if (original) {
              original.reversed = true
              const originalParts = allocations.filter((a) => a.revenueId === original.id)
              expect(parts.map((p) => p.amount).sort()).toEqual(originalParts.map((a) => -a.amount).sort())
            } else {
              lines.push({ id: created.id, currency, amount: value, reversed: false })
            }
            for (const part of parts)
              allocations.push({
                revenueId: created.id,
                creatorId: part.creatorId,
                currency,
                amount: part.amount,
                heldBy: null,
              })
          } else if (op.kind === 'payout') {
            const person = people[op.pick % people.length]!
            const unpaid = allocations.filter(
              (a) => a.creatorId === person.id && a.currency === op.currency && a.heldBy === null,
            )
            const opening = carry(person.id, op.currency)
            const earnings = unpaid.reduce((sum, a) => sum + a.amount, 0n)
            const expected = floorTo(opening + earnings, op.currency)
            const outcome = await payouts
              .create(ctx, { creatorId: person.id, currency: op.currency })
              .catch((error: AppError) => error)
            if (expected <= 0n) {
              expect((outcome as AppError).code).toBe('nothing_to_pay')
              continue
            }
            if (!('statement' in outcome)) throw outcome
            expect(micros(outcome.amount)).toBe(expected)
            expect(micros(outcome.statement.openingBalance)).toBe(opening)
            expect(micros(outcome.statement.earnings)).toBe(earnings)
            expect(micros(outcome.statement.carriedForward)).toBe(opening + earnings - expected)
            expect(outcome.statement.entries).toBe(unpaid.length)
            unpaid.forEach((a) => (a.heldBy = outcome.id))
            made.push({
              id: outcome.id,
              creatorId: person.id,
              currency: op.currency,
              status: 'pending',
              amount: expected,
              earnings,
            })
          } else {
            const candidates = made.filter((p) => p.status === 'pending')
            const payout = candidates[op.pick % Math.max(1, candidates.length)]
            if (!payout) continue
            if (op.kind === 'cancel') await payouts.cancel(ctx, payout.id)
            else await payouts.markFailed(ctx, payout.id, { failureMessage: 'property test' })
            payout.status = op.kind === 'cancel' ? 'canceled' : 'failed'
            release(payout.id)
          }
        }

        // The database's own view: allocations, live payouts and what no live payout holds.
        for (const person of people) {
          for (const currency of CURRENCIES) {
            const stored = await t.db.read(owner.orgId, async (db) => {
              const allocated = await db
                .selectFrom('revenue_allocations')
                .select('amount_micros')
                .where('org_id', '=', owner.orgId)
                .where('creator_id', '=', person.id)
                .where('currency', '=', currency)
                .execute()
              const paid = await db
                .selectFrom('payouts')
                .select('amount_micros')
                .where('org_id', '=', owner.orgId)
                .where('creator_id', '=', person.id)
                .where('currency', '=', currency)
                .where('status', 'in', ['pending', 'in_transit', 'paid'])
                .execute()
              const held = await db
                .selectFrom('payout_items as i')
                .innerJoin('revenue_allocations as a', (join) =>
                  join
                    .onRef('a.org_id', '=', 'i.org_id')
                    .onRef('a.revenue_id', '=', 'i.revenue_id')
                    .onRef('a.creator_id', '=', 'i.creator_id'),
                )
                .select('a.amount_micros')
                .where('i.org_id', '=', owner.orgId)
                .where('i.creator_id', '=', person.id)
                .where('a.currency', '=', currency)
                .where('i.released_at', 'is', null)
                .execute()
              const sum = (rows: { amount_micros: bigint }[]) =>
                rows.reduce((total, row) => total + row.amount_micros, 0n)
              return { allocated: sum(allocated), paid: sum(paid), unpaid: sum(allocated) - sum(held) }
            })
            const modelUnpaid = allocations
              .filter((a) => a.creatorId === person.id && a.currency === currency && a.heldBy === null)
              .reduce((sum, a) => sum + a.amount, 0n)
            expect(stored.unpaid).toBe(modelUnpaid)
            expect(stored.paid + carry(person.id, currency) + stored.unpaid).toBe(
              stored.allocated + base(person.id, currency),
            )
          }
        }
      }),
      { numRuns: 20 },
    )
  })
})
