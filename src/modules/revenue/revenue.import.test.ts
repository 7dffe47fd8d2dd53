import { execFile } from 'node:child_process'
import { BATCH_LINES } from '../../verify.js'
import { createReadStream } from 'node:fs'
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../app.js'
import { loadConfig } from '../../config.js'
import { openDatabase, type Database } from '../../database.js'
import { ManualClock } from '../../platform/clock.js'
import { createPasswordHasher } from '../../platform/crypto.js'
import { buildTestApp, call, eventCount, ownerWithOrg, type OrgAccount, type TestApp } from '../../../test/helpers.js'
import { createCreator, createEntry } from '../../../test/records-fixtures.js'
import { openIsolatedDatabase } from '../../../test/webhook-helpers.js'
import { eventually } from '../../../test/eventually.js'
import { checkBatches } from '../verification/index.js'
import { verifyChain } from '../verification/index.js'
import { batchEventData } from '../../shared/merkle/merkle.batch.js'
import { allocate } from '../../shared/money/money.allocation.js'
import { parseDecimal } from '../../shared/money/money.decimal.js'
import type { ImportOptions } from './revenue.import.js'

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

/**
 * The org's revenue entries from one source, with their allocations, the revenue.imported
 * events of their batches and the revenue.created events of those written alone.
 */
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
  const batchIds = [...new Set(entries.flatMap((entry) => (entry.batch_id ? [entry.batch_id] : [])))]
  const eventsOf = (action: string, ids: string[]) =>
    t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('org_events')
        .select(['id', 'resource_id', 'data'])
        .where('org_id', '=', owner.orgId)
        .where('action', '=', action)
        .where('resource_id', 'in', ids.concat(['none']))
        .execute(),
    )
  const batches = await eventsOf('revenue.imported', batchIds)
  const created = await eventsOf(
    'revenue.created',
    entries.filter((entry) => entry.batch_id === null).map((entry) => entry.id),
  )
  // The stored data is JSON text (the canonical text that was hashed).
  const parsed = (events: typeof batches) =>
    events.map((event) => ({ ...event, data: JSON.parse(event.data) as unknown }))
  return { entries, allocations, batches: parsed(batches), created: parsed(created) }
}

/**
 * Every line of `source` is covered by exactly one event: its batch's revenue.imported (whose
 * root, count and totals its batch's stored lines give), or its own revenue.created.
 */
async function expectCovered(source: string): Promise<void> {
  const { entries, batches, created } = await booked(source)
  for (const entry of entries) {
    if (entry.batch_id) expect(batches.filter((event) => event.resource_id === entry.batch_id)).toHaveLength(1)
    else expect(created.filter((event) => event.resource_id === entry.id)).toHaveLength(1)
  }
  const checked = await checkBatches(t.db, owner.orgId, BATCH_LINES)
  expect(checked.broken?.reason ?? 'ok').toBe('ok')
}

/** Imports the statement in `file` (streamed, as the CLI does) from `source`, by default the file's name. */
function runImport(file: string, options: Partial<Omit<ImportOptions, 'input'>> = {}) {
  return t.services.revenue.importStatement({
    orgId: owner.orgId,
    source: path.basename(file),
    ...options,
    input: createReadStream(file),
  })
}

const line = (isrc: string, ref: string, lineRef: string | number, amount = '1.00', territory = 'DE') =>
  `${isrc},${territory},2026-09-01,2026-09-30,7,${amount},EUR,${ref},${lineRef}`
afterAll(async () => {
  await t.close()
  await rm(dir, { recursive: true, force: true })
})

