import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../../../test/eventually.js'
import { buildTestApp, call, eventCount, ownerWithOrg, type OrgAccount, type TestApp } from '../../../test/helpers.js'
import { holdTransaction, LockObserver, onPostgres } from '../../../test/locks.js'
import { createCreator, createRevenue, createWork, revenueBody } from '../../../test/records-fixtures.js'
import { lockCreator } from '../creators/index.js'
import { uniqueViolation } from '../../shared/records/records.mount.js'

let t: TestApp
let owner: OrgAccount

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
})
afterAll(() => t.close())

const pay = (creatorId: string) =>
  call(t.app, { method: 'POST', url: '/api/payouts', token: owner.token, body: { creatorId } })

async function creatorEarning(amounts: string[]): Promise<string> {
  const { id } = await createCreator(t.app, owner.token)
  const work = await createWork(t.app, owner.token, [[id, 10000]])
  for (const amount of amounts) await createRevenue(t.app, owner.token, work.id, { amount })
  return id
}

describe('no allocation is ever paid twice', () => {
  it('answers 20 simultaneous payout requests for one creator with exactly one payout', async () => {
    const creatorId = await creatorEarning(['10.00', '5.25', '0.000001'])
    const before = await eventCount(t.db, owner.orgId)
    const responses = await Promise.all(Array.from({ length: 20 }, () => pay(creatorId)))
    const statuses = responses.map((response) => response.statusCode)
    expect(statuses.filter((status) => status === 201)).toHaveLength(1)
    expect(statuses.filter((status) => status === 422)).toHaveLength(19)
    for (const response of responses.filter((r) => r.statusCode === 422))
      expect(response.json().code).toBe('nothing_to_pay')
    const payout = responses.find((response) => response.statusCode === 201)!.json()
    expect(payout).toMatchObject({ amount: '15.25', statement: { entries: 3, carriedForward: '0.000001' } })
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
  })

  it('makes a canceled payout’s money payable again once, even under simultaneous requests', async () => {
    const creatorId = await creatorEarning(['8.00'])
    const first = (await pay(creatorId)).json()
    expect(
      (await call(t.app, { method: 'POST', url: `/api/payouts/${first.id}/cancel`, token: owner.token })).statusCode,
    ).toBe(200)
    const responses = await Promise.all(Array.from({ length: 10 }, () => pay(creatorId)))
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, ...Array<number>(9).fill(422)])
    expect(responses.find((r) => r.statusCode === 201)!.json().amount).toBe('8.00')
  })

  it('replays a payout sent twice with the same Idempotency-Key instead of computing another', async () => {
    const creatorId = await creatorEarning(['6.00'])
    const send = () =>
      call(t.app, {
        method: 'POST',
        url: '/api/payouts',
        token: owner.token,
        body: { creatorId },
        headers: { 'idempotency-key': `payout-${creatorId}` },
      })
    const first = await send()
    const second = await send()
    expect(first.statusCode).toBe(201)
    expect(second.statusCode).toBe(201)
    expect(second.headers['idempotent-replayed']).toBe('true')
    expect(second.json()).toEqual(first.json())
  })

  it('is enforced by the database: a second live claim on an allocation is a unique violation', async () => {
    const creatorId = await creatorEarning(['4.00'])
    const payout = (await pay(creatorId)).json()
    const item = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('payout_items')
        .selectAll()
        .where('org_id', '=', owner.orgId)
        .where('payout_id', '=', payout.id)
        .executeTakeFirstOrThrow(),
    )
    const claimAgain = t.db.tx({ orgId: owner.orgId }, async (tx) => {
      const copy = await tx
        .selectFrom('payouts')
        .selectAll()
        .where('org_id', '=', owner.orgId)
        .where('id', '=', payout.id)
        .executeTakeFirstOrThrow()
      await tx
        .insertInto('payouts')
        .values({ ...copy, id: 'po_01ARZ3NDEKTSV4RRFFQ69G5FAV' })
        .execute()
      await tx
        .insertInto('payout_items')
        .values({ ...item, payout_id: 'po_01ARZ3NDEKTSV4RRFFQ69G5FAV' })
        .execute()
    })
    const error = await claimAgain.then(
      () => null,
      (caught: unknown) => caught,
    )
    expect(uniqueViolation(error)).toBe('payout_items_live')
  })
})

// On PostgreSQL only (test/locks.ts): PGlite runs one transaction at a time.
if (onPostgres) {
  describe('a payout in progress', () => {
    // The payout holds its creator's row (lockCreator) until it commits; an allocation's foreign key
    // takes a key-share lock on that row. Held FOR UPDATE, every line of revenue for the creator
    // waited for the payout; FOR NO KEY UPDATE does not block it. (A payout run's page keeps
    // FOR UPDATE on purpose: payouts.batch.ts.)
    it('does not hold up revenue allocated to its creator', async () => {
      const creatorId = await creatorEarning(['3.00'])
      const work = await createWork(t.app, owner.token, [[creatorId, 10000]])
      const observer = await LockObserver.open()
      const payout = await holdTransaction(t.db, owner.orgId, (tx) => lockCreator(tx, owner.orgId, creatorId))
      try {
        let answered = false
        const line = call(t.app, {
          method: 'POST',
          url: '/api/revenue',
          token: owner.token,
          body: revenueBody(work.id, { amount: '2.00' }),
        })
        void line.then(
          () => (answered = true),
          () => (answered = true),
        )
        // Whichever comes first: the line's answer, or the line waiting behind the payout.
        await eventually(
          async () => answered || (await observer.blockedBy(payout.pid)) > 0,
          'the line answered or waiting',
          { everyMs: 5 },
        )
        expect(answered, 'the line waited for the payout').toBe(true)
        expect((await line).statusCode).toBe(201)
      } finally {
        payout.release()
        await payout.done
        await observer.close()
      }
      // Taken by the next payout, not by the one that was in progress (which never read it).
      expect((await pay(creatorId)).json()).toMatchObject({ amount: '5.00', statement: { entries: 2 } })
    })
  })
}
