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
import { call, signup } from './helpers.js'
import { signUpPartner } from './partner-program-helpers.js'
import { openIsolatedDatabase } from './webhook-helpers.js'

/** `oeuvre operators add` and `oeuvre partners ...` as an operator runs them: a separate process on the database. */
const ROOT = path.resolve(import.meta.dirname, '..')
const SECRETS_KEY = randomBytes(32).toString('hex')
const exec = promisify(execFile)
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function cli(
  store: { dataDir: string; databaseUrl: string | null },
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: store.dataDir,
    SECRETS_KEY,
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
  }
  delete env.DATABASE_URL
  if (store.databaseUrl) env.DATABASE_URL = store.databaseUrl
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      cwd: ROOT,
      env,
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/** The operator made from scratch: an operator_invite email queued, and its link sets a password to log in with. */
async function expectOperatorCanSetPassword(db: Database, { dataDir, link }: { dataDir: string; link: string }) {
  const queued = await db.global
    .selectFrom('email_outbox')
    .select(['kind', 'to_name'])
    .where('to_address', '=', 'nia@example.com')
    .execute()
  expect(queued).toEqual([{ kind: 'operator_invite', to_name: 'Nia Operator' }])
  const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false', DATA_DIR: dataDir, SECRETS_KEY })
  const { app } = await buildApp({ config, db, clock: new ManualClock(), logger: false })
  try {
    const token = new URL(link).searchParams.get('token')
    const set = await call(app, {
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      body: { token, password: 'an operator password' },
    })
    expect(set.statusCode, set.body).toBe(204)
    const login = await call(app, {
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'nia@example.com', password: 'an operator password' },
    })
    expect(login.statusCode, login.body).toBe(200)
    const partners = await call(app, { url: '/api/operator/partners', token: login.json().token })
    expect(partners.statusCode, partners.body).toBe(200)
  } finally {
    await app.close()
  }
}

describe('the operator CLI', () => {
  it('adds an operator (an existing account, or one made with --create that sets its password from a link), and approves a partner naming the operator', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-partners-cli-'))
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
    const { app } = await buildApp({
      config,
      db,
      clock: new ManualClock(),
      logger: false,
      passwords: createPasswordHasher({ fast: true }),
    })
    const staff = await signup(app, 'staff')
    const partner = await signUpPartner(app)
    await db.global.updateTable('partners').set({ status: 'in_review' }).where('id', '=', partner.partnerId).execute()
    await app.close()
    if (!databaseUrl) await db.close()
    else cleanups.push(() => db.close())
    const store = { dataDir, databaseUrl }

    const unknown = await cli(store, ['operators', 'add', 'nobody@example.com'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('sign up first')
    const notYet = await cli(store, ['partners', 'list', '--operator', staff.email])
    expect(notYet.code).toBe(1)
    expect(notYet.stderr).toContain('is not an operator')

    const added = await cli(store, ['operators', 'add', staff.email])
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toContain('is now an operator')

    const listed = await cli(store, ['partners', 'list', '--operator', staff.email, '--status', 'in_review'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(JSON.parse(listed.stdout).data.map((p: { id: string }) => p.id)).toEqual([partner.partnerId])

    const approved = await cli(store, ['partners', 'approve', partner.partnerId, '--operator', staff.email])
    expect(approved.code, approved.stderr).toBe(0)
    expect(JSON.parse(approved.stdout)).toMatchObject({ id: partner.partnerId, status: 'live' })

    const suspended = await cli(store, [
      'partners',
      'suspend',
      partner.partnerId,
      '--operator',
      staff.email,
      '--reason',
      'Abuse report',
    ])
    expect(JSON.parse(suspended.stdout)).toMatchObject({ status: 'suspended', statusReason: 'Abuse report' })

    const created = await cli(store, ['operators', 'add', 'nia@example.com', '--create', '--name', 'Nia Operator'])
    expect(created.code, created.stderr).toBe(0)
    expect(created.stdout).toContain('is now an operator')
    const link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec(created.stdout)?.[0]
    expect(link, created.stdout).toBeDefined()

    const check = databaseUrl ? db : await openDatabase({ databaseUrl: null, dataDir })
    await expectOperatorCanSetPassword(check, { dataDir, link: link! })
    const events = await check.read(partner.orgId, (reader) =>
      reader
        .selectFrom('org_events')
        .select(['action', 'user_id'])
        .where('org_id', '=', partner.orgId)
        .where('action', 'in', ['partner.approved', 'partner.suspended'])
        .orderBy('sequence')
        .execute(),
    )
    if (!databaseUrl) await check.close()
    expect(events).toEqual([
      { action: 'partner.approved', user_id: staff.userId },
      { action: 'partner.suspended', user_id: staff.userId },
    ])
  }, 240_000)
})
