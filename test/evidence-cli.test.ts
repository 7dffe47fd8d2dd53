import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openDatabase, type Database } from '../src/database.js'
import { ManualClock } from '../src/platform/clock.js'
import { createPasswordHasher } from '../src/platform/crypto.js'
import type { RequestContext } from '../src/platform/context.js'
import { ownerWithOrg } from './helpers.js'
import { openIsolatedDatabase } from './webhook-helpers.js'
import { asOwner } from '../src/db/sql-backend.js'

/**
 * `oeuvre audit verify` as an operator runs it: a separate process, the keys from
 * SECRETS_KEY, the chain and every seal checked. The database is this file's own
 * (see webhooks-crash.test.ts for why and how on each backend).
 */
const ROOT = path.resolve(import.meta.dirname, '..')
const SECRETS_KEY = randomBytes(32).toString('hex')
const run = promisify(execFile)
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function verifyCli(
  dataDir: string,
  databaseUrl: string | null,
  orgId: string,
): Promise<{ code: number; report: Record<string, unknown> }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    SECRETS_KEY,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
  }
  delete env.DATABASE_URL
  if (databaseUrl) env.DATABASE_URL = databaseUrl
  try {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', 'audit', 'verify', '--org', orgId, '--json'],
      { cwd: ROOT, env },
    )
    return { code: 0, report: JSON.parse(stdout) }
  } catch (error) {
    const failed = error as { code: number; stdout: string }
    return { code: failed.code, report: JSON.parse(failed.stdout) }
  }
}

describe('oeuvre audit verify', () => {
  it('checks the chain and the seals, and names the sequence of a deleted event', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-verify-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    let db: Database
    let databaseUrl: string | null = null
    if (process.env.OEUVRE_TEST_DATABASE_URL) {
      const isolated = await openIsolatedDatabase()
      cleanups.push(isolated.drop)
      db = isolated.db
      databaseUrl = isolated.url
    } else {
      db = await openDatabase({ databaseUrl: null, dataDir })
    }
    const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false', DATA_DIR: dataDir, SECRETS_KEY })
    const { app, services } = await buildApp({
      config,
      db,
      clock: new ManualClock(),
      logger: false,
      passwords: createPasswordHasher({ fast: true }),
    })
    const owner = await ownerWithOrg(app)
    const ctx: RequestContext = {
      orgId: owner.orgId,
      requestId: 'req_cli',
      actor: { userId: owner.userId, kind: 'person', role: 'owner' },
    }
    for (let i = 0; i < 4; i += 1)
      await db.tx(ctx, (tx) =>
        services.audit.append(tx, ctx, 'catalog.created', { type: 'catalog', id: `cat_${i}` }, { title: `Song ${i}` }),
      )
    await services.evidence.sealOrg(owner.orgId)
    await app.close()
    if (!databaseUrl) await db.close()
    else cleanups.push(() => db.close())

    const clean = await verifyCli(dataDir, databaseUrl, owner.orgId)
    expect(clean).toMatchObject({ code: 0, report: { ok: true, events: 6, seals: { ok: true, seals: 1 } } })

    const store = databaseUrl ? db : await openDatabase({ databaseUrl: null, dataDir })
    await asOwner(store.backend, 'delete from org_events where org_id = $1 and sequence = 3', [owner.orgId])
    if (!databaseUrl) await store.close()

    const broken = await verifyCli(dataDir, databaseUrl, owner.orgId)
    expect(broken).toMatchObject({
      code: 1,
      report: { ok: false, broken: { sequence: 3 }, seals: { ok: false, broken: { treeSize: 5 } } },
    })
  }, 180_000)
})
