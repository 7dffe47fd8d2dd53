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

const pay = (body: Record<string, unknown>, token = owner.token) =>
  call(t.app, { method: 'POST', url: '/api/payouts', token, body })

/** A creator with a solo work, so every revenue amount is theirs. */
async function soloCreator(overrides: Record<string, unknown> = {}, token = owner.token) {
  const creator = await createCreator(t.app, token, overrides)
  const work = await createWork(t.app, token, [[creator.id, 10000]])
  const earn = (amount: string, extra: Record<string, unknown> = {}) =>
    createRevenue(t.app, token, work.id, { amount, ...extra })
  return { id: creator.id, earn }
}

describe('computing payouts', () => {
  it('pays all unpaid earnings rounded down to the cent and carries the remainder into the next statement', async () => {
    const ada = await soloCreator()
    await ada.earn('10.000001')
    await ada.earn('0.004216')
    const before = await eventCount(t.db, owner.orgId)
    const first = await pay({ creatorId: ada.id })
    expect(first.statusCode, first.body).toBe(201)
    expect(first.json()).toMatchObject({
      creatorId: ada.id,
      amount: '10.00',
      currency: 'EUR',
      status: 'pending',
      method: 'manual',
      statement: {
        openingBalance: '0.00',
        earnings: '10.004217',
        recouped: '0.00',
        carriedForward: '0.004217',
        entries: 2,
        periodStart: '2026-09-01',
        periodEnd: '2026-09-30',
      },
      failureCode: null,
      failureMessage: null,
      paidAt: null,
    })
    expect(first.json().id).toMatch(/^po_/)
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    const logged = (await call(t.app, { url: '/api/org-events?action=payout.created', token: owner.token }))
      .json()
      .data.at(-1)
    expect(logged.data).toEqual(first.json())
    expect((await call(t.app, { url: `/api/payouts/${first.json().id}`, token: owner.token })).json()).toEqual(
      first.json(),
    )

    await ada.earn('0.995783')
    const second = (await pay({ creatorId: ada.id })).json()
    expect(second).toMatchObject({
      amount: '1.00',
      statement: { openingBalance: '0.004217', earnings: '0.995783', carriedForward: '0.00', entries: 1 },
    })
    expectProblem(await pay({ creatorId: ada.id }), 422, 'nothing_to_pay')
  })

  it('recoups an advance before paying anything', async () => {
    const ben = await soloCreator({ openingBalance: '-100.00' })
    await ben.earn('60.00')
    const refused = await pay({ creatorId: ben.id })
    expectProblem(refused, 422, 'nothing_to_pay')
    expect(refused.json().detail).toContain('-40.00')
    await ben.earn('70.00')
    const payout = (await pay({ creatorId: ben.id })).json()
    expect(payout).toMatchObject({
      amount: '30.00',
      statement: {
        openingBalance: '-100.00',
        earnings: '130.00',
        recouped: '100.00',
        carriedForward: '0.00',
        entries: 2,
      },
    })
    await ben.earn('5.00')
    expect((await pay({ creatorId: ben.id })).json().statement).toMatchObject({
      openingBalance: '0.00',
      recouped: '0.00',
      earnings: '5.00',
    })
  })

  it('pays out a positive opening balance even without revenue', async () => {
    const owed = await soloCreator({ openingBalance: '12.345' })
    const payout = (await pay({ creatorId: owed.id })).json()
    expect(payout).toMatchObject({
      amount: '12.34',
      statement: {
        openingBalance: '12.345',
        earnings: '0.00',
        carriedForward: '0.005',
        entries: 0,
        periodStart: null,
        periodEnd: null,
      },
    })
  })

  it('waits for the creator’s minimum payout', async () => {
    const cleo = await soloCreator({ minimumPayout: '50.00' })
    await cleo.earn('49.999999')
    const refused = await pay({ creatorId: cleo.id })
    expectProblem(refused, 422, 'balance_below_minimum')
    expect(refused.json().detail).toContain('49.99')
    await cleo.earn('0.01')
    expect((await pay({ creatorId: cleo.id })).json()).toMatchObject({
      amount: '50.00',
      statement: { carriedForward: '0.009999' },
    })
  })

  it('pays each currency on its own, the opening balance only in the payout currency, in its minor unit', async () => {
    const dan = await soloCreator({ openingBalance: '5.00', minimumPayout: '100.00' })
    await dan.earn('10.50', { currency: 'USD' })
    await dan.earn('1000.7', { currency: 'JPY' })
    await dan.earn('1.0005', { currency: 'KWD' })
    const usd = (await pay({ creatorId: dan.id, currency: 'USD' })).json()
    expect(usd).toMatchObject({
      amount: '10.50',
      currency: 'USD',
      statement: { openingBalance: '0.00', earnings: '10.50' },
    })
    const yen = (await pay({ creatorId: dan.id, currency: 'JPY' })).json()
    expect(yen).toMatchObject({
      amount: '1000',
      currency: 'JPY',
      statement: { earnings: '1000.7', carriedForward: '0.7' },
    })
    const dinar = (await pay({ creatorId: dan.id, currency: 'KWD' })).json()
    expect(dinar).toMatchObject({ amount: '1.000', statement: { carriedForward: '0.0005' } })
    // EUR is the payout currency: the opening balance counts there, and so does the minimum.
    expectProblem(await pay({ creatorId: dan.id }), 422, 'balance_below_minimum')
  })

  it('pays only revenue whose period ends by `through`', async () => {
    const eve = await soloCreator()
    await eve.earn('1.00', { periodStart: '2026-07-01', periodEnd: '2026-07-31' })
    await eve.earn('2.00', { periodStart: '2026-08-01', periodEnd: '2026-08-31' })
    await eve.earn('4.00', { periodStart: '2026-09-01', periodEnd: '2026-09-30' })
    const august = (await pay({ creatorId: eve.id, through: '2026-08-31' })).json()
    expect(august).toMatchObject({
      amount: '3.00',
      statement: { entries: 2, periodStart: '2026-07-01', periodEnd: '2026-08-31' },
    })
    expectProblem(await pay({ creatorId: eve.id, through: '2026-08-31' }), 422, 'nothing_to_pay')
    expect((await pay({ creatorId: eve.id })).json()).toMatchObject({
      amount: '4.00',
      statement: { periodStart: '2026-09-01' },
    })
  })

  it('nets a reversal against later earnings, even when the original was already paid', async () => {
    const fay = await soloCreator()
    const original = await fay.earn('20.00', { units: 5 })
    expect((await pay({ creatorId: fay.id })).json().amount).toBe('20.00')
    await createRevenue(t.app, owner.token, original.catalogId as string, {
      amount: '-20.00',
      units: -5,
      reverses: original.id,
    })
    await fay.earn('25.00')
    expect((await pay({ creatorId: fay.id })).json()).toMatchObject({
      amount: '5.00',
      statement: { earnings: '5.00', entries: 2 },
    })
  })

  it('matches Ben’s figures in the worked example of docs/money.md', async () => {
    const ben = await soloCreator({ openingBalance: '-100.00', minimumPayout: '50.00' })
    await ben.earn('411.482884')
    const september = (await pay({ creatorId: ben.id })).json()
    expect(september).toMatchObject({
      amount: '311.48',
      statement: { openingBalance: '-100.00', earnings: '411.482884', recouped: '100.00', carriedForward: '0.002884' },
    })
    await ben.earn('30.00')
    expectProblem(await pay({ creatorId: ben.id }), 422, 'balance_below_minimum')
    await ben.earn('25.10')
    const november = (await pay({ creatorId: ben.id })).json()
    expect(november).toMatchObject({
      amount: '55.10',
      statement: {
        openingBalance: '0.002884',
        earnings: '55.10',
        recouped: '0.00',
        carriedForward: '0.002884',
        entries: 2,
      },
    })
    await call(t.app, { method: 'POST', url: `/api/payouts/${november.id}/cancel`, token: owner.token })
    expect((await pay({ creatorId: ben.id })).json()).toMatchObject({
      amount: '55.10',
      statement: { openingBalance: '0.002884' },
    })
  })

  it('lists payouts newest first with keyset pagination', async () => {
    const gus = await soloCreator()
    await gus.earn('1.00')
    const a = (await pay({ creatorId: gus.id })).json()
    t.clock.advance(1000)
    await gus.earn('1.00')
    const b = (await pay({ creatorId: gus.id })).json()
    const page = (await call(t.app, { url: '/api/payouts?limit=1', token: owner.token })).json()
    expect(page.data.map((p: { id: string }) => p.id)).toEqual([b.id])
    const next = (
      await call(t.app, { url: `/api/payouts?limit=1&cursor=${page.pagination.cursor}`, token: owner.token })
    ).json()
    expect(next.data.map((p: { id: string }) => p.id)).toEqual([a.id])
  })
})