describe('revenue import', () => {
  it('books matched lines with exact allocations under one revenue.imported per batch; a re-run adds nothing', async () => {
    const file = await statement('spotify-2026-09.csv', [
      'GBAYE0300021,DE,2026-09-01,2026-09-30,1000,0.000010,EUR,S-1,1',
      'USRC17607839,WORLD,2026-09-01,2026-09-30,12,123.456789,EUR,S-1,2',
      'gb-aye-03-00021,FR,2026-09-01,2026-09-30,-5,-0.02,EUR,S-1,3',
    ])
    const before = await eventCount(t.db, owner.orgId)
    const first = await runImport(file, { batchSize: 2 })
    expect(first).toMatchObject({ source: 'spotify-2026-09.csv', lines: 3, imported: 3, skipped: 0, rejected: 0 })
    // One event per batch (a batch is about batchSize lines: what the CSV reader had in hand), not per line.
    expect(first.batches.reduce((sum, batch) => sum + batch.lineCount, 0)).toBe(3)
    expect(await eventCount(t.db, owner.orgId)).toBe(before + first.batches.length)

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
    // Each batch's event: its line count, totals and the root of its lines as the API lists them.
    const { batches } = await booked('spotify-2026-09.csv')
    for (const { batchId } of first.batches) {
      const lines = [...byLine.values()] as { id: string; batchId: string; amount: string; currency: string }[]
      const mine = lines.filter((record) => record.batchId === batchId)
      const expected = batchEventData(
        batchId,
        mine.map((record) => ({
          id: record.id,
          currency: record.currency,
          amount: (parseDecimal(record.amount) as { micros: bigint }).micros,
          record,
        })),
      )
      expect(batches.filter((event) => event.resource_id === batchId).map((event) => event.data)).toEqual([expected])
    }
    expect(await verifyChain(t.db, owner.orgId)).toMatchObject({ ok: true, events: before + first.batches.length })

    const again = await runImport(file)
    expect(again).toMatchObject({ lines: 3, imported: 0, skipped: 3, rejected: 0, batches: [] })
    expect(await eventCount(t.db, owner.orgId)).toBe(before + first.batches.length)
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
    const report = await runImport(file, { source: 'Spotify' })
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
    const report = await runImport(file, { batchSize: 10 })
    expect(report).toMatchObject({ lines: 5, imported: 2, skipped: 1, rejected: 2 })
    expect(report.rejections.map((r) => r.line)).toEqual([4, 6])
    const { entries } = await booked('mix.csv')
    expect(entries.map((entry) => entry.line_ref).sort()).toEqual(['1', '2', '4'])
    expect(entries.find((entry) => entry.line_ref === '2')?.id).toBe(api.json().id)
    await expectCovered('mix.csv')
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
    const report = await runImport(file, { batchSize: 3 })
    expect(report).toMatchObject({ lines: 7, imported: 5, skipped: 2, rejected: 0 })
    const { entries, allocations } = await booked('twice.csv')
    expect(entries.map((entry) => entry.line_ref).sort()).toEqual(['1', '2', '3', '4', '5'])
    // One occurrence is booked, with its allocations once: within a batch the first; across
    // batches on PostgreSQL (two written at once) the one whose batch commits first.
    const amountOf = (ref: string) => Number(entries.find((entry) => entry.line_ref === ref)?.amount_micros)
    expect(amountOf('1')).toBe(1_000_000)
    expect([1_000_000, 9_990_000]).toContain(amountOf('2'))
    if (t.db.kind === 'pglite') expect(amountOf('2')).toBe(1_000_000)
    for (const entry of entries) {
      const parts = allocations.filter((allocation) => allocation.revenue_id === entry.id)
      expect(parts.reduce((sum, part) => sum + part.amount_micros, 0n)).toBe(entry.amount_micros)
    }
    await expectCovered('twice.csv')
    expect(await verifyChain(t.db, owner.orgId)).toMatchObject({ ok: true })
  })

  it('resumes a half-imported statement across batches, whichever half came first', async () => {
    const all = Array.from({ length: 12 }, (_, i) => line('GBAYE0300021', 'H-1', i + 1, `0.0${i + 1}`))
    // The first half recorded: the look-up before booking finds the recorded batches.
    await runImport(await statement('halves.csv', all.slice(0, 6)), { batchSize: 3 })
    const first = await runImport(await statement('halves.csv', all), { batchSize: 3 })
    expect(first).toMatchObject({ lines: 12, imported: 6, skipped: 6, rejected: 0 })
    // The second half recorded: new batches stop the look-ups, the insert's conflict handling skips the rest.
    const later = all.map((text) => text.replace('H-1', 'H-2'))
    await runImport(await statement('halves2.csv', later.slice(6)), { batchSize: 3, source: 'halves.csv' })
    const second = await runImport(await statement('halves2.csv', later), { batchSize: 3, source: 'halves.csv' })
    expect(second).toMatchObject({ lines: 12, imported: 6, skipped: 6, rejected: 0 })
    const { entries, batches } = await booked('halves.csv')
    expect(entries).toHaveLength(24)
    // Four imports of 6 new lines each: an event per batch written, never per line.
    expect(batches.length).toBeGreaterThanOrEqual(4)
    expect(batches.reduce((sum, event) => sum + (event.data as { lineCount: number }).lineCount, 0)).toBe(24)
    await expectCovered('halves.csv')
    expect(await verifyChain(t.db, owner.orgId)).toMatchObject({ ok: true })
  })

  it('appends one event for a batch of 620 lines, its leaves the lines in id order, which is file order', async () => {
    const file = await statement(
      'long.csv',
      Array.from({ length: 620 }, (_, i) => line('USRC17607839', 'L-1', i + 1, `0.${String(i + 1).padStart(6, '0')}`)),
    )
    const before = await eventCount(t.db, owner.orgId)
    // The header is the first of the 621 rows the first batch reads.
    const report = await runImport(file, { batchSize: 621 })
    expect(report).toMatchObject({ imported: 620, rejected: 0, batches: [{ lineCount: 620 }] })
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
    const { entries, batches } = await booked('long.csv')
    expect(entries.map((entry) => Number(entry.line_ref))).toEqual(Array.from({ length: 620 }, (_, i) => i + 1))
    expect(batches.map((event) => event.data)).toEqual([
      expect.objectContaining({
        batchId: report.batches[0]!.batchId,
        lineCount: 620,
        totals: [{ currency: 'EUR', amount: '0.19251' }],
      }),
    ])
    await expectCovered('long.csv')
    expect(await verifyChain(t.db, owner.orgId)).toMatchObject({ ok: true })
  })

  it('books each line once when the API creates the same lines during the import', async () => {
    const refs = Array.from({ length: 24 }, (_, i) => String(i + 1))
    const file = await statement(
      'race.csv',
      refs.map((ref) => line('USRC17607839', 'R-1', ref)),
    )
    const [report, responses] = await Promise.all([
      runImport(file, { batchSize: 4 }),
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
    const { entries } = await booked('race.csv')
    expect(entries.map((entry) => entry.line_ref).sort()).toEqual([...refs].sort())
    await expectCovered('race.csv')
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
      batch_id: null,
      created_at: t.clock.now(),
      created_by: owner.userId,
    })
    const file = (source: string) => statement(source, [line(mixed.isrc, 'D', 'a'), line(mixed.isrc, 'D', 'b')])

    if (t.db.kind === 'pglite') {
      // One connection: the writer simply finishes first, and the import skips its lines.
      let importing: Promise<unknown> = Promise.resolve()
      await t.db.tx({ orgId: owner.orgId }, async (tx) => {
        await tx.insertInto('revenue_entries').values(entry('deadlock.csv', 'b')).execute()
        importing = runImport(await file('deadlock.csv'))
        await tx.insertInto('revenue_entries').values(entry('deadlock.csv', 'a')).execute()
      })
      expect(await importing).toMatchObject({ imported: 0, skipped: 2, rejected: 0 })
      expect((await booked('deadlock.csv')).batches).toHaveLength(0)
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
        const importing = runImport(await file(source))
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
    const { entries, batches } = await booked(outcome?.source ?? '')
    expect(entries.map((row) => row.line_ref).sort()).toEqual(['a', 'b'])
    expect(batches).toHaveLength(0)
  })

  it('records the same line and allocations as POST /api/revenue for the same line', async () => {
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
    expect(await runImport(file, { source: 'same-import' })).toMatchObject({ imported: 5 })
    // What may differ: the record's id, source, time, author and batch.
    const comparable = (data: unknown) => {
      const {
        id: _id,
        source: _source,
        createdAt: _createdAt,
        createdBy: _createdBy,
        batchId: _batchId,
        ...rest
      } = data as Record<string, unknown>
      return rest
    }
    const listed = (await call(t.app, { url: '/api/revenue?limit=100', token: owner.token })).json().data as {
      source: string
    }[]
    const viaApi = (await booked('same-api')).created.map((event) => comparable(event.data))
    const viaImport = listed.filter((record) => record.source === 'same-import').map(comparable)
    const byLine = (list: Record<string, unknown>[]) =>
      [...list].sort((x, y) => String(x.lineRef).localeCompare(String(y.lineRef)))
    // The API's events carry the records it lists.
    expect(byLine(viaApi)).toEqual(byLine(listed.filter((record) => record.source === 'same-api').map(comparable)))
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
        expect(await runImport(file, { batchSize: 7 })).toMatchObject({
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
    const report = await runImport(file)
    expect(report).toMatchObject({ lines: 4, imported: 3, rejected: 1 })
    expect(report.rejections).toEqual([{ line: 5, reason: expect.stringMatching(/amount must not be zero/) }])
    expect((await booked('quoted.csv')).entries.map((entry) => entry.line_ref).sort()).toEqual(['3', '4', 'two\nlines'])

    const broken = await statement('broken.csv', [
      line('GBAYE0300021', 'Q-2', 1),
      line('GBAYE0300021', 'Q-2', '"2"x'),
      line('GBAYE0300021', 'Q-2', 3),
    ])
    await expect(runImport(broken)).rejects.toThrow(/line 3: malformed CSV/)
    expect((await booked('broken.csv')).entries.map((entry) => entry.line_ref)).toEqual(['1'])
  })

  it('books lines on the entry active when they are imported, after a correction supersedes one', async () => {
    const isrc = 'DEA123456789'
    const original = await createEntry(t.app, owner.token, {
      kind: 'recording',
      identifiers: { isrc },
      splits: [{ creatorId: creators.a, role: 'artist', shareBps: 10000 }],
    })
    await runImport(await statement('corrected.csv', [line(isrc, 'C-1', 1, '1.00')]))
    const fixed = await createEntry(t.app, owner.token, {
      kind: 'recording',
      identifiers: { isrc },
      supersedes: original.id,
      splits: [
        { creatorId: creators.b, role: 'artist', shareBps: 5000 },
        { creatorId: creators.c, role: 'producer', shareBps: 5000 },
      ],
    })
    await runImport(await statement('corrected.csv', [line(isrc, 'C-1', 1, '1.00'), line(isrc, 'C-1', 2, '1.00')]))
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
    await expect(runImport(file)).rejects.toThrow(/no territory, period_start/)
    const good = await statement('good.csv', [])
    await expect(runImport(good, { orgId: t.services.ids.next('org') })).rejects.toThrow(/does not exist/)
  })

  it('never takes a line’s identity from the file’s name: a renamed statement, or one without a source, imports nothing twice', async () => {
    const file = await statement('rename-me.csv', [line('USRC17607839', 'N-1', 1), line('GBAYE0300021', 'N-1', 2)])
    expect(await runImport(file, { source: 'Deezer' })).toMatchObject({ imported: 2 })
    const renamed = path.join(dir, 'deezer-2026-09-final.csv')
    await copyFile(file, renamed)
    expect(await runImport(renamed, { source: 'Deezer' })).toMatchObject({ imported: 0, skipped: 2 })
    const before = await eventCount(t.db, owner.orgId)
    // No source at all is refused before anything is read or written.
    await expect(
      t.services.revenue.importStatement({ orgId: owner.orgId, input: createReadStream(renamed) }),
    ).rejects.toMatchObject({ code: 'parameter_missing', options: { param: 'source' } })
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    expect((await booked('Deezer')).entries).toHaveLength(2)
  })

  it('takes each line’s source from a source column, and refuses a second source beside it', async () => {
    const file = path.join(dir, 'with-source.csv')
    await writeFile(
      file,
      `${HEADER},source\n${line('USRC17607839', 'W-1', 1)},Tidal\n${line('USRC17607839', 'W-1', 1)},Qobuz\n`,
    )
    const first = await t.services.revenue.importStatement({ orgId: owner.orgId, input: createReadStream(file) })
    expect(first).toMatchObject({ source: null, imported: 2, rejected: 0 })
    expect((await booked('Tidal')).entries).toHaveLength(1)
    expect((await booked('Qobuz')).entries).toHaveLength(1)
    const renamed = path.join(dir, 'with-source-renamed.csv')
    await copyFile(file, renamed)
    expect(
      await t.services.revenue.importStatement({ orgId: owner.orgId, input: createReadStream(renamed) }),
    ).toMatchObject({
      imported: 0,
      skipped: 2,
    })
    await expect(runImport(file, { source: 'Tidal' })).rejects.toMatchObject({
      code: 'parameter_invalid',
      options: { param: 'source' },
    })
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
      const cli = (...args: string[]) =>
        promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', 'src/main.ts', 'revenue', 'import', file, '--org', boss.orgId, ...args],
          { cwd: ROOT, env },
        )
      // Without a source, nothing is imported: the file's name is no identity.
      await expect(cli()).rejects.toMatchObject({
        stderr: expect.stringMatching(/error: name where the money comes from/),
      })
      const first = await cli('--source', 'Apple Music')
      expect(first.stdout).toBe('imported 1, skipped 0 (already present), rejected 1\n')
      expect(first.stderr).toMatch(/line 3: isrc "NOPE" is not a valid ISRC/)
      const second = await cli('--source', 'Apple Music')
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
