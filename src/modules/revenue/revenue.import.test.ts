import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../app.js'
import { loadConfig } from '../../config.js'
import { openDatabase, type Database } from '../../db/database.js'
import { ManualClock } from '../../platform/clock.js'
import { createPasswordHasher } from '../../platform/crypto.js'
import { buildTestApp, call, eventCount, ownerWithOrg, type OrgAccount, type TestApp } from '../../../test/helpers.js'
import { createCreator, createEntry } from '../../../test/records-fixtures.js'
import { openIsolatedDatabase } from '../../../test/webhook-helpers.js'
import { verifyChain } from '../audit/audit.verify.js'
import { importStatement } from './revenue.import.js'

const HEADER = 'isrc,territory,period_start,period_end,units,amount,currency,statement_ref,line_ref'
const ROOT = path.resolve(import.meta.dirname, '../../..')
let t: TestApp
let owner: OrgAccount
let dir: string
let creators: { a: string; b: string; c: string }

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
})
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
    expect(byLine.get('2')).toMatchObject({ amount: '123.456789', territory: 'WORLD', allocations: [{ creatorId: creators.a, amount: '123.456789' }] })
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

  it('refuses a statement without the required columns, and an unknown org', async () => {
    const file = path.join(dir, 'headless.csv')
    await writeFile(file, 'isrc,amount\nGBAYE0300021,1.00\n')
    await expect(importStatement(t.services, { orgId: owner.orgId, file })).rejects.toThrow(/no territory, period_start/)
    const good = await statement('good.csv', [])
    await expect(importStatement(t.services, { orgId: t.services.ids.next('org'), file: good })).rejects.toThrow(/does not exist/)
  })
})

describe('oeuvre revenue import (CLI)', () => {
  it('prints the summary and adds nothing on a second run', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-import-cli-'))
    const isolated = process.env.OEUVRE_TEST_DATABASE_URL ? await openIsolatedDatabase() : null
    const db: Database = isolated?.db ?? (await openDatabase({ databaseUrl: null, dataDir }))
    try {
      const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false', DATA_DIR: dataDir })
      const { app } = await buildApp({ config, db, clock: new ManualClock(), logger: false, passwords: createPasswordHasher({ fast: true }) })
      const boss = await ownerWithOrg(app)
      const creator = await createCreator(app, boss.token)
      await createEntry(app, boss.token, { kind: 'recording', identifiers: { isrc: 'USRC17607839' }, splits: [{ creatorId: creator.id, role: 'artist', shareBps: 10000 }] })
      await app.close()
      if (!isolated) await db.close()
      const file = await statement('cli.csv', ['USRC17607839,DE,2026-09-01,2026-09-30,3,0.003,EUR,C-1,1', 'NOPE,DE,2026-09-01,2026-09-30,3,0.003,EUR,C-1,2'])
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: 'false' }
      delete env.DATABASE_URL
      if (isolated?.url) env.DATABASE_URL = isolated.url
      const cli = () => promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts', 'revenue', 'import', file, '--org', boss.orgId], { cwd: ROOT, env })
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
