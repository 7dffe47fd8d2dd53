import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import type { Database } from '../src/database.js'
import { ManualClock } from '../src/platform/clock.js'
import { createPasswordHasher } from '../src/platform/crypto.js'
import { call, openTestDatabase, uniqueEmail } from './helpers.js'

let db: Database
const lines: string[] = []
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString().split('\n').filter(Boolean))
    done()
  },
})

beforeAll(async () => {
  db = await openTestDatabase()
})
afterAll(() => db.close())

describe('logs', () => {
  it('carry the request id on every line and never a password or token', async () => {
    const { app } = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'debug', SEED_DEMO: 'false' }),
      db,
      clock: new ManualClock(),
      passwords: createPasswordHasher({ fast: true }),
      logStream: sink,
    })
    try {
      const email = uniqueEmail('logged')
      const password = 'a very secret password'
      const signup = await call(app, {
        method: 'POST',
        url: '/api/auth/signup',
        body: { email, password, name: 'Logged' },
        headers: { 'x-request-id': 'log-test-1' },
      })
      const token: string = signup.json().token
      await call(app, { url: '/api/me', token, headers: { 'x-request-id': 'log-test-2' } })
      await call(app, {
        method: 'POST',
        url: '/api/orgs',
        token,
        body: '{"broken',
        headers: { 'x-request-id': 'log-test-3' },
      })

      const mine = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => String(line.reqId ?? '').startsWith('log-test-'))
      expect(mine.length).toBeGreaterThanOrEqual(6)
      for (const id of ['log-test-1', 'log-test-2', 'log-test-3'])
        expect(mine.some((line) => line.reqId === id)).toBe(true)
      const text = lines.join('\n')
      expect(text).not.toContain(password)
      expect(text).not.toContain(token)
      expect(text).not.toContain(token.slice(5))
    } finally {
      await app.close()
    }
  })
})
