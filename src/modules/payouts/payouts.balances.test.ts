import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  memberWithRole,
  ownerWithOrg,
  type OrgAccount,
  type TestApp,
} from '../../../test/helpers.js'
import { sandboxPartner } from '../../../test/partner-helpers.js'
import { createCreator, createRevenue, createWork } from '../../../test/records-fixtures.js'

let t: TestApp
let owner: OrgAccount
let other: OrgAccount

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
  other = await ownerWithOrg(t.app, { name: 'Other Label' })
})
afterAll(() => t.close())

const balances = (query = '', token = owner.token) => call(t.app, { url: `/api/payouts/balances${query}`, token })
const balancesOf = async (creatorId: string, token = owner.token) => {
  const response = await balances(`?creatorId=${creatorId}`, token)
  expect(response.statusCode, response.body).toBe(200)
  return response.json().data as Record<string, unknown>[]
}
const pay = (body: Record<string, unknown>, token = owner.token) =>
  call(t.app, { method: 'POST', url: '/api/payouts', token, body })

describe('GET /api/payouts/balances', () => {
  it('shows per creator and currency what a payout created now would pay, and what a payout leaves behind', async () => {
    const ada = await createCreator(t.app, owner.token, { openingBalance: '1.50', minimumPayout: '5.00' })
    const work = await createWork(t.app, owner.token, [[ada.id, 10000]])
    expect(await balancesOf(ada.id)).toEqual([
      {
        creatorId: ada.id,
        currency: 'EUR',
        openingBalance: '1.50',
        earnings: '0.00',
        entries: 0,
        balance: '1.50',
        payable: '1.50',
        minimumPayout: '5.00',
        payableNow: false,
      },
    ])

    await createRevenue(t.app, owner.token, work.id, { amount: '10.004217' })
    await createRevenue(t.app, owner.token, work.id, { amount: '100', currency: 'JPY' })
    const before = await eventCount(t.db, owner.orgId)
    const [eur, jpy] = await balancesOf(ada.id)
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    expect(eur).toMatchObject({ earnings: '10.004217', entries: 1, balance: '11.504217', payable: '11.50' })
    expect(eur!.payableNow).toBe(true)
    expect(jpy).toEqual({
      creatorId: ada.id,
      currency: 'JPY',
      openingBalance: '0',
      earnings: '100',
      entries: 1,
      balance: '100',
      payable: '100',
      minimumPayout: null,
      payableNow: true,
    })

    const payout = await pay({ creatorId: ada.id })
    expect(payout.statusCode, payout.body).toBe(201)
    expect(payout.json()).toMatchObject({ amount: eur!.payable, statement: { earnings: eur!.earnings } })
    const [afterPayout] = await balancesOf(ada.id)
    expect(afterPayout).toMatchObject({ openingBalance: '0.004217', earnings: '0.00', entries: 0, payable: '0.00' })
    expect(afterPayout!.payableNow).toBe(false)

    // A canceled payout gives its allocations back: the balance is the one before it.
    const cancel = await call(t.app, {
      method: 'POST',
      url: `/api/payouts/${payout.json().id}/cancel`,
      token: owner.token,
    })
    expect(cancel.statusCode, cancel.body).toBe(200)
    expect((await balancesOf(ada.id))[0]).toEqual(eur)
  })

  it('pages by creator with a cursor bound to its filters', async () => {
    const label = await ownerWithOrg(t.app, { name: 'Paged Label' })
    const made = [] as string[]
    for (let index = 0; index < 3; index += 1) made.push((await createCreator(t.app, label.token)).id)
    const first = await balances('?limit=2', label.token)
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json().data.map((row: { creatorId: string }) => row.creatorId)).toEqual(made.sort().slice(0, 2))
    expect(first.json().pagination.hasMore).toBe(true)
    const cursor = first.json().pagination.cursor as string
    const second = await balances(`?limit=2&cursor=${cursor}`, label.token)
    expect(second.json().data.map((row: { creatorId: string }) => row.creatorId)).toEqual([made[2]])
    expect(second.json().pagination).toEqual({ cursor: null, hasMore: false })
    const problem = await balances(`?limit=2&creatorId=${made[0]}&cursor=${cursor}`, label.token)
    expectProblem(problem, 400, 'invalid_cursor')
    expect(problem.json().param).toBe('cursor')
  })

  it('refuses a bad query with the field named', async () => {
    const response = await balances('?limit=0')
    expectProblem(response, 400, 'parameter_invalid')
    expect(response.json().param).toBe('limit')
  })

  it('answers 401 without a session, lets a viewer read, and shows nothing of another org', async () => {
    expectProblem(await call(t.app, { url: '/api/payouts/balances' }), 401, 'authentication_required')
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    expect((await balances('', viewer.token)).statusCode).toBe(200)
    const theirs = await createCreator(t.app, other.token)
    expect(await balancesOf(theirs.id)).toEqual([])
    expect((await balancesOf(theirs.id, other.token)).length).toBe(1)
  })

  it('answers the partner surface with the same rows', async () => {
    const partner = await sandboxPartner(t.app, ['payouts:read', 'creators:write'])
    const creator = await createCreator(t.app, partner.owner.token, { openingBalance: '3.00' })
    const response = await call(t.app, {
      url: `/v1/orgs/${partner.owner.orgId}/payouts/balances?creatorId=${creator.id}`,
      token: partner.token,
    })
    expect(response.statusCode, response.body).toBe(200)
    expect(response.json().data).toEqual(await balancesOf(creator.id, partner.owner.token))
    const foreign = await call(t.app, {
      url: `/v1/orgs/${owner.orgId}/payouts/balances`,
      token: partner.token,
    })
    expect(foreign.statusCode).toBe(404)
  })
})

