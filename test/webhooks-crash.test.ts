import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { openDatabase, type Database } from '../src/database.js'
import { ManualClock } from '../src/platform/clock.js'
import { createPasswordHasher } from '../src/platform/crypto.js'
import type { RequestContext } from '../src/platform/context.js'
import { ownerWithOrg } from './helpers.js'
import { openIsolatedDatabase, Receiver, type ReceivedDelivery } from './webhook-helpers.js'

/**
 * At least once, with real processes: a worker is SIGKILLed after the receiver got a
 * delivery and before the attempt was recorded; a new worker sends it again with the
 * same X-Service-Delivery.
 *
 * The database is one this file alone uses: on PostgreSQL a fresh database that the test
 * and the worker processes share at the same time; on PGlite a data directory in a temp
 * folder, which one process at a time opens (PGlite cannot be shared), so the test writes,
 * closes it, and then hands it to each worker in turn.
 */
const ROOT = path.resolve(import.meta.dirname, '..')
const SECRETS_KEY = randomBytes(32).toString('hex')
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function openStore(dataDir: string): Promise<{ db: Database; databaseUrl: string | null }> {
  if (process.env.OEUVRE_TEST_DATABASE_URL) {
    const isolated = await openIsolatedDatabase()
    cleanups.push(isolated.drop)
    return { db: isolated.db, databaseUrl: isolated.url }
  }
  return { db: await openDatabase({ databaseUrl: null, dataDir }), databaseUrl: null }
}

function startWorker(
  dataDir: string,
  databaseUrl: string | null,
): { child: ChildProcess; exited: Promise<number | null> } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    SECRETS_KEY,
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
  }
  delete env.DATABASE_URL
  if (databaseUrl) env.DATABASE_URL = databaseUrl
  // node --import tsx runs the CLI as one process, so the signal hits the worker itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
    if (stderr) process.stderr.write(`worker stderr: ${stderr}\n`)
  })
  return { child, exited }
}

function nextRequest(receiver: Receiver, count: number, timeoutMs = 60_000): Promise<ReceivedDelivery> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no delivery ${count} within ${timeoutMs} ms`)), timeoutMs)
    const poll = setInterval(() => {
      const found = receiver.received[count - 1]
      if (found) {
        clearInterval(poll)
        clearTimeout(timer)
        resolve(found)
      }
    }, 25)
  })
}

describe('a worker killed mid-delivery', () => {
  it('loses nothing: the next worker delivers again under the same delivery id', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-crash-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const receiver = await Receiver.start()
    cleanups.push(() => receiver.close())
    // The first request is held open until its worker is dead; later ones are answered.
    receiver.respondWith(() => undefined)

    const { db, databaseUrl } = await openStore(dataDir)
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      DATA_DIR: dataDir,
      SECRETS_KEY,
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
    })
    const { app, services } = await buildApp({
      config,
      db,
      clock: new ManualClock(new Date()),
      logger: false,
      passwords: createPasswordHasher({ fast: true }),
    })
    const owner = await ownerWithOrg(app)
    const ctx: RequestContext = {
      orgId: owner.orgId,
      requestId: 'req_crash',
      actor: { userId: owner.userId, kind: 'person', role: 'owner' },
    }
    const webhook = await services.webhooks.create(ctx, { url: receiver.url(), events: ['payout.paid'] })
    const delivery = await services.webhooks.test(ctx, webhook.id)
    const closeApp = async () => {
      await app.close()
      await db.close()
    }
    // PGlite: one process at a time.
    if (!databaseUrl) await closeApp()
    else cleanups.push(closeApp)

    const first = startWorker(dataDir, databaseUrl)
    const held = await nextRequest(receiver, 1)
    expect(held.headers['x-service-delivery']).toBe(delivery.id)
    first.child.kill('SIGKILL')
    await first.exited
    expect(first.child.signalCode).toBe('SIGKILL')

    const second = startWorker(dataDir, databaseUrl)
    const again = await nextRequest(receiver, 2)
    expect(again.headers['x-service-delivery']).toBe(delivery.id)
    expect(again.headers['webhook-id']).toBe(delivery.id)
    expect(again.body).toBe(held.body)
    // A graceful stop lets the worker record the attempt before it exits.
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)

    const store = databaseUrl ? db : await openDatabase({ databaseUrl: null, dataDir })
    try {
      const row = await store.read(owner.orgId, (reader) =>
        reader
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where('org_id', '=', owner.orgId)
          .where('id', '=', delivery.id)
          .executeTakeFirstOrThrow(),
      )
      const attempts = await store.read(owner.orgId, (reader) =>
        reader
          .selectFrom('webhook_attempts')
          .selectAll()
          .where('org_id', '=', owner.orgId)
          .where('delivery_id', '=', delivery.id)
          .execute(),
      )
      // The killed attempt was never recorded; the one that succeeded was, once.
      expect(row).toMatchObject({ status: 'succeeded', attempt_count: 1 })
      expect(attempts.map((attempt) => [attempt.attempt, attempt.status, attempt.http_status])).toEqual([
        [1, 'succeeded', 200],
      ])
      expect(receiver.received).toHaveLength(2)
    } finally {
      if (!databaseUrl) await store.close()
    }
  }, 180_000)
})
