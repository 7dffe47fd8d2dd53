import { createReadStream } from 'node:fs'
import { BATCH_LINES } from '../../verify.js'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RequestContext } from '../../platform/context.js'
import { call, eventCount, expectProblem, ownerWithOrg, type OrgAccount } from '../../../test/helpers.js'
import { accessToken, createClient } from '../../../test/partner-helpers.js'
import { createCreator, createEntry } from '../../../test/records-fixtures.js'
import { hex, leafOf, rfcVerifyInclusion, sha256 } from '../../../test/rfc6962.js'
import { buildWebhookTestApp, Receiver, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import { asOwner } from '../../db/sql-backend.js'
import { verifyChainAndSeals } from '../verification/index.js'

/**
 * A statement import seen from outside: a few hundred lines become a few batch events, each
 * batch's lines are listed by its id, every line's inclusion proof verifies against its batch
 * event's root with a verifier that shares no code with the service, webhook subscribers get one
 * delivery per batch, and a re-run adds nothing.
 */

const HEADER = 'isrc,territory,period_start,period_end,units,amount,currency,statement_ref,line_ref'
const LINES = 300
const BATCH = 100
let t: WebhookTestApp
let receiver: Receiver
let owner: OrgAccount
let partner: string
let dir: string
let file: string

const statementLine = (i: number) =>
  `${i % 2 ? 'GBAYE0300021' : 'USRC17607839'},${i % 3 ? 'DE' : 'WORLD'},2026-09-01,2026-09-30,${i + 1},${(i + 1) / 100},EUR,BATCH-1,${i + 1}`

function runImport() {
  return t.services.revenue.importStatement({
    orgId: owner.orgId,
    source: 'Spotify',
    batchSize: BATCH,
    input: createReadStream(file),
  })
}

beforeAll(async () => {
  t = await buildWebhookTestApp()
  receiver = await Receiver.start()
  owner = await ownerWithOrg(t.app, { environment: 'sandbox' })
  const [a, b] = [await createCreator(t.app, owner.token), await createCreator(t.app, owner.token)]
  await createEntry(t.app, owner.token, {
    kind: 'recording',
    identifiers: { isrc: 'GB-AYE-03-00021' },
    splits: [
      { creatorId: a.id, role: 'artist', shareBps: 3333 },
      { creatorId: b.id, role: 'producer', shareBps: 6667 },
    ],
  })
  await createEntry(t.app, owner.token, {
    kind: 'recording',
    identifiers: { isrc: 'USRC17607839' },
    splits: [{ creatorId: a.id, role: 'artist', shareBps: 10000 }],
  })
  const ctx: RequestContext = {
    orgId: owner.orgId,
    requestId: 'req_test',
    actor: { userId: owner.userId, kind: 'person', role: 'owner' },
  }
  await t.services.webhooks.create(ctx, { url: receiver.url(), events: ['revenue.imported', 'revenue.created'] })
  const client = await createClient(t.app, owner, ['revenue:read', 'events:read'])
  partner = await accessToken(t.app, client, 'revenue:read events:read')
  dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-batches-'))
  file = path.join(dir, 'statement.csv')
  await writeFile(file, `${[HEADER, ...Array.from({ length: LINES }, (_, i) => statementLine(i))].join('\n')}\n`)
})
afterAll(async () => {
  await receiver.close()
  await t.close()
  await rm(dir, { recursive: true, force: true })
})

/** Every page of a list: on the session surface as the owner, on the partner surface (60 requests a minute) as the client. */
async function listAll(url: string): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = []
  for (let cursor: string | null = null; ;) {
    const response = await call(t.app, {
      url: `${url}${url.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      token: url.startsWith('/v1') ? partner : owner.token,
    })
    expect(response.statusCode, response.body).toBe(200)
    const page = response.json()
    all.push(...page.data)
    cursor = page.nextCursor ?? null
    if (!page.hasMore) return all
  }
}

describe('a statement import as batch events', () => {
  it('appends one revenue.imported event per batch, lists each batch’s lines, and proves every line from the chain down', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const report = await runImport()
    expect(report).toMatchObject({ lines: LINES, imported: LINES, skipped: 0, rejected: 0 })
    expect(report.batches.map((batch) => batch.lineCount)).toEqual([BATCH - 1, BATCH, BATCH, 1])
    expect(await eventCount(t.db, owner.orgId)).toBe(before + report.batches.length)

    const events = (await listAll(`/api/org-events?action=revenue.imported`)) as {
      id: string
      resource: { type: string; id: string }
      data: { batchId: string; lineCount: number; totals: { currency: string; amount: string }[]; root: string }
    }[]
    expect(events).toHaveLength(report.batches.length)
    let proven = 0
    for (const event of events) {
      expect(event.resource).toEqual({ type: 'revenue_batch', id: event.data.batchId })
      const lines = (await listAll(`/api/revenue?batchId=${event.data.batchId}`)) as {
        id: string
        batchId: string
        amount: string
      }[]
      expect(lines).toHaveLength(event.data.lineCount)
      const cents = lines.reduce((sum, line) => sum + Math.round(Number(line.amount) * 100), 0)
      expect(event.data.totals).toEqual([{ currency: 'EUR', amount: (cents / 100).toFixed(2) }])
      for (const line of lines) {
        expect(line.batchId).toBe(event.data.batchId)
        // The partner surface for a few lines, the session surface (more requests a minute) for the rest.
        const response =
          proven % 50 === 0
            ? await call(t.app, { url: `/v1/orgs/${owner.orgId}/revenue/${line.id}/proof`, token: partner })
            : await call(t.app, { url: `/api/revenue/${line.id}/proof`, token: owner.token })
        expect(response.statusCode, response.body).toBe(200)
        const proof = response.json()
        expect(proof).toMatchObject({
          revenueId: line.id,
          batchId: event.data.batchId,
          eventId: event.id,
          treeSize: event.data.lineCount,
          root: event.data.root,
        })
        // The leaf is the line as the API serves it, and it hashes into the event's root.
        expect(JSON.parse(proof.leaf)).toEqual(line)
        const leaf = leafOf(Buffer.from(proof.leaf, 'utf8'))
        expect(rfcVerifyInclusion(proof.leafIndex, proof.treeSize, leaf, proof.auditPath, hex(event.data.root))).toBe(
          true,
        )
        expect(
          rfcVerifyInclusion(proof.leafIndex, proof.treeSize, sha256(leaf), proof.auditPath, hex(event.data.root)),
        ).toBe(false)
        proven += 1
      }
    }
    expect(proven).toBe(LINES)
    expect(await verifyChainAndSeals(t.db, owner.orgId, [], { batchLines: BATCH_LINES })).toMatchObject({
      ok: true,
      batches: { ok: true, batches: report.batches.length },
      coverage: { ok: true },
    })

    // Webhook subscribers get one delivery per batch, not one per line.
    const deliveries = await asOwner(
      t.db.backend,
      `select event_type, count(*)::int as n from webhook_deliveries where org_id = $1 group by event_type`,
      [owner.orgId],
    )
    expect(deliveries.rows).toEqual([{ event_type: 'revenue.imported', n: report.batches.length }])

    // A re-run adds nothing: no line, no event, no delivery.
    const again = await runImport()
    expect(again).toMatchObject({ imported: 0, skipped: LINES, rejected: 0, batches: [] })
    expect(await eventCount(t.db, owner.orgId)).toBe(before + report.batches.length)
  })

  it('answers the proof of a line created alone with 422 naming its own event, and unknown or foreign lines with 404', async () => {
    const created = await call(t.app, {
      method: 'POST',
      url: '/api/revenue',
      token: owner.token,
      body: {
        isrc: 'USRC17607839',
        source: 'Manual',
        type: 'sync',
        periodStart: '2026-09-01',
        periodEnd: '2026-09-30',
        territory: 'DE',
        units: 1,
        amount: '100.00',
        currency: 'EUR',
      },
    })
    expect(created.statusCode, created.body).toBe(201)
    expect(created.json().batchId).toBeNull()
    const alone = await call(t.app, {
      url: `/v1/orgs/${owner.orgId}/revenue/${created.json().id}/proof`,
      token: partner,
    })
    expectProblem(alone, 422, 'unprocessable')
    expect(alone.json().detail).toMatch(/created alone.*revenue\.created event evt_/)

    const unknown = await call(t.app, { url: `/v1/orgs/${owner.orgId}/revenue/rev_nope/proof`, token: partner })
    expectProblem(unknown, 404, 'resource_missing')

    // Another org's line is not found from this one.
    const other = await ownerWithOrg(t.app)
    const session = await call(t.app, { url: `/api/revenue/${created.json().id}/proof`, token: other.token })
    expectProblem(session, 404, 'resource_missing')
    const mine = await call(t.app, { url: `/api/revenue/${created.json().id}/proof`, token: owner.token })
    expectProblem(mine, 422, 'unprocessable')
  })

  it('refuses the proof without a token, without revenue:read, and for another org’s path', async () => {
    const some = (await listAll(`/api/revenue`)).find((record) => record.batchId !== null)!
    expect(some).toBeDefined()
    const url = `/v1/orgs/${owner.orgId}/revenue/${String(some.id)}/proof`
    expectProblem(await call(t.app, { url }), 401, 'invalid_token')
    const narrow = await createClient(t.app, owner, ['catalog:read'])
    const catalogOnly = await accessToken(t.app, narrow, 'catalog:read')
    expectProblem(await call(t.app, { url, token: catalogOnly }), 403, 'insufficient_scope')
    const stranger = await ownerWithOrg(t.app, { environment: 'sandbox' })
    const theirs = await createClient(t.app, stranger, ['revenue:read'])
    const theirToken = await accessToken(t.app, theirs, 'revenue:read')
    expectProblem(await call(t.app, { url, token: theirToken }), 404, 'resource_missing')
  })
})
