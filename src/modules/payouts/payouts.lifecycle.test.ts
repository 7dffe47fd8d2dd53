import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECOND } from '../../platform/clock.js'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  memberWithRole,
  ownerWithOrg,
  uniqueEmail,
  type OrgAccount,
  type TestApp,
} from '../../../test/helpers.js'
import { createCreator, createRevenue, createWork } from '../../../test/records-fixtures.js'
import { openIsolatedDatabase } from '../../../test/webhook-helpers.js'
import type { Job } from '../../worker/worker.js'

let t: TestApp
let owner: OrgAccount
let sandbox: OrgAccount
let rail: Job
let dropDatabase: () => Promise<void>

beforeAll(async () => {
  // The sandbox rail moves every org's due sandbox payouts: on a PostgreSQL run it gets a
  // database of its own, or it would move other files' payouts under their feet.
  const isolated = await openIsolatedDatabase()
  dropDatabase = isolated.drop
  t = await buildTestApp({ db: isolated.db })
  owner = await ownerWithOrg(t.app)
  sandbox = await ownerWithOrg(t.app, { environment: 'sandbox', name: 'Sandbox Label' })
  rail = t.services.jobs.find((job) => job.name === 'sandbox-payouts')!
})
afterAll(async () => {
  await t.close()
  await t.db.close()
  await dropDatabase()
})

const pay = (creatorId: string, token = owner.token) =>
  call(t.app, { method: 'POST', url: '/api/payouts', token, body: { creatorId } })
const act = (id: string, verb: string, token = owner.token, body?: unknown) =>
  call(t.app, { method: 'POST', url: `/api/payouts/${id}/${verb}`, token, ...(body === undefined ? {} : { body }) })
const actions = async (token: string, count: number) =>
  (await call(t.app, { url: '/api/org-events?limit=100', token }))
    .json()
    .data.slice(-count)
    .map((event: { action: string }) => event.action)

async function earning(amounts: string[], token = owner.token, creator: Record<string, unknown> = {}) {
  const { id } = await createCreator(t.app, token, creator)
  const work = await createWork(t.app, token, [[id, 10000]])
  for (const amount of amounts) await createRevenue(t.app, token, work.id, { amount })
  return { id, earn: (amount: string) => createRevenue(t.app, token, work.id, { amount }) }
}

describe('the payout state machine', () => {
  it('moves a manual payout pending -> in_transit -> paid, each an org event', async () => {
    const creator = await earning(['10.00'])
    const payout = (await pay(creator.id)).json()
    expectProblem(await act(payout.id, 'mark-paid'), 422, 'invalid_state')
    const inTransit = await act(payout.id, 'mark-in-transit')
    expect(inTransit.statusCode, inTransit.body).toBe(200)
    expect(inTransit.json().status).toBe('in_transit')
    expectProblem(await act(payout.id, 'cancel'), 422, 'invalid_state')
    t.clock.advance(60 * SECOND)
    const paid = (await act(payout.id, 'mark-paid')).json()
    expect(paid).toMatchObject({ status: 'paid', paidAt: t.clock.now().toISOString() })
    expect(await actions(owner.token, 2)).toEqual(['payout.in_transit', 'payout.paid'])
    const before = await eventCount(t.db, owner.orgId)
    for (const verb of ['cancel', 'mark-in-transit', 'mark-paid'])
      expectProblem(await act(payout.id, verb), 422, 'invalid_state')
    expectProblem(await act(payout.id, 'mark-failed', owner.token, { failureMessage: 'late' }), 422, 'invalid_state')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })

  it('emails each move to the creator’s contact email, and to the owners and admins who chose payout emails', async () => {
    const admin = await memberWithRole(t.app, owner, 'admin')
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    const contact = uniqueEmail('mira')
    const creator = await earning(['12.50'], owner.token, { name: 'Mira Vos', email: contact })
    const chosen = await call(t.app, {
      method: 'PUT',
      url: '/api/account/email-preferences',
      token: admin.token,
      body: { payout_status: true },
    })
    expect(chosen.statusCode, chosen.body).toBe(200)
    const payout = (await pay(creator.id)).json()
    await act(payout.id, 'mark-in-transit')
    await act(payout.id, 'mark-paid')
    const emails = await t.db.global
      .selectFrom('email_outbox')
      .select(['to_address', 'variables'])
      .where('kind', '=', 'payout_status')
      .where('tenant_org', '=', owner.orgId)
      .execute()
    const about = emails.filter((email) => (email.variables.payout as { id: string }).id === payout.id)
    const sent = (address: string) =>
      about
        .filter((email) => email.to_address === address)
        .map((email) => (email.variables.payout as { status: string }).status)
    expect(sent(contact)).toEqual(['pending', 'in_transit', 'paid'])
    expect(sent(admin.email)).toEqual(['pending', 'in_transit', 'paid'])
    // Owners get them once they choose to (off by default); viewers never.
    expect(sent(owner.email)).toEqual([])
    expect(sent(viewer.email)).toEqual([])
    expect(about[0]!.variables).toMatchObject({
      creator: { name: 'Mira Vos' },
      payout: { amount: '12.50', currency: payout.currency },
      link: `${t.config.publicUrl}/payouts/${payout.id}`,
    })
  })

  it('cancels a pending payout: its allocations become payable again, exactly once', async () => {
    const creator = await earning(['7.00', '0.005'])
    const first = (await pay(creator.id)).json()
    expectProblem(await pay(creator.id), 422, 'nothing_to_pay')
    const canceled = await act(first.id, 'cancel')
    expect(canceled.statusCode).toBe(200)
    expect(canceled.json()).toMatchObject({ id: first.id, status: 'canceled' })
    expect(await actions(owner.token, 1)).toEqual(['payout.canceled'])
    expectProblem(await act(first.id, 'cancel'), 422, 'invalid_state')
    const again = (await pay(creator.id)).json()
    expect(again).toMatchObject({
      amount: '7.00',
      statement: { openingBalance: '0.00', earnings: '7.005', entries: 2, carriedForward: '0.005' },
    })
    expectProblem(await pay(creator.id), 422, 'nothing_to_pay')
  })

  it('fails a payout in transit with a reason, returning its allocations', async () => {
    const creator = await earning(['3.00'])
    const payout = (await pay(creator.id)).json()
    await act(payout.id, 'mark-in-transit')
    const failed = await act(payout.id, 'mark-failed', owner.token, {
      failureCode: 'account_closed',
      failureMessage: 'The bank account was closed',
    })
    expect(failed.statusCode, failed.body).toBe(200)
    expect(failed.json()).toMatchObject({
      status: 'failed',
      failureCode: 'account_closed',
      failureMessage: 'The bank account was closed',
      paidAt: null,
    })
    expect(await actions(owner.token, 1)).toEqual(['payout.failed'])
    expect((await pay(creator.id)).json()).toMatchObject({ amount: '3.00', statement: { entries: 1 } })
    expectProblem(
      await act(payout.id, 'mark-failed', owner.token, { failureCode: 'Bad Code', failureMessage: 'x' }),
      400,
      'parameter_invalid',
    )
  })

  it('keeps the carried balance consistent when an earlier payout is canceled after a later one', async () => {
    const creator = await earning(['10.004'], owner.token, { openingBalance: '-5.00' })
    const p1 = (await pay(creator.id)).json()
    expect(p1).toMatchObject({
      amount: '5.00',
      statement: { openingBalance: '-5.00', recouped: '5.00', carriedForward: '0.004' },
    })
    await creator.earn('2.003')
    const p2 = (await pay(creator.id)).json()
    expect(p2).toMatchObject({ amount: '2.00', statement: { openingBalance: '0.004', carriedForward: '0.007' } })
    await act(p1.id, 'cancel')
    // P1's advance recoupment and earnings are undone together: the balance is the advance plus P2's carry.
    const p3 = (await pay(creator.id)).json()
    expect(p3).toMatchObject({
      amount: '5.00',
      statement: { openingBalance: '-4.997', earnings: '10.004', carriedForward: '0.007' },
    })
    // Live payouts (P2, P3) plus what is carried equal opening balance plus every allocation.
    expect(2_000_000n + 5_000_000n + 7_000n).toBe(-5_000_000n + 10_004_000n + 2_003_000n)
  })
})

