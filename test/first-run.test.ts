import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SERVER_NODE_FLAGS } from '../src/platform/node-flags.js'

/** package.json's start script, word by word: `node <flags> --import tsx src/main.ts serve`. */
const startCommand = (
  JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }
).scripts.start.split(' ')

/** `npm start` on a fresh data directory, as a new user runs it (embedded database). */
async function start(dataDir: string): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  // The start script's own command line, run by this node as one process (no npm wrapper), so stopping it stops the server.
  const child = spawn(process.execPath, startCommand.slice(1), {
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let text = ''
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line:\n${text}`)), 90_000)
    child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(text)
      if (match && text.includes('demo login')) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${text}`)))
  })
  return { child, url, output: () => text }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

describe('first run', () => {
  it('is started by npm start with node itself and the server flags, which the benchmarks use too', () => {
    expect(startCommand[0]).toBe('node')
    expect(startCommand.slice(-4)).toEqual(['--import', 'tsx', 'src/main.ts', 'serve'])
    expect(startCommand.slice(1, -4)).toEqual([...SERVER_NODE_FLAGS])
  })

  it('creates the database, seeds a demo org once, prints the URL and a working demo login', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-first-run-'))
    dirs.push(dataDir)
    const first = await start(dataDir)
    let orgId: string
    try {
      expect(await (await fetch(`${first.url}/healthz`)).json()).toEqual({ status: 'ok' })
      // PORT=0: links name the port the system picked, as printed.
      expect(first.url).not.toMatch(/:0$/)
      const missing = (await (await fetch(`${first.url}/api/no-such-thing`)).json()) as { type: string }
      expect(missing.type).toBe(`${first.url}/docs/errors/resource_missing`)
      const login = /demo login: (\S+) \/ (\S+)/.exec(first.output())!
      const session = await fetch(`${first.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: login[1], password: login[2] }),
      })
      expect(session.status).toBe(200)
      const body = (await session.json()) as { token: string; activeOrgId: string }
      orgId = body.activeOrgId
      expect(orgId).toMatch(/^org_/)
      const me = await fetch(`${first.url}/api/me`, { headers: { authorization: `Bearer ${body.token}` } })
      expect(((await me.json()) as { memberships: unknown[] }).memberships).toHaveLength(1)
      // The demo org has records to look at: creators, catalog entries with splits, allocated revenue, an event.
      const list = async (family: string) => {
        const response = await fetch(`${first.url}/api/${family}?limit=100`, {
          headers: { authorization: `Bearer ${body.token}` },
        })
        return ((await response.json()) as { data: { splits?: unknown[]; allocations?: unknown[] }[] }).data
      }
      expect(await list('creators')).toHaveLength(3)
      const catalog = await list('catalog')
      expect(catalog).toHaveLength(3)
      expect(catalog.every((entry) => (entry.splits ?? []).length > 0)).toBe(true)
      const revenue = await list('revenue')
      expect(revenue).toHaveLength(3)
      expect(revenue.every((entry) => (entry.allocations ?? []).length === 2)).toBe(true)
      expect(await list('events')).toHaveLength(1)
    } finally {
      await stop(first.child)
    }

    const second = await start(dataDir)
    try {
      const login = /demo login: (\S+) \/ (\S+)/.exec(second.output())!
      const session = await fetch(`${second.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: login[1], password: login[2] }),
      })
      // Same org as before: the second start did not seed again.
      expect(((await session.json()) as { activeOrgId: string }).activeOrgId).toBe(orgId)
    } finally {
      await stop(second.child)
    }
  }, 240_000)
})
