import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../app.js'
import { loadConfig } from '../../config.js'
import { openDatabase, type Database } from '../../db/database.js'
import { ManualClock } from '../../platform/clock.js'
import { createPasswordHasher } from '../../platform/crypto.js'
import { buildTestApp, call, eventCount, ownerWithOrg, type OrgAccount, type TestApp } from '../../../test/helpers.js'
import { createCreator, createEntry } from '../../../test/records-fixtures.js'
import { openIsolatedDatabase } from '../../../test/webhook-helpers.js'
import { eventually } from '../../../test/eventually.js'
import { verifyChain } from '../audit/audit.verify.js'
import { allocate } from '../money/allocation.js'
import { parseDecimal } from '../money/decimal.js'
import { importStatement } from './revenue.import.js'

const HEADER = 'isrc,territory,period_start,period_end,units,amount,currency,statement_ref,line_ref'
const ROOT = path.resolve(import.meta.dirname, '../../..')
let t: TestApp
let owner: OrgAccount
let dir: string
let creators: { a: string; b: string; c: string }
/** A recording whose splits list its creators out of id order, one of them twice. */
let mixed: { id: string; isrc: string; shares: { creatorId: string; shareBps: number }[] }

async function statement(name: string, lines: string[]): Promise<string> {
  const file = path.join(dir, name)
  await writeFile(file, `${[HEADER, ...lines].join('\n')}\n`)
  return file
}

beforeAll(async () => {
  t = await buildTestApp()
  dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-import-'))
  owner = await ownerWithOrg(t.app)
  creators = {
    a: (await createCreator(t.app, owner.token, { name: 'A' })).id,
    b: (await createCreator(t.app, owner.token, { name: 'B' })).id,
    c: (await createCreator(t.app, owner.token, { name: 'C' })).id,
  }
  await createEntry(t.app, owner.token, {
    kind: 'recording',
    title: 'Trio',
    identifiers: { isrc: 'GB-AYE-03-00021' },
    splits: [
      { creatorId: creators.a, role: 'artist', shareBps: 3333 },
      { creatorId: creators.b, role: 'artist', shareBps: 3333 },
      { creatorId: creators.c, role: 'producer', shareBps: 3334 },
    ],
  })
  await createEntry(t.app, owner.token, {
    kind: 'recording',
    title: 'Solo',
    identifiers: { isrc: 'USRC17607839' },
    splits: [{ creatorId: creators.a, role: 'artist', shareBps: 10000 }],
  })
  const shares = [
    { creatorId: creators.c, shareBps: 1 },
    { creatorId: creators.a, shareBps: 4999 },
    { creatorId: creators.c, shareBps: 2500 },
    { creatorId: creators.b, shareBps: 2500 },
  ]
  const entry = await createEntry(t.app, owner.token, {
    kind: 'recording',
    title: 'Mixed',
    identifiers: { isrc: 'FRZ039800212' },
    splits: shares.map((share, index) => ({ ...share, role: index === 2 ? 'lyricist' : 'composer' })),
  })
  mixed = { id: entry.id, isrc: 'FRZ039800212', shares }
})

/** The org's revenue entries from one source, with their allocations, and its revenue.created events for them. */
async function booked(source: string) {
  const entries = await t.db.read(owner.orgId, (db) =>
    db
      .selectFrom('revenue_entries')
      .selectAll()
      .where('org_id', '=', owner.orgId)
      .where('source', '=', source)
      .orderBy('id')
      .execute(),
  )
  const allocations = await t.db.read(owner.orgId, (db) =>
    db
      .selectFrom('revenue_allocations')
      .selectAll()
      .where('org_id', '=', owner.orgId)
      .where('revenue_id', 'in', entries.map((entry) => entry.id).concat(['none']))
      .orderBy('creator_id')
      .execute(),
  )
  const events = await t.db.read(owner.orgId, (db) =>
    db
      .selectFrom('org_events')
      .select(['resource_id', 'data'])
      .where('org_id', '=', owner.orgId)
      .where('action', '=', 'revenue.created')
      .where(sql<string>`data::jsonb->>'source'`, '=', source)
      .execute(),
  )
  // The stored data is JSON text (the canonical text that was hashed).
  return {
    entries,
    allocations,
    events: events.map((event) => ({ ...event, data: JSON.parse(event.data) as unknown })),
  }
}

