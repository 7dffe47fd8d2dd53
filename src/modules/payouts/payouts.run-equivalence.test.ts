import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, call, ownerWithOrg, type TestApp } from '../../../test/helpers.js'
import { createCreator, createRevenue, createWork } from '../../../test/records-fixtures.js'
import type { RequestContext } from '../../platform/context.js'
import { AppError } from '../../platform/errors.js'
import { runPayouts } from './payouts.run.js'
import type { Payout } from './payouts.schemas.js'
import { batchEventData } from '../../shared/merkle/merkle.batch.js'
import { parseAmount } from '../../shared/money/money.decimal.js'

/**
 * The set-based run against the API's one-payout-per-creator path: for random creators
 * (opening balances, minimums, currencies), revenue (negative, sub-cent, several periods and
 * currencies), earlier payouts (live and canceled) and run options, the run writes exactly the
 * payouts, statements, items and events that POST /api/payouts per creator writes.
 */

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

const CURRENCIES = ['EUR', 'JPY', 'KWD'] as const
const MONTHS = [
  ['2026-08-01', '2026-08-31'],
  ['2026-09-01', '2026-09-30'],
  ['2026-10-01', '2026-10-31'],
] as const
const decimal = (micros: bigint): string => {
  const sign = micros < 0n ? '-' : ''
  const magnitude = micros < 0n ? -micros : micros
  return `${sign}${magnitude / 1_000_000n}.${(magnitude % 1_000_000n).toString().padStart(6, '0')}`
}