describe('the sandbox rail', () => {
  it('moves a sandbox payout to in_transit and then paid on its own, as the org’s system user', async () => {
    const creator = await earning(['25.00'], sandbox.token)
    const payout = (await pay(creator.id, sandbox.token)).json()
    expect(payout).toMatchObject({ method: 'sandbox', status: 'pending' })
    expectProblem(await act(payout.id, 'mark-in-transit', sandbox.token), 422, 'invalid_state')
    expectProblem(await act(payout.id, 'mark-paid', sandbox.token), 422, 'invalid_state')
    const read = async () => (await call(t.app, { url: `/api/payouts/${payout.id}`, token: sandbox.token })).json()

    // The database is this file's alone and this is its first sandbox payout: the rail moves exactly it.
    expect(await rail.run()).toBe(0)
    expect((await read()).status).toBe('pending')
    t.clock.advance(2 * SECOND)
    expect(await rail.run()).toBe(1)
    expect((await read()).status).toBe('in_transit')
    expect(await rail.run()).toBe(0)
    expect((await read()).status).toBe('in_transit')
    t.clock.advance(2 * SECOND)
    expect(await rail.run()).toBe(1)
    const paid = await read()
    expect(paid).toMatchObject({ status: 'paid', paidAt: t.clock.now().toISOString() })

    const systemUser = await t.db.read(sandbox.orgId, (db) =>
      db.selectFrom('orgs').select('system_user_id').where('org_id', '=', sandbox.orgId).executeTakeFirstOrThrow(),
    )
    const events = (await call(t.app, { url: '/api/org-events?limit=100', token: sandbox.token })).json().data.slice(-2)
    expect(events.map((event: { action: string }) => event.action)).toEqual(['payout.in_transit', 'payout.paid'])
    expect(events.map((event: { userId: string }) => event.userId)).toEqual([
      systemUser.system_user_id,
      systemUser.system_user_id,
    ])
    expect(events[1].data).toEqual(paid)
  })

  it('leaves canceled and failed sandbox payouts, and production payouts, alone', async () => {
    const creator = await earning(['5.00'], sandbox.token)
    const canceled = (await pay(creator.id, sandbox.token)).json()
    await act(canceled.id, 'cancel', sandbox.token)
    const failed = (await pay(creator.id, sandbox.token)).json()
    await act(failed.id, 'mark-failed', sandbox.token, { failureMessage: 'Simulated failure' })
    const production = await earning(['5.00'])
    const manual = (await pay(production.id)).json()
    t.clock.advance(10 * SECOND)
    await rail.run()
    const status = async (id: string, token: string) =>
      (await call(t.app, { url: `/api/payouts/${id}`, token })).json().status
    expect([
      await status(canceled.id, sandbox.token),
      await status(failed.id, sandbox.token),
      await status(manual.id, owner.token),
    ]).toEqual(['canceled', 'failed', 'pending'])
  })
})
