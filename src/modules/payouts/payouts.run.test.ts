import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, call, ownerWithOrg, type OrgAccount, type TestApp } from '../../../test/helpers.js'
import { createCreator, createRevenue, createWork } from '../../../test/records-fixtures.js'
import { runPayouts } from './payouts.run.js'

let t: TestApp
let owner: OrgAccount
let ids: { paid: string; other: string; idle: string; small: string }

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
  ids = {
    paid: (await createCreator(t.app, owner.token, { name: 'Paid' })).id,
    other: (await createCreator(t.app, owner.token, { name: 'Other' })).id,
    idle: (await createCreator(t.app, owner.token, { name: 'Idle' })).id,
    small: (await createCreator(t.app, owner.token, { name: 'Small', minimumPayout: '50.00' })).id,
  }
  const work = await createWork(t.app, owner.token, [
    [ids.paid, 6000],
    [ids.other, 3000],
    [ids.small, 1000],
  ])
  await createRevenue(t.app, owner.token, work.id, { amount: '100.00', periodEnd: '2026-09-30' })
  await createRevenue(t.app, owner.token, work.id, {
    amount: '10.00',
    periodStart: '2026-10-01',
    periodEnd: '2026-10-31',
  })
})
afterAll(() => t.close())

describe('oeuvre payouts run', () => {
  it('pays every creator with something to pay, counts the rest, and a second run pays nothing twice', async () => {
    const first = await runPayouts(t.db, t.services.payouts, {
      orgId: owner.orgId,
      through: '2026-09-30',
      concurrency: 2,
    })
    expect(first).toMatchObject({ creators: 4, created: 2, nothingToPay: 1, belowMinimum: 1, failed: 0 })
    const listed = await call(t.app, { url: '/api/payouts?limit=10', token: owner.token })
    const amounts = Object.fromEntries(
      listed.json().data.map((p: { creatorId: string; amount: string }) => [p.creatorId, p.amount]),
    )
    expect(amounts).toEqual({ [ids.paid]: '60.00', [ids.other]: '30.00' })

    const second = await runPayouts(t.db, t.services.payouts, { orgId: owner.orgId })
    expect(second).toMatchObject({ creators: 4, created: 2, nothingToPay: 1, belowMinimum: 1, failed: 0 })
    const all = await call(t.app, { url: '/api/payouts?limit=10', token: owner.token })
    const october = all.json().data.filter((p: { amount: string }) => !['60.00', '30.00'].includes(p.amount))
    expect(october.map((p: { amount: string }) => p.amount).sort()).toEqual(['3.00', '6.00'])
  })

  it('refuses a malformed through date and an unknown org', async () => {
    await expect(runPayouts(t.db, t.services.payouts, { orgId: owner.orgId, through: 'soon' })).rejects.toThrow(
      /through must be a date/,
    )
    await expect(runPayouts(t.db, t.services.payouts, { orgId: t.services.ids.next('org') })).rejects.toThrow(
      /does not exist/,
    )
  })
})
