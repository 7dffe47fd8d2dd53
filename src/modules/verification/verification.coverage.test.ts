import { Readable } from 'node:stream'
import { BATCH_LINES } from '../../verify.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asOwner } from '../../db/sql-backend.js'
import { ownerWithOrg, type OrgAccount } from '../../../test/helpers.js'
import { createCreator, createEntry } from '../../../test/records-fixtures.js'
import { buildWebhookTestApp, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import { runPayouts } from '../payouts/index.js'
import { verifyChainAndSeals } from './verification.chain.js'

/**
 * What `oeuvre audit verify` holds the stored records to, beyond the chain and the seals:
 * every batch event's root against its stored lines, every record covered by an event (its
 * own, or its batch's), and `--since-seal`, which starts from the last seal a verify recorded.
 */

const HEADER = 'isrc,territory,period_start,period_end,units,amount,currency,statement_ref,line_ref'
let t: WebhookTestApp
const signers = () => [t.services.evidenceSigner]
const owner = (statement: string, params: unknown[] = []) => asOwner(t.db.backend, statement, params)

beforeAll(async () => {
  t = await buildWebhookTestApp()
})
afterAll(() => t.close())

/** An org with a recording and `lines` imported lines (in batches of 10), paid by a payout run. */
async function bookedOrg(lines = 25): Promise<OrgAccount & { creatorId: string }> {
  const org = await ownerWithOrg(t.app)
  const creator = await createCreator(t.app, org.token)
  await createEntry(t.app, org.token, {
    kind: 'recording',
    identifiers: { isrc: 'USRC17607839' },
    splits: [{ creatorId: creator.id, role: 'artist', shareBps: 10000 }],
  })
  await importLines(org, 0, lines)
  return { ...org, creatorId: creator.id }
}

async function importLines(org: OrgAccount, from: number, count: number): Promise<void> {
  const rows = Array.from(
    { length: count },
    (_, i) => `USRC17607839,DE,2026-09-01,2026-09-30,1,${from + i + 1}.00,EUR,S,${from + i}`,
  )
  const report = await t.services.revenue.importStatement({
    orgId: org.orgId,
    source: 'Spotify',
    batchSize: 10,
    input: Readable.from([`${[HEADER, ...rows].join('\n')}\n`]),
  })
  expect(report).toMatchObject({ imported: count, rejected: 0 })
}

describe('audit verify: batches and coverage', () => {
  it('passes an org whose records are all covered, its batches’ roots matching their stored lines', async () => {
    const org = await bookedOrg()
    const run = await runPayouts(t.db, t.services.payouts, { orgId: org.orgId })
    expect(run).toMatchObject({ created: 1, pagesOneByOne: 0 })
    expect(await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })).toMatchObject({
      ok: true,
      batches: { ok: true, batches: 4 },
      coverage: { ok: true, uncovered: [] },
    })
  })

  it('names a revenue entry, a creator and a payout written around the application (no event)', async () => {
    const org = await bookedOrg(3)
    await owner(
      `insert into revenue_entries (org_id, id, catalog_id, source, type, period_start, period_end, territory, units, amount_micros, currency, created_at, created_by)
       select org_id, 'rev_ROGUE', catalog_id, 'Elsewhere', 'stream', period_start, period_end, territory, 1, 5000000, 'EUR', now(), created_by
       from revenue_entries where org_id = $1 limit 1`,
      [org.orgId],
    )
    await owner(
      `insert into revenue_allocations (org_id, revenue_id, creator_id, currency, amount_micros) values ($1, 'rev_ROGUE', $2, 'EUR', 5000000)`,
      [org.orgId, org.creatorId],
    )
    await owner(
      `insert into creators (org_id, id, name, kind, roles, payout_currency, minimum_payout_micros, opening_balance_micros, created_at, created_by)
       values ($1, 'crt_ROGUE', 'Nobody', 'person', '{composer}', 'EUR', 0, 0, now(), 'usr_x')`,
      [org.orgId],
    )
    const report = await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })
    expect(report.ok).toBe(false)
    expect(report.coverage?.uncovered).toEqual(
      expect.arrayContaining([
        { table: 'creators', id: 'crt_ROGUE', reason: 'no creator.created event names it' },
        { table: 'revenue_entries', id: 'rev_ROGUE', reason: 'written alone, and no revenue.created event names it' },
      ]),
    )
    expect(report.broken?.reason).toMatch(/records the log does not cover: .*revenue_entries rev_ROGUE/)

    // A payout run's event gone: its payouts are covered by nothing (and the chain has a gap).
    expect(await runPayouts(t.db, t.services.payouts, { orgId: org.orgId })).toMatchObject({ created: 1 })
    const [payout] = (await owner(`select id from payouts where org_id = $1`, [org.orgId])).rows as { id: string }[]
    await owner(`delete from org_events where org_id = $1 and action = 'payouts.run'`, [org.orgId])
    const unpaidFor = await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })
    expect(unpaidFor.ok).toBe(false)
    expect(unpaidFor.coverage?.uncovered).toContainEqual({
      table: 'payouts',
      id: payout!.id,
      reason: 'its batch has no payouts.run event',
    })
  })

  it('names a line whose batch has no event, an allocation added to a line, and a changed line', async () => {
    const org = await bookedOrg(12)
    const [line] = (
      await owner(`select id, batch_id from revenue_entries where org_id = $1 order by id limit 1`, [org.orgId])
    ).rows as { id: string; batch_id: string }[]
    // An extra allocation: the entry's allocations no longer sum to its amount.
    const other = await createCreator(t.app, org.token)
    await owner(
      `insert into revenue_allocations (org_id, revenue_id, creator_id, currency, amount_micros) values ($1, $2, $3, 'EUR', 1)`,
      [org.orgId, line!.id, other.id],
    )
    const added = await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })
    expect(added).toMatchObject({ ok: false, batches: { ok: false } })
    expect(added.batches?.broken?.reason).toMatch(
      new RegExp(`batch ${line!.batch_id}: the root recomputed from the stored lines`),
    )
    expect(added.coverage?.uncovered).toContainEqual({
      table: 'revenue_allocations',
      id: line!.id,
      reason: 'the allocations of this entry do not sum to its amount',
    })
    await owner(`delete from revenue_allocations where org_id = $1 and creator_id = $2`, [org.orgId, other.id])
    expect(await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })).toMatchObject({
      ok: true,
    })

    // A changed territory: only the batch's root can tell.
    await owner(`update revenue_entries set territory = 'FR' where org_id = $1 and id = $2`, [org.orgId, line!.id])
    const changed = await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })
    expect(changed).toMatchObject({ ok: false, coverage: { ok: true } })
    expect(changed.broken).toMatchObject({ eventId: expect.stringMatching(/^evt_/) })
    await owner(`update revenue_entries set territory = 'DE' where org_id = $1 and id = $2`, [org.orgId, line!.id])

    // The batch's event gone: its lines are covered by nothing.
    await owner(`delete from org_events where org_id = $1 and resource_id = $2`, [org.orgId, line!.batch_id])
    const orphaned = await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })
    expect(orphaned.coverage?.uncovered).toContainEqual({
      table: 'revenue_entries',
      id: line!.id,
      reason: 'its batch has no revenue.imported event',
    })
  })
})

