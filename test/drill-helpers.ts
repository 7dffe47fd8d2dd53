import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chownSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { SERVER_NODE_FLAGS } from '../src/platform/node-flags.js'

/** Helpers of the fault drills: a real `oeuvre serve`, private PostgreSQL and Redis servers, and load over sockets. */

const ROOT = path.resolve(import.meta.dirname, '..')
const run = promisify(execFile)

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (typeof address !== 'object' || !address) throw new Error('no port')
  return address.port
}

export interface ServeChild {
  url: string
  child: ChildProcess
  output(): string
  alive(): boolean
  stop(): Promise<void>
}

/** `oeuvre serve` as `npm start` runs it (node, the server flags, tsx), on a free port; resolves once it listens. */
export async function startServe(env: Record<string, string>, timeoutMs = 90_000): Promise<ServeChild> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'src/main.ts', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', SEED_DEMO: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let text = ''
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const alive = () => child.exitCode === null && child.signalCode === null
  const stop = async () => {
    if (!alive()) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve not listening after ${timeoutMs} ms:\n${text}`)), timeoutMs)
    const look = () => {
      const match = /listening on (http:\/\/\S+)/.exec(text)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    }
    child.stdout!.on('data', look)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`serve exited (${code ?? signal}) before listening:\n${text}`))
    })
  }).catch(async (error: unknown) => {
    await stop()
    throw error
  })
  return { url, child, output: () => text, alive, stop }
}

export type Cleanups = (() => Promise<void>)[]

/** A database of the test's own on the suite's PostgreSQL server (dropped by `cleanups`): its backends are the test's to terminate. */
export async function ownDatabase(serverUrl: string, cleanups: Cleanups): Promise<string> {
  const name = `oeuvre_drill_${Date.now()}_${randomBytes(3).toString('hex')}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: serverUrl })
    await client.connect()
    await client.query(`drop database if exists ${name} with (force)`)
    await client.end()
  })
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/**
 * `oeuvre serve` on `databaseUrl`, or on PGlite in a fresh DATA_DIR when it is empty; stopped,
 * and its directory removed, by `cleanups`.
 */
export async function serveOn(
  databaseUrl: string,
  env: Record<string, string>,
  cleanups: Cleanups,
): Promise<ServeChild> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-drill-'))
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
  const server = await startServe({ DATABASE_URL: databaseUrl, REDIS_URL: '', DATA_DIR: dataDir, ...env })
  cleanups.push(server.stop)
  return server
}

/**
 * A PostgreSQL cluster of the test's own (initdb into a temp directory, its own port), so the
 * test can stop and start the server. PostgreSQL refuses to run as root: as root (CI), every
 * command runs as the `postgres` user through `runuser`.
 */
export class PrivatePostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`
  }

  static async create(): Promise<PrivatePostgres> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-pg-drill-'))
    if (process.getuid?.() === 0) chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), 0)
    const cluster = new PrivatePostgres(dir, await freePort())
    try {
      await cluster.as('initdb', ['-D', cluster.data, '-U', 'postgres', '--auth=trust', '--no-sync'])
      await cluster.start()
    } catch (error) {
      await cluster.destroy()
      throw error
    }
    return cluster
  }

  private get data(): string {
    return path.join(this.dir, 'data')
  }

  /** A PostgreSQL program (from the server's bin directory), as the postgres user when we are root. */
  private async as(program: string, args: string[]): Promise<void> {
    const binary = path.join(await pgBinDir(), program)
    const [command, argv] =
      process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args]
    await run(command, argv, { cwd: this.dir })
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.dir} -c fsync=off`
    await this.as('pg_ctl', ['-D', this.data, '-o', options, '-l', path.join(this.dir, 'log'), '-w', 'start'])
  }

  /** Stops the server as an operator would (`-m fast`: open sessions are terminated, 57P01). */
  async stop(): Promise<void> {
    await this.as('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', 'stop'])
  }

  /** Stops the server if it runs, and removes its files: whatever state the test left it in. */
  async destroy(): Promise<void> {
    await this.as('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined)
    await rm(this.dir, { recursive: true, force: true })
  }
}

let binDir: Promise<string> | undefined

/** Where initdb and pg_ctl live: the server's own bin directory (pg_config --bindir). */
function pgBinDir(): Promise<string> {
  binDir ??= run('pg_config', ['--bindir']).then(
    (result) => result.stdout.trim(),
    () => '/usr/lib/postgresql/15/bin',
  )
  return binDir
}

