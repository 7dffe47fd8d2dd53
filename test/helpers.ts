import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import { buildApp, type Services } from '../src/app.js'
import { loadConfig, type Config } from '../src/config.js'
import { openDatabase, type Database } from '../src/database.js'
import { ManualClock } from '../src/platform/clock.js'
import { createPasswordHasher, type PasswordHasher } from '../src/platform/crypto.js'
import type { RateLimiter } from '../src/platform/rate-limit.js'

export interface TestApp {
  app: FastifyInstance
  services: Services
  db: Database
  clock: ManualClock
  config: Config
  close(): Promise<void>
}

let template: Blob | undefined

/** A database for one test file: the run's PostgreSQL database, or a PGlite copy of the migrated template. */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.OEUVRE_TEST_DATABASE_URL
  if (url) return openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 5 })
  const file = process.env.OEUVRE_PGLITE_TEMPLATE
  if (file && !template) template = new Blob([await readFile(file)])
  return openDatabase({ databaseUrl: null, dataDir: 'memory://', ...(template ? { pgliteTemplate: template } : {}) })
}

/** A stand-in for web/dist: one index.html. */
const TEST_WEB_ROOT = fileURLToPath(new URL('./fixtures/web', import.meta.url))

export interface TestAppOptions {
  env?: Record<string, string>
  clock?: ManualClock
  db?: Database
  limiter?: RateLimiter
  /** Password hashing (default: the real scheme at a test cost). */
  passwords?: PasswordHasher
  /**
   * The built web app to serve at `/`. By default a one-page fixture, so that the suite answers the
   * same whether or not `npm run web:build` has run on this machine.
   */
  webRoot?: string
}

/** The real app over a real database, with a manual clock and cheap password hashing. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...options.env })
  const db = options.db ?? (await openTestDatabase())
  const clock = options.clock ?? new ManualClock()
  const { app, services } = await buildApp({
    config,
    db,
    clock,
    logger: false,
    passwords: options.passwords ?? createPasswordHasher({ fast: true }),
    ...(options.limiter ? { limiter: options.limiter } : {}),
    webRoot: options.webRoot ?? TEST_WEB_ROOT,
  })
  await app.ready()
  return {
    app,
    services,
    db,
    clock,
    config,
    async close() {
      await app.close()
      if (!options.db) await db.close()
    },
  }
}

let counter = 0
export function uniqueEmail(label = 'user'): string {
  counter += 1
  return `${label}.${process.pid}.${Date.now()}.${counter}@example.com`
}

export interface CallOptions {
  method?: InjectOptions['method']
  url: string
  token?: string
  body?: unknown
  headers?: Record<string, string>
}

export async function call(app: FastifyInstance, options: CallOptions): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) }
  if (options.token) headers.authorization = `Bearer ${options.token}`
  const inject: InjectOptions = { method: options.method ?? 'GET', url: options.url, headers }
  if (options.body !== undefined) {
    inject.payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
    if (!headers['content-type']) headers['content-type'] = 'application/json'
  }
  return app.inject(inject)
}

export interface Account {
  token: string
  userId: string
  email: string
}

export async function signup(app: FastifyInstance, label = 'user'): Promise<Account> {
  const email = uniqueEmail(label)
  const response = await call(app, {
    method: 'POST',
    url: '/api/auth/signup',
    body: { email, password: 'correct horse battery', name: label },
  })
  expect(response.statusCode, response.body).toBe(201)
  const body = response.json()
  return { token: body.token, userId: body.user.id, email }
}

export interface OrgAccount extends Account {
  orgId: string
}

/** A new user who owns a new org (the session's active org). */
export async function ownerWithOrg(
  app: FastifyInstance,
  options: { environment?: 'sandbox' | 'production'; name?: string } = {},
): Promise<OrgAccount> {
  const account = await signup(app, 'owner')
  const response = await call(app, {
    method: 'POST',
    url: '/api/orgs',
    token: account.token,
    body: { name: options.name ?? 'Test Label', ...(options.environment ? { environment: options.environment } : {}) },
  })
  expect(response.statusCode, response.body).toBe(201)
  return { ...account, orgId: response.json().id }
}

/** Invites a new user into the owner's org with `role`; returns the member's session (active in that org). */
export async function memberWithRole(app: FastifyInstance, owner: OrgAccount, role: string): Promise<OrgAccount> {
  const member = await signup(app, role)
  const invite = await call(app, {
    method: 'POST',
    url: '/api/members/invitations',
    token: owner.token,
    body: { email: member.email, role },
  })
  expect(invite.statusCode, invite.body).toBe(201)
  const accept = await call(app, {
    method: 'POST',
    url: '/api/invitations/accept',
    token: member.token,
    body: { token: invite.json().token },
  })
  expect(accept.statusCode, accept.body).toBe(200)
  return { ...member, orgId: owner.orgId }
}

export function expectProblem(response: LightMyRequestResponse, status: number, code: string): void {
  expect(response.statusCode, response.body).toBe(status)
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/)
  const body = response.json()
  expect(body.code).toBe(code)
  expect(body.status).toBe(status)
  expect(body.requestId).toBe(response.headers['x-request-id'])
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.(ts|js):\d+/)
}

/** Number of events in an org's log, read as the app would. */
export async function eventCount(db: Database, orgId: string): Promise<number> {
  const row = await db.read(orgId, (reader) =>
    reader
      .selectFrom('org_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow(),
  )
  return Number(row.n)
}