describe('audit verify --since-seal', () => {
  it('starts from the last seal a verify recorded, and checks what came after it', async () => {
    const org = await bookedOrg(10)
    // Without a recorded seal it walks the whole chain, and records the last seal it verified.
    const first = await t.services.evidence.sealOrg(org.orgId)
    const full = await verifyChainAndSeals(t.db, org.orgId, signers(), { sinceSeal: true, batchLines: BATCH_LINES })
    expect(full).toMatchObject({ ok: true, seals: { seals: 1, last: { sealId: first!.id } } })
    expect(full.since).toBeUndefined()

    await importLines(org, 10, 20)
    const second = await t.services.evidence.sealOrg(org.orgId)
    await importLines(org, 30, 5)
    const since = await verifyChainAndSeals(t.db, org.orgId, signers(), { sinceSeal: true, batchLines: BATCH_LINES })
    expect(since).toMatchObject({
      ok: true,
      since: { sealId: first!.id, treeSize: first!.treeSize },
      seals: { ok: true, seals: 1, last: { sealId: second!.id } },
      batches: { ok: true, batches: 4 },
    })
    expect(since.events).toBe(
      Number((await owner(`select sequence from org_event_heads where org_id = $1`, [org.orgId])).rows[0]!.sequence),
    )

    // Next time it starts from the second seal: a line changed in a batch after it is found.
    const [late] = (
      await owner(`select id from revenue_entries where org_id = $1 order by id desc limit 1`, [org.orgId])
    ).rows as { id: string }[]
    await owner(`update revenue_entries set units = 2 where org_id = $1 and id = $2`, [org.orgId, late!.id])
    const tampered = await verifyChainAndSeals(t.db, org.orgId, signers(), { sinceSeal: true, batchLines: BATCH_LINES })
    expect(tampered).toMatchObject({ ok: false, since: { sealId: second!.id }, batches: { ok: false } })
    await owner(`update revenue_entries set units = 1 where org_id = $1 and id = $2`, [org.orgId, late!.id])

    // A line under the verified seal is the seal's to vouch for: only the full walk reads it again.
    const [early] = (await owner(`select id from revenue_entries where org_id = $1 order by id limit 1`, [org.orgId]))
      .rows as { id: string }[]
    await owner(`update revenue_entries set units = 9 where org_id = $1 and id = $2`, [org.orgId, early!.id])
    expect(
      await verifyChainAndSeals(t.db, org.orgId, signers(), { sinceSeal: true, batchLines: BATCH_LINES }),
    ).toMatchObject({ ok: true })
    expect(await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })).toMatchObject({
      ok: false,
      batches: { ok: false },
    })
    await owner(`update revenue_entries set units = 1 where org_id = $1 and id = $2`, [org.orgId, early!.id])

    // The seal's last event must still be the one its signed root covers.
    await owner(`update org_events set hash = $3 where org_id = $1 and sequence = $2`, [
      org.orgId,
      second!.treeSize,
      `sha256:${'0'.repeat(64)}`,
    ])
    expect(
      await verifyChainAndSeals(t.db, org.orgId, signers(), { sinceSeal: true, batchLines: BATCH_LINES }),
    ).toMatchObject({
      ok: false,
      broken: { sequence: second!.treeSize, reason: expect.stringMatching(/root recomputed/) },
    })
  })
})