/** A private redis-server (no persistence) on its own port, which the test can kill and start again on that port. */
export class PrivateRedis {
  private child: ChildProcess | null = null

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`
  }

  static async create(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort())
    await redis.start()
    return redis
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    this.child = child
    let text = ''
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server not ready:\n${text}`)), 10_000)
      child.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString()
        if (text.includes('Ready to accept connections')) {
          clearTimeout(timer)
          resolve()
        }
      })
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`redis-server exited (${code}):\n${text}`))
      })
    })
  }

  /** Freezes the server (SIGSTOP): connections stay open and commands go unanswered until `thaw`. */
  freeze(): { thaw(): void } {
    const child = this.child
    child?.kill('SIGSTOP')
    return { thaw: () => void child?.kill('SIGCONT') }
  }

  /** Kills the server at once (SIGKILL: an outage, not a shutdown). */
  async kill(): Promise<void> {
    const child = this.child
    this.child = null
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGKILL')
    await exited
  }
}

export interface Answer {
  status: number
  ms: number
  headers: Headers
  body: string
}

/** One request over a real socket; a network failure (the process gone, the port closed) throws. */
export async function request(
  url: string,
  options: {
    method?: string
    token?: string
    body?: unknown
    form?: Record<string, string>
    headers?: Record<string, string>
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) }
  if (options.token) headers.authorization = `Bearer ${options.token}`
  let body: string | undefined
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(options.form).toString()
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.body)
  }
  const started = performance.now()
  const response = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    ...(body !== undefined ? { body } : {}),
    signal: AbortSignal.timeout(30_000),
  })
  const text = await response.text()
  return { status: response.status, ms: performance.now() - started, headers: response.headers, body: text }
}

/** A user owning a sandbox org, made over HTTP. */
export async function owner(baseUrl: string, label: string): Promise<{ token: string; orgId: string }> {
  const email = `${label}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`
  const signup = await request(`${baseUrl}/api/auth/signup`, {
    method: 'POST',
    body: { email, password: 'correct horse battery', name: label },
  })
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${signup.body}`)
  const token = (JSON.parse(signup.body) as { token: string }).token
  const org = await request(`${baseUrl}/api/orgs`, {
    method: 'POST',
    token,
    body: { name: label, environment: 'sandbox' },
  })
  if (org.status !== 201) throw new Error(`org: ${org.status} ${org.body}`)
  return { token, orgId: (JSON.parse(org.body) as { id: string }).id }
}

/** What a drill's load saw. */
export class LoadRecord {
  readonly statuses = new Map<number, number>()
  /** Answers a drill must never see (a 500, a 503 without Retry-After, a network failure), described. */
  readonly violations: string[] = []
  maxMs = 0
  /** When each request was sent and its answer came (ms since the epoch), and whether it was a success. */
  readonly timeline: { sent: number; at: number; ok: boolean }[] = []

  count(answer: Answer): void {
    this.statuses.set(answer.status, (this.statuses.get(answer.status) ?? 0) + 1)
    this.maxMs = Math.max(this.maxMs, answer.ms)
    const at = Date.now()
    this.timeline.push({ sent: at - answer.ms, at, ok: answer.status < 500 })
  }

  /** How many requests sent at or after `from` have been answered. */
  answeredSince(from: number): number {
    return this.timeline.filter((entry) => entry.sent >= from).length
  }

  get total(): number {
    let total = 0
    for (const count of this.statuses.values()) total += count
    return total
  }

  of(status: number): number {
    return this.statuses.get(status) ?? 0
  }

  /** How long after `from` the first success came. */
  recoveredAfter(from: number): number | null {
    const first = this.timeline.find((entry) => entry.at >= from && entry.ok)
    return first ? first.at - from : null
  }
}

/** Checks a 503 answer: problem+json, service_unavailable, Retry-After and X-Request-Id. */
export function unavailableProblems(answer: Answer): string[] {
  const problems: string[] = []
  if (!answer.headers.get('retry-after')) problems.push('no Retry-After')
  if (!answer.headers.get('x-request-id')) problems.push('no X-Request-Id')
  if (!answer.headers.get('content-type')?.startsWith('application/problem+json'))
    problems.push(`content-type ${answer.headers.get('content-type')}`)
  try {
    const body = JSON.parse(answer.body) as { code?: string; requestId?: string }
    if (body.code !== 'service_unavailable') problems.push(`code ${body.code}`)
    if (!body.requestId) problems.push('no requestId in the body')
  } catch {
    problems.push(`not JSON: ${answer.body.slice(0, 200)}`)
  }
  return problems
}