const scenario = fc.record({
  creators: fc.array(
    fc.record({
      opening: fc.oneof(fc.constant(0n), fc.bigInt({ min: -50_000_000n, max: 50_000_000n })),
      minimum: fc.constantFrom('0', '5', '20'),
      payoutCurrency: fc.constantFrom('EUR', 'JPY'),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  revenue: fc.array(
    fc.record({
      currency: fc.constantFrom(...CURRENCIES),
      amount: fc.oneof(
        fc.bigInt({ min: 1n, max: 90_000_000n }),
        fc.bigInt({ min: -20_000_000n, max: -1n }),
        fc.bigInt({ min: 1n, max: 9_999n }),
      ),
      month: fc.integer({ min: 0, max: 2 }),
    }),
    { minLength: 1, maxLength: 7 },
  ),
  earlier: fc.option(
    fc.record({ creator: fc.nat(), through: fc.constantFrom(undefined, '2026-08-31'), cancel: fc.boolean() }),
  ),
  currency: fc.constantFrom(undefined, 'EUR', 'JPY'),
  through: fc.constantFrom(undefined, '2026-09-30'),
  /** Small pages, so runs cross page boundaries and pay bounded pages side by side. */
  pageSize: fc.integer({ min: 1, max: 3 }),
})
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never

interface Built {
  ctx: RequestContext
  creators: string[]
}

/** The scenario's records in a new org, through the services, up to the moment of paying. */
async function build(spec: Scenario): Promise<Built> {
  const owner = await ownerWithOrg(t.app)
  const ctx: RequestContext = {
    orgId: owner.orgId,
    requestId: 'req_equivalence',
    actor: { userId: owner.userId, kind: 'person', role: 'owner' },
  }
  const creators: string[] = []
  for (const creator of spec.creators) {
    const created = await createCreator(t.app, owner.token, {
      payoutCurrency: creator.payoutCurrency,
      minimumPayout: creator.minimum,
      openingBalance: decimal(creator.opening),
    })
    creators.push(created.id)
  }
  const shares = creators.map(
    (_, index) => Math.floor(10000 / creators.length) + (index === 0 ? 10000 % creators.length : 0),
  )
  const work = await createWork(
    t.app,
    owner.token,
    creators.map((id, index) => [id, shares[index]!] as [string, number]),
  )
  for (const line of spec.revenue) {
    const [periodStart, periodEnd] = MONTHS[line.month]!
    await createRevenue(t.app, owner.token, work.id, {
      amount: decimal(line.amount),
      currency: line.currency,
      periodStart,
      periodEnd,
    })
  }
  if (spec.earlier) {
    const creatorId = creators[spec.earlier.creator % creators.length]!
    const earlier = await t.services.payouts
      .create(ctx, { creatorId, ...(spec.earlier.through ? { through: spec.earlier.through } : {}) })
      .catch((error: unknown) => {
        if (error instanceof AppError) return null
        throw error
      })
    if (earlier && spec.earlier.cancel) await t.services.payouts.cancel(ctx, earlier.id)
  }
  return { ctx, creators }
}

async function payoutsOf(orgId: string): Promise<Payout[]> {
  const rows = await t.db.read(orgId, (db) =>
    db.selectFrom('payouts').select('id').where('org_id', '=', orgId).execute(),
  )
  const ctx: RequestContext = { orgId, requestId: 'req_read', actor: { userId: 'usr_reader', kind: 'system' } }
  return Promise.all(rows.map((row) => t.services.payouts.get(ctx, row.id)))
}

/** Each new payout as the API presents it, keyed by the creator's position, without its own id and batch. */
async function newPayouts(
  built: Built,
  before: Set<string>,
): Promise<Record<number, Omit<Payout, 'id' | 'creatorId' | 'batchId'>>> {
  const all = (await payoutsOf(built.ctx.orgId)).filter((payout) => !before.has(payout.id))
  return Object.fromEntries(
    all.map(({ id: _id, creatorId, batchId: _batchId, ...rest }) => {
      void _id
      void _batchId
      return [built.creators.indexOf(creatorId), rest]
    }),
  )
}

/** Every live item of the org's payouts links an allocation of the payout's creator, and sums to its earnings. */
async function itemsMatchStatements(orgId: string): Promise<void> {
  const rows = await t.db.read(orgId, (db) =>
    db
      .selectFrom('payouts as p')
      .leftJoin('payout_items as i', (join) =>
        join.onRef('i.org_id', '=', 'p.org_id').onRef('i.payout_id', '=', 'p.id'),
      )
      .leftJoin('revenue_allocations as a', (join) =>
        join
          .onRef('a.org_id', '=', 'i.org_id')
          .onRef('a.revenue_id', '=', 'i.revenue_id')
          .onRef('a.creator_id', '=', 'i.creator_id'),
      )
      .select([
        'p.id',
        'p.entries',
        'p.earnings_micros',
        'p.currency',
        'a.amount_micros',
        'a.currency as allocation_currency',
      ])
      .where('p.org_id', '=', orgId)
      .execute(),
  )
  const byPayout = new Map<string, { entries: number; earnings: bigint; count: number; sum: bigint }>()
  for (const row of rows) {
    const entry = byPayout.get(row.id) ?? { entries: row.entries, earnings: row.earnings_micros, count: 0, sum: 0n }
    if (row.amount_micros !== null) {
      expect(row.allocation_currency).toBe(row.currency)
      entry.count += 1
      entry.sum += row.amount_micros
    }
    byPayout.set(row.id, entry)
  }
  for (const entry of byPayout.values())
    expect({ count: entry.count, sum: entry.sum }).toEqual({ count: entry.entries, sum: entry.earnings })
}

describe('oeuvre payouts run, set-based', () => {
  it('writes exactly the payouts, statements, items and events that per-creator API payouts write', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (spec) => {
        const viaRun = await build(spec)
        const viaApi = await build(spec)
        const beforeRun = new Set((await payoutsOf(viaRun.ctx.orgId)).map((payout) => payout.id))
        const beforeApi = new Set((await payoutsOf(viaApi.ctx.orgId)).map((payout) => payout.id))
        const options = {
          ...(spec.currency ? { currency: spec.currency } : {}),
          ...(spec.through ? { through: spec.through } : {}),
        }

        const report = await runPayouts(t.db, t.services.payouts, {
          orgId: viaRun.ctx.orgId,
          pageSize: spec.pageSize,
          pageConcurrency: 2,
          ...options,
        })
        const counted = { created: 0, nothingToPay: 0, belowMinimum: 0 }
        for (const creatorId of viaApi.creators) {
          const outcome = await t.services.payouts
            .create(viaApi.ctx, { creatorId, ...options })
            .catch((error: unknown) => error)
          if (!(outcome instanceof Error)) counted.created += 1
          else if (outcome instanceof AppError && outcome.code === 'nothing_to_pay') counted.nothingToPay += 1
          else if (outcome instanceof AppError && outcome.code === 'balance_below_minimum') counted.belowMinimum += 1
          else throw outcome
        }

        expect(report).toMatchObject({ creators: spec.creators.length, ...counted, failed: 0, pagesOneByOne: 0 })
        expect(await newPayouts(viaRun, beforeRun)).toEqual(await newPayouts(viaApi, beforeApi))
        await itemsMatchStatements(viaRun.ctx.orgId)

        // One payouts.run event per page that paid someone: the root of the records GET /api/payouts/:id answers.
        const events = await t.db.read(viaRun.ctx.orgId, (db) =>
          db
            .selectFrom('org_events')
            .select(['resource_id', 'data'])
            .where('org_id', '=', viaRun.ctx.orgId)
            .where('action', 'in', ['payout.created', 'payouts.run'])
            .execute(),
        )
        const fresh = (await payoutsOf(viaRun.ctx.orgId)).filter((payout) => !beforeRun.has(payout.id))
        const batches = new Map<string, Payout[]>()
        for (const payout of fresh) batches.set(payout.batchId!, [...(batches.get(payout.batchId!) ?? []), payout])
        for (const [batchId, payouts] of batches) {
          const lines = payouts.map((payout) => ({
            id: payout.id,
            currency: payout.currency,
            amount: parseAmount(payout.amount, { param: 'amount', places: 6 }),
            record: payout,
          }))
          expect(
            events.filter((event) => event.resource_id === batchId).map((event) => JSON.parse(event.data) as unknown),
          ).toEqual([batchEventData(batchId, lines)])
        }
        expect(events.filter((event) => fresh.some((payout) => payout.id === event.resource_id))).toEqual([])
      }),
      { numRuns: 30 },
    )
  }, 300_000)

  it('never pays an allocation twice while API payouts for the same creators run at the same time', async () => {
    const owner = await ownerWithOrg(t.app)
    const creators: string[] = []
    for (let i = 0; i < 8; i += 1) creators.push((await createCreator(t.app, owner.token)).id)
    const work = await createWork(
      t.app,
      owner.token,
      creators.map((id, index) => [id, index === 0 ? 1250 + 0 : 1250] as [string, number]),
    )
    for (const amount of ['10.00', '7.25', '0.004217']) await createRevenue(t.app, owner.token, work.id, { amount })

    const pay = (creatorId: string) =>
      call(t.app, { method: 'POST', url: '/api/payouts', token: owner.token, body: { creatorId } })
    const [report, ...answers] = await Promise.all([
      runPayouts(t.db, t.services.payouts, { orgId: owner.orgId, pageSize: 3, pageConcurrency: 2 }),
      ...creators.flatMap((id) => [pay(id), pay(id)]),
    ])

    // Every creator is paid exactly once, by the run or by the API; every other attempt finds nothing to pay.
    const apiPaid = answers.filter((answer) => answer.statusCode === 201).length
    for (const answer of answers.filter((a) => a.statusCode !== 201))
      expect({ status: answer.statusCode, code: answer.json().code }).toEqual({ status: 422, code: 'nothing_to_pay' })
    expect(report!.failed).toBe(0)
    expect(report!.created + apiPaid).toBe(creators.length)
    expect(report!.created + report!.nothingToPay).toBe(creators.length)

    const held = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('payout_items')
        .select(['revenue_id', 'creator_id'])
        .where('org_id', '=', owner.orgId)
        .where('released_at', 'is', null)
        .execute(),
    )
    const allocations = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('revenue_allocations')
        .select(['revenue_id', 'creator_id'])
        .where('org_id', '=', owner.orgId)
        .execute(),
    )
    const key = (row: { revenue_id: string; creator_id: string }) => `${row.revenue_id}/${row.creator_id}`
    expect(held.map(key).sort()).toEqual(allocations.map(key).sort())
    await itemsMatchStatements(owner.orgId)
  })

  it('pays a page one creator at a time through the API’s path when the set-based page cannot run', async () => {
    const owner = await ownerWithOrg(t.app)
    const paid = (await createCreator(t.app, owner.token)).id
    const idle = (await createCreator(t.app, owner.token)).id
    const work = await createWork(t.app, owner.token, [[paid, 10000]])
    await createRevenue(t.app, owner.token, work.id, { amount: '12.00' })
    const failing = { ...t.services.payouts, runPage: () => Promise.reject(new Error('page refused')) }
    const report = await runPayouts(t.db, failing, { orgId: owner.orgId })
    expect(report).toMatchObject({
      creators: 2,
      created: 1,
      nothingToPay: 1,
      failed: 0,
      pagesOneByOne: 1,
      pageErrors: ['page refused'],
    })
    const listed = (await payoutsOf(owner.orgId)).map((payout) => [payout.creatorId, payout.amount])
    expect(listed).toEqual([[paid, '12.00']])
    expect(idle).not.toBe(paid)
  })
})