const line = (isrc: string, ref: string, lineRef: string | number, amount = '1.00', territory = 'DE') =>
  `${isrc},${territory},2026-09-01,2026-09-30,7,${amount},EUR,${ref},${lineRef}`
afterAll(async () => {
  await t.close()
  await rm(dir, { recursive: true, force: true })
})

describe('revenue import', () => {
  it('books matched lines with exact allocations and one revenue.created each; a re-run adds nothing', async () => {
    const file = await statement('spotify-2026-09.csv', [
      'GBAYE0300021,DE,2026-09-01,2026-09-30,1000,0.000010,EUR,S-1,1',
      'USRC17607839,WORLD,2026-09-01,2026-09-30,12,123.456789,EUR,S-1,2',
      'gb-aye-03-00021,FR,2026-09-01,2026-09-30,-5,-0.02,EUR,S-1,3',
    ])
    const before = await eventCount(t.db, owner.orgId)
    const first = await importStatement(t.services, { orgId: owner.orgId, file, batchSize: 2 })
    expect(first).toMatchObject({ source: 'spotify-2026-09.csv', lines: 3, imported: 3, skipped: 0, rejected: 0 })
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 3)

    const listed = await call(t.app, { url: '/api/revenue?limit=10', token: owner.token })
    const byLine = new Map(listed.json().data.map((r: { lineRef: string }) => [r.lineRef, r]))
    expect(byLine.get('1')).toMatchObject({
      source: 'spotify-2026-09.csv',
      amount: '0.00001',
      territory: 'DE',
      units: 1000,
      statementRef: 'S-1',
      allocations: expect.arrayContaining([
        { creatorId: creators.a, amount: '0.000003' },
        { creatorId: creators.b, amount: '0.000003' },
        { creatorId: creators.c, amount: '0.000004' },
      ]),
    })
    expect(byLine.get('2')).toMatchObject({
      amount: '123.456789',
      territory: 'WORLD',
      allocations: [{ creatorId: creators.a, amount: '123.456789' }],
    })
    expect(byLine.get('3')).toMatchObject({ amount: '-0.02', units: -5 })
    const events = await t.services.audit.list(owner.orgId, { action: 'revenue.created', limit: 100 })
    const logged = events.data.filter((event) => (event.data as { source: string }).source === 'spotify-2026-09.csv')
    expect(logged.map((event) => event.data)).toEqual(expect.arrayContaining([...byLine.values()]))
    expect(logged).toHaveLength(3)
    expect(await verifyChain(t.db, owner.orgId)).toMatchObject({ ok: true, events: before + 3 })

    const again = await importStatement(t.services, { orgId: owner.orgId, file })
    expect(again).toMatchObject({ lines: 3, imported: 0, skipped: 3, rejected: 0 })
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 3)
  })

  it('rejects unknown ISRCs and invalid lines with their line numbers, and books the rest', async () => {
    const file = await statement('bad.csv', [
      'GBAYE0300021,DE,2026-09-01,2026-09-30,1,1.00,EUR,B-1,1',
      'ZZZZZ9999999,DE,2026-09-01,2026-09-30,1,1.00,EUR,B-1,2',
      'GBAYE0300021,XX,2026-09-01,2026-09-30,1,1.00,EUR,B-1,3',
      'GBAYE0300021,DE,2026-09-01,2026-09-30,1,1.0000001,EUR,B-1,4',
      'GBAYE0300021,DE,2026-09-31,2026-09-30,1,1.00,EUR,B-1,5',
      'GBAYE0300021,DE,2026-09-01,2026-09-30,1,1.00,EUR,B-1,',
      'GBAYE0300021,DE,2026-09-01,2026-09-30,1,0,EUR,B-1,7',
      'GBAYE0300021,DE,2026-09-01,2026-09-30,1,2.00,EUR,B-1,1',
    ])
    const before = await eventCount(t.db, owner.orgId)
    const report = await importStatement(t.services, { orgId: owner.orgId, file, source: 'Spotify' })
    expect(report).toMatchObject({ source: 'Spotify', lines: 8, imported: 1, skipped: 1, rejected: 6 })
    const reasons = new Map(report.rejections.map((r) => [r.line, r.reason]))
    expect([...reasons.keys()].sort()).toEqual([3, 4, 5, 6, 7, 8])
    expect(reasons.get(3)).toMatch(/ZZZZZ9999999 does not name an active catalog entry/)
    expect(reasons.get(4)).toMatch(/territory XX/)
    expect(reasons.get(6)).toMatch(/period/)
    expect(reasons.get(7)).toMatch(/line_ref is empty/)
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
  })

  it('sorts a batch mixing new, already recorded and rejected lines', async () => {
    const api = await call(t.app, {
      method: 'POST',
      url: '/api/revenue',
      token: owner.token,
      body: {
        isrc: 'USRC17607839',
        source: 'mix.csv',
        type: 'stream',
        periodStart: '2026-09-01',
        periodEnd: '2026-09-30',
        territory: 'DE',
        units: 7,
        amount: '1.00',
        currency: 'EUR',
        statementRef: 'M-1',
        lineRef: '2',
      },
    })
    expect(api.statusCode, api.body).toBe(201)
    const file = await statement('mix.csv', [
      line('USRC17607839', 'M-1', 1),
      line('USRC17607839', 'M-1', 2),
      line('ZZZZZ9999999', 'M-1', 3),
      line('GBAYE0300021', 'M-1', 4, '2.50'),
      line('GBAYE0300021', 'M-1', 5, 'abc'),
    ])
    const report = await importStatement(t.services, { orgId: owner.orgId, file, batchSize: 10 })
    expect(report).toMatchObject({ lines: 5, imported: 2, skipped: 1, rejected: 2 })
    expect(report.rejections.map((r) => r.line)).toEqual([4, 6])
    const { entries, events } = await booked('mix.csv')
    expect(entries.map((entry) => entry.line_ref).sort()).toEqual(['1', '2', '4'])
    expect(entries.find((entry) => entry.line_ref === '2')?.id).toBe(api.json().id)
    expect(events.map((event) => event.resource_id).sort()).toEqual(entries.map((entry) => entry.id).sort())
  })

  it('books a line the file repeats once, within a batch and across batches (the plain insert fails, the batch is booked again skipping it)', async () => {
    const file = await statement('twice.csv', [
      line('USRC17607839', 'T-1', 1),
      line('USRC17607839', 'T-1', 2),
      line('USRC17607839', 'T-1', 1, '9.99'),
      line('GBAYE0300021', 'T-1', 3),
      line('GBAYE0300021', 'T-1', 4),
      line('USRC17607839', 'T-1', 2, '9.99'),
      line('GBAYE0300021', 'T-1', 5),
    ])
    // Batches of three: [1, 2, 1] repeats within itself; [3, 4, 2] repeats a line of the first batch, after lines were new (no look-up made).
    const report = await importStatement(t.services, { orgId: owner.orgId, file, batchSize: 3 })
    expect(report).toMatchObject({ lines: 7, imported: 5, skipped: 2, rejected: 0 })
    const { entries, allocations, events } = await booked('twice.csv')
    expect(entries.map((entry) => entry.line_ref).sort()).toEqual(['1', '2', '3', '4', '5'])
    // The first occurrence is the one booked, with its allocations once.
    expect(entries.map((entry) => Number(entry.amount_micros))).toEqual(entries.map(() => 1_000_000))
    for (const entry of entries) {
      const parts = allocations.filter((allocation) => allocation.revenue_id === entry.id)
      expect(parts.reduce((sum, part) => sum + Number(part.amount_micros), 0)).toBe(1_000_000)
    }
    expect(events.map((event) => event.resource_id).sort()).toEqual(entries.map((entry) => entry.id).sort())
    expect(await verifyChain(t.db, owner.orgId)).toMatchObject({ ok: true })
  })

  it('resumes a half-imported statement across batches, whichever half came first', async () => {
    const all = Array.from({ length: 12 }, (_, i) => line('GBAYE0300021', 'H-1', i + 1, `0.0${i + 1}`))
    // The first half recorded: the look-up before booking finds the recorded batches.
    await importStatement(t.services, {
      orgId: owner.orgId,
      file: await statement('halves.csv', all.slice(0, 6)),
      batchSize: 3,
    })
    const first = await importStatement(t.services, {
      orgId: owner.orgId,
      file: await statement('halves.csv', all),
      batchSize: 3,
    })
    expect(first).toMatchObject({ lines: 12, imported: 6, skipped: 6, rejected: 0 })
    // The second half recorded: new batches stop the look-ups, the insert's conflict handling skips the rest.
    const later = all.map((text) => text.replace('H-1', 'H-2'))
    await importStatement(t.services, {
      orgId: owner.orgId,
      file: await statement('halves2.csv', later.slice(6)),
      batchSize: 3,
      source: 'halves.csv',
    })
    const second = await importStatement(t.services, {
      orgId: owner.orgId,
      file: await statement('halves2.csv', later),
      batchSize: 3,
      source: 'halves.csv',
    })
    expect(second).toMatchObject({ lines: 12, imported: 6, skipped: 6, rejected: 0 })
    const { entries, events } = await booked('halves.csv')
    expect(entries).toHaveLength(24)
    expect(events).toHaveLength(24)
    expect(await verifyChain(t.db, owner.orgId)).toMatchObject({ ok: true })
  })

  it('chains every event of a batch longer than one append run, in file order', async () => {
    const file = await statement(
      'long.csv',
      Array.from({ length: 620 }, (_, i) => line('USRC17607839', 'L-1', i + 1, `0.${String(i + 1).padStart(6, '0')}`)),
    )
    expect(await importStatement(t.services, { orgId: owner.orgId, file, batchSize: 620 })).toMatchObject({
      imported: 620,
      rejected: 0,
    })
    const events = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('org_events')
        .select(sql<string>`data::jsonb->>'lineRef'`.as('line_ref'))
        .where('org_id', '=', owner.orgId)
        .where(sql<string>`data::jsonb->>'source'`, '=', 'long.csv')
        .orderBy('sequence')
        .execute(),
    )
    expect(events.map((event) => Number(event.line_ref))).toEqual(Array.from({ length: 620 }, (_, i) => i + 1))
    expect(await verifyChain(t.db, owner.orgId)).toMatchObject({ ok: true })
  })

  it('books each line once when the API creates the same lines during the import', async () => {
    const refs = Array.from({ length: 24 }, (_, i) => String(i + 1))
    const file = await statement(
      'race.csv',
      refs.map((ref) => line('USRC17607839', 'R-1', ref)),
    )
    const [report, responses] = await Promise.all([
      importStatement(t.services, { orgId: owner.orgId, file, batchSize: 4 }),
      Promise.all(
        refs.map((lineRef) =>
          call(t.app, {
            method: 'POST',
            url: '/api/revenue',
            token: owner.token,
            body: {
              isrc: 'USRC17607839',
              source: 'race.csv',
              type: 'stream',
              periodStart: '2026-09-01',
              periodEnd: '2026-09-30',
              territory: 'DE',
              units: 7,
              amount: '1.00',
              currency: 'EUR',
              statementRef: 'R-1',
              lineRef,
            },
          }),
        ),
      ),
    ])
    const created = responses.filter((response) => response.statusCode === 201).length
    expect(
      responses.every(
        (response) =>
          response.statusCode === 201 || (response.statusCode === 409 && response.json().code === 'conflict'),
      ),
    ).toBe(true)
    expect(report).toMatchObject({ lines: 24, imported: 24 - created, skipped: created, rejected: 0 })
    const { entries, events } = await booked('race.csv')
    expect(entries.map((entry) => entry.line_ref).sort()).toEqual([...refs].sort())
    expect(events.map((event) => event.resource_id).sort()).toEqual(entries.map((entry) => entry.id).sort())
    expect(await verifyChain(t.db, owner.orgId)).toMatchObject({ ok: true })
  })

  it('books a batch again when PostgreSQL breaks a deadlock with another writer of its lines', async () => {
    const entry = (source: string, lineRef: string) => ({
      org_id: owner.orgId,
      id: t.services.ids.next('revenue'),
      catalog_id: mixed.id,
      event_id: null,
      source,
      type: 'stream' as const,
      period_start: '2026-09-01',
      period_end: '2026-09-30',
      territory: 'DE',
      units: 7n,
      amount_micros: 1_000_000n,
      currency: 'EUR',
      statement_ref: 'D',
      line_ref: lineRef,
      reverses: null,
      created_at: t.clock.now(),
      created_by: owner.userId,
    })
    const file = (source: string) => statement(source, [line(mixed.isrc, 'D', 'a'), line(mixed.isrc, 'D', 'b')])

    if (t.db.kind === 'pglite') {
      // One connection: the writer simply finishes first, and the import skips its lines.
      let importing: Promise<unknown> = Promise.resolve()
      await t.db.tx({ orgId: owner.orgId }, async (tx) => {
        await tx.insertInto('revenue_entries').values(entry('deadlock.csv', 'b')).execute()
        importing = importStatement(t.services, { orgId: owner.orgId, file: await file('deadlock.csv') })
        await tx.insertInto('revenue_entries').values(entry('deadlock.csv', 'a')).execute()
      })
      expect(await importing).toMatchObject({ imported: 0, skipped: 2, rejected: 0 })
      expect((await booked('deadlock.csv')).events).toHaveLength(0)
      return
    }

    // Another writer takes line b; the import takes a and waits for b; the writer then wants a.
    // Each waiter looks for a deadlock once, deadlock_timeout (1 s) after it began to wait, and the
    // one that finds the cycle fails. The writer is a superuser session whose own deadlock_timeout
    // is longer, so the import looks first as long as the writer starts waiting within the
    // import's second; on a machine that stalls the writer longer than that, PostgreSQL fails the
    // writer instead, and the scenario runs again with new lines.
    const insert = (row: Record<string, unknown>) => {
      const columns = Object.keys(row)
      return `insert into revenue_entries (${columns.join(', ')}) values (${columns.map((_, index) => `$${index + 1}`).join(', ')})`
    }
    let outcome: { source: string; report: unknown } | undefined
    for (let attempt = 1; attempt <= 3 && outcome === undefined; attempt += 1) {
      const source = `deadlock-${attempt}.csv`
      const writer = await t.db.backend.acquireOwner()
      try {
        await writer.simple(`begin; set local deadlock_timeout = '5s'`)
        const { rows } = await writer.query('select pg_backend_pid() as pid', [])
        const b = entry(source, 'b')
        await writer.query(insert(b), Object.values(b))
        const importing = importStatement(t.services, { orgId: owner.orgId, file: await file(source) })
        const importBlocked = async () => {
          const waiting = await t.db.read(owner.orgId, (db) =>
            sql<{
              n: number
            }>`select count(*)::int as n from pg_stat_activity where ${Number(rows[0]?.pid ?? 0)}::int = any(pg_blocking_pids(pid))`.execute(
              db,
            ),
          )
          return (waiting.rows[0]?.n ?? 0) > 0
        }
        await eventually(importBlocked, 'the import to wait for line b', { everyMs: 1 })
        const a = entry(source, 'a')
        const writerFailed = await writer.query(insert(a), Object.values(a)).then(
          () => false,
          (error: { code?: string }) => {
            if (error.code !== '40P01') throw error
            return true
          },
        )
        await writer.simple(writerFailed ? 'rollback' : 'commit')
        const report = await importing
        if (!writerFailed) outcome = { source, report }
      } catch (error) {
        await writer.simple('rollback').catch(() => undefined)
        throw error
      } finally {
        writer.release()
      }
    }
    // The writer committed both lines, so the import was the victim, began its batch again and found both booked.
    expect(outcome?.report).toMatchObject({ imported: 0, skipped: 2, rejected: 0 })
    const { entries, events } = await booked(outcome?.source ?? '')
    expect(entries.map((row) => row.line_ref).sort()).toEqual(['a', 'b'])
    expect(events).toHaveLength(0)
  })

  it('records the same allocations and event data as POST /api/revenue for the same line', async () => {
    const amounts = ['0.000001', '0.000010', '-7.777777', '123456.789011', '3']
    for (const [index, amount] of amounts.entries()) {
      const response = await call(t.app, {
        method: 'POST',
        url: '/api/revenue',
        token: owner.token,
        body: {
          isrc: mixed.isrc,
          source: 'same-api',
          type: 'stream',
          periodStart: '2026-09-01',
          periodEnd: '2026-09-30',
          territory: 'FR',
          units: 7,
          amount,
          currency: 'EUR',
          statementRef: 'S',
          lineRef: String(index),
        },
      })
      expect(response.statusCode, response.body).toBe(201)
    }
    const file = await statement(
      'same.csv',
      amounts.map((amount, index) => line(mixed.isrc, 'S', index, amount, 'FR')),
    )
    expect(await importStatement(t.services, { orgId: owner.orgId, file, source: 'same-import' })).toMatchObject({
      imported: 5,
    })
    // What may differ: the record's id, source, time and author.
    const comparable = (data: unknown) => {
      const {
        id: _id,
        source: _source,
        createdAt: _createdAt,
        createdBy: _createdBy,
        ...rest
      } = data as Record<string, unknown>
      return rest
    }
    const viaApi = (await booked('same-api')).events.map((event) => comparable(event.data))
    const viaImport = (await booked('same-import')).events.map((event) => comparable(event.data))
    const byLine = (list: Record<string, unknown>[]) =>
      [...list].sort((x, y) => String(x.lineRef).localeCompare(String(y.lineRef)))
    expect(byLine(viaImport)).toEqual(byLine(viaApi))
    expect(viaImport[0]).toMatchObject({ catalogId: mixed.id, allocations: expect.any(Array) })
  })

  it('allocates every imported amount exactly (largest remainder, summing to the amount)', async () => {
    const amount = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 1n, max: 999_999_999_999_999_999n }))
      .map(
        ([negative, micros]) =>
          `${negative ? '-' : ''}${micros / 1_000_000n}.${String(micros % 1_000_000n).padStart(6, '0')}`,
      )
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(amount, { minLength: 1, maxLength: 25 }), async (amounts) => {
        run += 1
        const source = `property-${run}`
        const file = await statement(
          `${source}.csv`,
          amounts.map((text, index) => line(mixed.isrc, 'P', index, text)),
        )
        expect(await importStatement(t.services, { orgId: owner.orgId, file, batchSize: 7 })).toMatchObject({
          imported: amounts.length,
          rejected: 0,
        })
        const { entries, allocations } = await booked(`${source}.csv`)
        for (const entry of entries) {
          const parts = allocations.filter((part) => part.revenue_id === entry.id)
          const expected = allocate(entry.amount_micros, mixed.shares).sort((x, y) =>
            x.creatorId < y.creatorId ? -1 : 1,
          )
          expect(parts.map((part) => ({ creatorId: part.creator_id, amount: part.amount_micros }))).toEqual(expected)
          expect(parts.reduce((sum, part) => sum + part.amount_micros, 0n)).toBe(entry.amount_micros)
          const written = parseDecimal(amounts[Number(entry.line_ref)] ?? '')
          expect(written.ok && written.micros).toBe(entry.amount_micros)
        }
      }),
      { numRuns: 6 },
    )
  })

  it('numbers lines as the file does (quoted line breaks, blank lines, CRLF) and stops at a broken quote', async () => {
    const rows = [
      HEADER,
      line('GBAYE0300021', 'Q-1', '"two\nlines"'),
      '',
      line('GBAYE0300021', 'Q-1', 2, '0'),
      line('GBAYE0300021', 'Q-1', 3, '"1.50"'),
      line('GBAYE0300021', 'Q-1', 4, '1.00', 'SE'),
    ]
    const file = path.join(dir, 'quoted.csv')
    await writeFile(file, `${rows.join('\r\n')}\r\n`)
    const report = await importStatement(t.services, { orgId: owner.orgId, file })
    expect(report).toMatchObject({ lines: 4, imported: 3, rejected: 1 })
    expect(report.rejections).toEqual([{ line: 5, reason: expect.stringMatching(/amount must not be zero/) }])
    expect((await booked('quoted.csv')).entries.map((entry) => entry.line_ref).sort()).toEqual(['3', '4', 'two\nlines'])

    const broken = await statement('broken.csv', [
      line('GBAYE0300021', 'Q-2', 1),
      line('GBAYE0300021', 'Q-2', '"2"x'),
      line('GBAYE0300021', 'Q-2', 3),
    ])
    await expect(importStatement(t.services, { orgId: owner.orgId, file: broken })).rejects.toThrow(
      /line 3: malformed CSV/,
    )
    expect((await booked('broken.csv')).entries.map((entry) => entry.line_ref)).toEqual(['1'])
  })

  it('books lines on the entry active when they are imported, after a correction supersedes one', async () => {
    const isrc = 'DEA123456789'
    const original = await createEntry(t.app, owner.token, {
      kind: 'recording',
      identifiers: { isrc },
      splits: [{ creatorId: creators.a, role: 'artist', shareBps: 10000 }],
    })
    await importStatement(t.services, {
      orgId: owner.orgId,
      file: await statement('corrected.csv', [line(isrc, 'C-1', 1, '1.00')]),
    })
    const fixed = await createEntry(t.app, owner.token, {
      kind: 'recording',
      identifiers: { isrc },
      supersedes: original.id,
      splits: [
        { creatorId: creators.b, role: 'artist', shareBps: 5000 },
        { creatorId: creators.c, role: 'producer', shareBps: 5000 },
      ],
    })
    await importStatement(t.services, {
      orgId: owner.orgId,
      file: await statement('corrected.csv', [line(isrc, 'C-1', 1, '1.00'), line(isrc, 'C-1', 2, '1.00')]),
    })
    const { entries, allocations } = await booked('corrected.csv')
    expect(entries.map((entry) => [entry.line_ref, entry.catalog_id])).toEqual([
      ['1', original.id],
      ['2', fixed.id],
    ])
    expect(allocations.filter((part) => part.revenue_id === entries[1]?.id).map((part) => part.creator_id)).toEqual(
      [creators.b, creators.c].sort(),
    )
  })

  it('refuses a statement without the required columns, and an unknown org', async () => {
    const file = path.join(dir, 'headless.csv')
    await writeFile(file, 'isrc,amount\nGBAYE0300021,1.00\n')
    await expect(importStatement(t.services, { orgId: owner.orgId, file })).rejects.toThrow(
      /no territory, period_start/,
    )
    const good = await statement('good.csv', [])
    await expect(importStatement(t.services, { orgId: t.services.ids.next('org'), file: good })).rejects.toThrow(
      /does not exist/,
    )
  })
})