describe('GET /api/payouts?status=', () => {
  it('lists the payouts of one status, and refuses an unknown one', async () => {
    const label = await ownerWithOrg(t.app, { name: 'Status Label' })
    const ids = [] as string[]
    for (let index = 0; index < 2; index += 1) {
      const creator = await createCreator(t.app, label.token)
      const work = await createWork(t.app, label.token, [[creator.id, 10000]])
      await createRevenue(t.app, label.token, work.id, { amount: '20.00' })
      const payout = await pay({ creatorId: creator.id }, label.token)
      expect(payout.statusCode, payout.body).toBe(201)
      ids.push(payout.json().id)
    }
    const sent = await call(t.app, {
      method: 'POST',
      url: `/api/payouts/${ids[0]}/mark-in-transit`,
      token: label.token,
    })
    expect(sent.statusCode, sent.body).toBe(200)
    const list = (status: string) => call(t.app, { url: `/api/payouts?status=${status}`, token: label.token })
    expect((await list('in_transit')).json().data.map((payout: { id: string }) => payout.id)).toEqual([ids[0]])
    expect((await list('pending')).json().data.map((payout: { id: string }) => payout.id)).toEqual([ids[1]])
    expect((await list('paid')).json().data).toEqual([])
    const wrong = await list('sent')
    expectProblem(wrong, 400, 'parameter_invalid')
    expect(wrong.json().param).toBe('status')
  })
})

describe('balance and payout agree', () => {
  it('a payout created right after the balance is read pays its payable amount, or is refused when it says so', async () => {
    const amount = fc
      .tuple(fc.bigInt({ min: -30_000_000n, max: 90_000_000n }), fc.constantFrom('EUR', 'JPY', 'KWD'))
      .filter(([micros]) => micros !== 0n)
    const decimal = (value: bigint) => {
      const magnitude = value < 0n ? -value : value
      const text = `${magnitude / 1_000_000n}.${(magnitude % 1_000_000n).toString().padStart(6, '0')}`
      return value < 0n ? `-${text}` : text
    }
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          opening: fc.bigInt({ min: -20_000_000n, max: 20_000_000n }),
          minimum: fc.constantFrom('0.00', '5.00', '40.00'),
          lines: fc.array(amount, { minLength: 0, maxLength: 5 }),
          cancelFirst: fc.boolean(),
          currency: fc.constantFrom('EUR', 'JPY', 'KWD'),
        }),
        async ({ opening, minimum, lines, cancelFirst, currency }) => {
          const creator = await createCreator(t.app, owner.token, {
            openingBalance: decimal(opening),
            minimumPayout: minimum,
          })
          const work = await createWork(t.app, owner.token, [[creator.id, 10000]])
          const revenue = async ([micros, code]: [bigint, string]) => {
            // Whole minor units for the currency: JPY has none, KWD three.
            const places = code === 'JPY' ? 0 : code === 'KWD' ? 3 : 2
            const text = decimal(micros)
            const trimmed = places === 0 ? text.split('.')[0]! : text.slice(0, text.indexOf('.') + 1 + places)
            if (/^-?0(\.0+)?$/.test(trimmed)) return
            await createRevenue(t.app, owner.token, work.id, { amount: trimmed, currency: code })
          }
          for (const line of lines) await revenue(line)
          if (cancelFirst) {
            const first = await pay({ creatorId: creator.id, currency })
            if (first.statusCode === 201)
              await call(t.app, {
                method: 'POST',
                url: `/api/payouts/${first.json().id}/cancel`,
                token: owner.token,
              })
          }
          const rows = await balancesOf(creator.id)
          const row = rows.find((balance) => balance.currency === currency)
          const payout = await pay({ creatorId: creator.id, currency })
          if (row?.payableNow) {
            expect(payout.statusCode, payout.body).toBe(201)
            expect(payout.json().amount).toBe(row.payable)
            expect(payout.json().statement).toMatchObject({
              openingBalance: row.openingBalance,
              earnings: row.earnings,
              entries: row.entries,
            })
          } else {
            expect(payout.statusCode, payout.body).toBe(422)
            expect(['nothing_to_pay', 'balance_below_minimum']).toContain(payout.json().code)
          }
        },
      ),
      { numRuns: 25 },
    )
  })
})
