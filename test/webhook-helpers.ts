import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildApp } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { ManualClock } from '../src/platform/clock.js'
import { createPasswordHasher, createSecretBox, type SecretBox } from '../src/platform/crypto.js'
import type { Job } from '../src/worker/worker.js'
import type { HostLookup, ResolvedAddress } from '../src/modules/webhooks/index.js'
import pg from 'pg'
import { openDatabase, type Database } from '../src/database.js'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import type { RequestContext } from '../src/platform/context.js'
import { openTestDatabase, ownerWithOrg, type OrgAccount, type TestApp } from './helpers.js'

/** DNS the test controls: names map to addresses, and can be re-pointed mid-test. */
export class FakeDns {
  readonly names = new Map<string, ResolvedAddress[]>()
  readonly lookups: string[] = []
  /** Runs at every lookup, before it answers (a test can move its clock while an attempt is being prepared). */
  onLookup: ((name: string) => void) | null = null

  set(name: string, ...addresses: string[]): void {
    this.names.set(
      name,
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    )
  }

  readonly lookup: HostLookup = async (name) => {
    this.lookups.push(name)
    this.onLookup?.(name)
    const found = this.names.get(name)
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
    return found
  }
}

export interface WebhookTestApp extends TestApp {
  dns: FakeDns
  secretBox: SecretBox
  /** The delivery worker job of this app's services. */
  deliveries: Job
  job(name: string): Job
}

/**
 * A database no other test file uses. The webhook and sealing workers work across orgs,
 * so on a PostgreSQL run (one database shared by every file) each file that runs them
 * gets a fresh database of its own, dropped on close. PGlite files are separate anyway.
 */
export async function openIsolatedDatabase(): Promise<{ db: Database; url: string | null; drop(): Promise<void> }> {
  const shared = process.env.OEUVRE_TEST_DATABASE_URL
  if (!shared) return { db: await openTestDatabase(), url: null, drop: async () => undefined }
  const name = `oeuvre_iso_${Date.now()}_${randomBytes(3).toString('hex')}`
  const admin = new URL(shared)
  admin.pathname = '/postgres'
  const url = new URL(shared)
  url.pathname = `/${name}`
  const client = new pg.Client({ connectionString: admin.toString() })
  await client.connect()
  await client.query(`create database ${name}`)
  await client.end()
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://', poolSize: 5 })
  return {
    db,
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: admin.toString() })
      await cleanup.connect()
      await cleanup.query(`drop database if exists ${name} with (force)`)
      await cleanup.end()
    },
  }
}

/** The real app with loopback webhooks allowed, fake DNS, no jitter and short timeouts. */
export async function buildWebhookTestApp(
  options: { env?: Record<string, string>; timeoutMs?: number; clock?: ManualClock } = {},
): Promise<WebhookTestApp> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    ...options.env,
  })
  const isolated = await openIsolatedDatabase()
  const db = isolated.db
  const clock = options.clock ?? new ManualClock()
  const dns = new FakeDns()
  const secretBox = createSecretBox(randomBytes(32))
  const { app, services } = await buildApp({
    secretBox,
    config,
    db,
    clock,
    logger: false,
    passwords: createPasswordHasher({ fast: true }),
    webhookNetwork: { lookup: dns.lookup, jitter: 0, timeoutMs: options.timeoutMs ?? 2000 },
  })
  await app.ready()
  const job = (name: string) => {
    const found = services.jobs.find((candidate) => candidate.name === name)
    if (!found) throw new Error(`no job ${name}`)
    return found
  }
  return {
    app,
    services,
    db,
    clock,
    config,
    dns,
    secretBox,
    deliveries: job('webhook-deliveries'),
    job,
    async close() {
      await app.close()
      await db.close()
      await isolated.drop()
    },
  }
}

export interface ReceivedDelivery {
  path?: string
  headers: IncomingHttpHeaders
  body: string
}

type Responder = (request: IncomingMessage, response: ServerResponse, body: string) => void

/** A local HTTP receiver that records every request and answers as told (200 by default). */
export class Receiver {
  readonly received: ReceivedDelivery[] = []
  /** Connections opened so far (kept-alive ones are counted once). */
  connections = 0
  private readonly responders: Responder[] = []
  private fallback: Responder = (_request, response) => response.end('ok')
  private readonly server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      this.received.push({ path: request.url ?? '', headers: request.headers, body })
      const responder = this.responders.shift() ?? this.fallback
      responder(request, response, body)
    })
  })

  constructor() {
    this.server.on('connection', () => {
      this.connections += 1
    })
  }

  /** Listens on `host` (127.0.0.1 by default; any 127.x address works on Linux) and `port` (a free one by default). */
  static async start(port = 0, host = '127.0.0.1'): Promise<Receiver> {
    const receiver = new Receiver()
    await new Promise<void>((resolve) => receiver.server.listen(port, host, resolve))
    return receiver
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port
  }

  get host(): string {
    return (this.server.address() as AddressInfo).address
  }

  url(path = '/hooks'): string {
    return `http://${this.host}:${this.port}${path}`
  }

  /** Answers the next requests with these statuses (and headers), then 200 again. */
  answer(...statuses: (number | { status: number; headers?: Record<string, string>; body?: string })[]): void {
    for (const entry of statuses) {
      const { status, headers, body } =
        typeof entry === 'number' ? { status: entry, headers: {}, body: `status ${entry}` } : entry
      this.responders.push((_request, response) => {
        response.writeHead(status, headers ?? {})
        response.end(body ?? '')
      })
    }
  }

  respondWith(responder: Responder): void {
    this.responders.push(responder)
  }

  setFallback(responder: Responder): void {
    this.fallback = responder
  }

  clear(): void {
    this.received.length = 0
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}

/** Runs the delivery job until it finds nothing due (the clock does not move). */
export async function drain(job: Job, rounds = 20): Promise<number> {
  let total = 0
  for (let i = 0; i < rounds; i += 1) {
    const handled = await job.run()
    total += handled
    if (handled === 0) return total
  }
  return total
}

/**
 * The shared setup of the worker-level webhook tests: one app, one receiver and one
 * owner per file, each test starting with no endpoints (so no leftover retry meets
 * another test's receiver). The fields are filled in by the suite's beforeAll.
 */
export interface WebhookSuite {
  t: WebhookTestApp
  receiver: Receiver
  owner: OrgAccount
  /** The owner acting through the service (these tests move the clock past any session's life). */
  ctx(): RequestContext
}

export function useWebhookSuite(options: { timeoutMs?: number } = {}): WebhookSuite {
  const suite = {} as WebhookSuite
  suite.ctx = () => ({
    orgId: suite.owner.orgId,
    requestId: 'req_test',
    actor: { userId: suite.owner.userId, kind: 'person', role: 'owner' },
  })
  beforeAll(async () => {
    suite.t = await buildWebhookTestApp({ timeoutMs: options.timeoutMs ?? 1000 })
    suite.receiver = await Receiver.start()
    suite.owner = await ownerWithOrg(suite.t.app)
  })
  afterAll(async () => {
    await suite.receiver.close()
    await suite.t.close()
  })
  beforeEach(() => {
    suite.receiver.clear()
  })
  afterEach(async () => {
    for (const webhook of (await suite.t.services.webhooks.list(suite.ctx(), { limit: 100 })).data) {
      await suite.t.services.webhooks.remove(suite.ctx(), webhook.id)
    }
    await drain(suite.t.deliveries)
  })
  return suite
}