describe('oeuvre revenue import (CLI)', () => {
  it('prints the summary and adds nothing on a second run', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-import-cli-'))
    const isolated = process.env.OEUVRE_TEST_DATABASE_URL ? await openIsolatedDatabase() : null
    const db: Database = isolated?.db ?? (await openDatabase({ databaseUrl: null, dataDir }))
    try {
      const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false', DATA_DIR: dataDir })
      const { app } = await buildApp({
        config,
        db,
        clock: new ManualClock(),
        logger: false,
        passwords: createPasswordHasher({ fast: true }),
      })
      const boss = await ownerWithOrg(app)
      const creator = await createCreator(app, boss.token)
      await createEntry(app, boss.token, {
        kind: 'recording',
        identifiers: { isrc: 'USRC17607839' },
        splits: [{ creatorId: creator.id, role: 'artist', shareBps: 10000 }],
      })
      await app.close()
      if (!isolated) await db.close()
      const file = await statement('cli.csv', [
        'USRC17607839,DE,2026-09-01,2026-09-30,3,0.003,EUR,C-1,1',
        'NOPE,DE,2026-09-01,2026-09-30,3,0.003,EUR,C-1,2',
      ])
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: 'false' }
      delete env.DATABASE_URL
      if (isolated?.url) env.DATABASE_URL = isolated.url
      const cli = () =>
        promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', 'src/main.ts', 'revenue', 'import', file, '--org', boss.orgId],
          { cwd: ROOT, env },
        )
      const first = await cli()
      expect(first.stdout).toBe('imported 1, skipped 0 (already present), rejected 1\n')
      expect(first.stderr).toMatch(/line 3: isrc "NOPE" is not a valid ISRC/)
      const second = await cli()
      expect(second.stdout).toBe('imported 0, skipped 1 (already present), rejected 1\n')
    } finally {
      if (isolated) {
        await db.close()
        await isolated.drop()
      }
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 180_000)
})
