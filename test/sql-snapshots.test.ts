import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase } from '../src/database.js'
import { readMigrations } from '../src/db/migrate.js'
import { runPayouts } from '../src/modules/payouts/index.js'
import { openTestBackend, recordingBackend } from './db-recording.js'
import { buildTestApp, call, ownerWithOrg, type OrgAccount, type TestApp } from './helpers.js'
import { createCreator, createEntry, revenueBody } from './records-fixtures.js'

/**
 * What the hot writes send to the database, message by message, checked in under
 * test/sql-snapshots/: a revenue create (the first on a catalog reference, which reads it, and
 * the next, which does not), a statement import's batch and a payout run's page. A change to
 * any of them fails this test until the snapshot is regenerated (`npx vitest run
 * test/sql-snapshots.test.ts -u`), so a reviewer sees it in the diff. Statements are inlined
 * (none prepared) and ids, times and hashes are replaced by placeholders.
 */

const sent: string[] = []
let t: TestApp
let owner: OrgAccount
let catalogId: string

beforeAll(async () => {
  const db = createDatabase(recordingBackend(await openTestBackend(2), sent), await readMigrations(), {
    statements: { enabled: false },
  })
  t = await buildTestApp({ db })
  owner = await ownerWithOrg(t.app)
  const [a, b] = [await createCreator(t.app, owner.token), await createCreator(t.app, owner.token)]
  const entry = await createEntry(t.app, owner.token, {
    kind: 'recording',
    identifiers: { isrc: 'USRC17607839' },
    splits: [
      { creatorId: a.id, role: 'artist', shareBps: 7000 },
      { creatorId: b.id, role: 'producer', shareBps: 3000 },
    ],
  })
  catalogId = entry.id
})
afterAll(async () => {
  await t.close()
  await t.db.close()
})

/** The messages since `from` that write or read the records (authentication, rate limits and sessions left out). */
function messagesSince(from: number): string {
  const placeholders: [RegExp, string][] = [
    [/\b(org|usr|evt|cat|crt|rev|po|bat|whd|seal)_[0-9A-HJKMNP-TV-Z]{26}\b/g, '$1_<id>'],
    [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, '<time>'],
    [/\b[0-9a-f]{64}\b/g, '<sha256>'],
    // The chain's slots and run separators (U+0001, U+0002), made visible.
    [new RegExp(String.fromCharCode(1), 'g'), '␁'],
    [new RegExp(String.fromCharCode(2), 'g'), '␂'],
  ]
  return sent
    .slice(from)
    .filter((text) => /revenue_|payout|catalog_|creators|org_events|append_org_events|idempotency_keys/.test(text))
    .map((text) => placeholders.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text))
    .join('\n\n')
    .concat('\n')
}

describe('the SQL of the hot writes', () => {
  it('a revenue create: the first on a reference reads it; the next is one round trip', async () => {
    const from = sent.length
    const first = await call(t.app, {
      method: 'POST',
      url: '/api/revenue',
      token: owner.token,
      body: revenueBody(catalogId, { statementRef: 'SNAP', lineRef: '1' }),
      headers: { 'idempotency-key': 'snapshot-1' },
    })
    expect(first.statusCode, first.body).toBe(201)
    const second = await call(t.app, {
      method: 'POST',
      url: '/api/revenue',
      token: owner.token,
      body: revenueBody(catalogId, { statementRef: 'SNAP', lineRef: '2' }),
      headers: { 'idempotency-key': 'snapshot-2' },
    })
    expect(second.statusCode, second.body).toBe(201)
    await expect(messagesSince(from)).toMatchFileSnapshot('./sql-snapshots/revenue-create.sql')
  })

  it('a statement import’s batch', async () => {
    const from = sent.length
    const lines = [1, 2, 3].map((i) => `USRC17607839,DE,2026-09-01,2026-09-30,${i},${i}.50,EUR,SNAP-IMPORT,${i}`)
    const report = await t.services.revenue.importStatement({
      orgId: owner.orgId,
      source: 'Snapshot DSP',
      input: Readable.from([
        `isrc,territory,period_start,period_end,units,amount,currency,statement_ref,line_ref\n${lines.join('\n')}\n`,
      ]),
    })
    expect(report).toMatchObject({ imported: 3, batches: [{ lineCount: 3 }] })
    await expect(messagesSince(from)).toMatchFileSnapshot('./sql-snapshots/import-batch.sql')
  })

  it('a payout run’s page', async () => {
    const from = sent.length
    const report = await runPayouts(t.db, t.services.payouts, { orgId: owner.orgId })
    expect(report).toMatchObject({ created: 2, pagesOneByOne: 0 })
    await expect(messagesSince(from)).toMatchFileSnapshot('./sql-snapshots/payout-run.sql')
  })
})