describe('refusing payouts, writing nothing', () => {
  it('refuses bad requests with their codes', async () => {
    const hal = await soloCreator()
    const stranger = await createCreator(t.app, other.token)
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(await pay({ creatorId: hal.id }), 422, 'nothing_to_pay')
    const foreign = await pay({ creatorId: stranger.id })
    expectProblem(foreign, 422, 'unprocessable')
    expect(foreign.json().param).toBe('creatorId')
    expectProblem(await pay({ creatorId: hal.id, currency: 'XYZ' }), 400, 'parameter_invalid')
    expectProblem(await pay({ creatorId: hal.id, through: '31.08.2026' }), 400, 'parameter_invalid')
    expectProblem(await pay({}), 400, 'parameter_missing')
    expectProblem(await pay({ creatorId: hal.id, amount: '10.00' }), 400, 'parameter_unknown')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })
})

describe('payout access', () => {
  it('needs a session, and finance or above to pay', async () => {
    const ivy = await soloCreator()
    await ivy.earn('3.00')
    expectProblem(await call(t.app, { url: '/api/payouts' }), 401, 'authentication_required')
    expectProblem(
      await call(t.app, { method: 'POST', url: '/api/payouts', body: { creatorId: ivy.id } }),
      401,
      'authentication_required',
    )
    const editor = await memberWithRole(t.app, owner, 'editor')
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    const finance = await memberWithRole(t.app, owner, 'finance')
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(await pay({ creatorId: ivy.id }, editor.token), 403, 'forbidden')
    expectProblem(await pay({ creatorId: ivy.id }, viewer.token), 403, 'forbidden')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    const payout = await pay({ creatorId: ivy.id }, finance.token)
    expect(payout.statusCode).toBe(201)
    expectProblem(
      await call(t.app, { method: 'POST', url: `/api/payouts/${payout.json().id}/cancel`, token: viewer.token }),
      403,
      'forbidden',
    )
    expect((await call(t.app, { url: `/api/payouts/${payout.json().id}`, token: viewer.token })).statusCode).toBe(200)
  })

  it('answers another org’s payout with 404, for reads and actions', async () => {
    const theirs = await soloCreator({}, other.token)
    await theirs.earn('9.00')
    const payout = (await pay({ creatorId: theirs.id }, other.token)).json()
    const before = await eventCount(t.db, other.orgId)
    expectProblem(await call(t.app, { url: `/api/payouts/${payout.id}`, token: owner.token }), 404, 'resource_missing')
    for (const verb of ['cancel', 'mark-in-transit', 'mark-paid']) {
      expectProblem(
        await call(t.app, { method: 'POST', url: `/api/payouts/${payout.id}/${verb}`, token: owner.token }),
        404,
        'resource_missing',
      )
    }
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: `/api/payouts/${payout.id}/mark-failed`,
        token: owner.token,
        body: { failureMessage: 'x' },
      }),
      404,
      'resource_missing',
    )
    expect(await eventCount(t.db, other.orgId)).toBe(before)
    expect((await call(t.app, { url: `/api/payouts/${payout.id}`, token: other.token })).json().status).toBe('pending')
  })
})
