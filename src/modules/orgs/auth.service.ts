import { sql } from 'kysely'
import type { Database, Reader, Tx } from '../../database.js'
import { DAY, HOUR, MINUTE, type Clock } from '../../platform/clock.js'
import type { Identity } from '../../platform/context.js'
import type { CredentialCache } from '../../platform/credential-cache.js'
import { hashSecret, type PasswordHasher } from '../../platform/crypto.js'
import { AppError } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { Role } from '../../platform/permissions.js'
import { takeAttempt, type Attempt } from '../../platform/attempt-throttle.js'
import { TIERS, type RateLimiter, type RateTier } from '../../platform/rate-limit.js'
import { wwwAuthenticate } from '../../platform/guard.js'
import type { LoginBody, LoginResponse, Me, SignupBody, User } from './orgs.schemas.js'

export const SESSION_IDLE_MS = 12 * HOUR
export const SESSION_ABSOLUTE_MS = 7 * DAY
/** Touching last_used_at on every request would make every read a write. */
const TOUCH_EVERY_MS = MINUTE

/** Failed logins allowed before a pause: per email, and per address. */
const LOGIN_FAILURES_PER_EMAIL: RateTier = { perMinute: 10 / 15, burst: 10 }
const LOGIN_FAILURES_PER_ADDRESS: RateTier = { perMinute: 30 / 15, burst: 30 }

export interface AuthService {
  signup(body: SignupBody): Promise<LoginResponse>
  login(body: LoginBody, address: string): Promise<LoginResponse>
  logout(tokenHash: string): Promise<void>
  authenticate(token: string): Promise<Identity>
  me(userId: string, activeOrgId: string | null): Promise<Me>
  /** Adds a person with a password in the caller's transaction (a partner's sign-up); 409 when the email has an account. */
  createPersonIn(tx: Tx, person: NewPerson): Promise<User>
  /** Starts a session for a user (signup, login). */
  startSession(userId: string, activeOrgId: string | null): Promise<{ token: string; expiresAt: string }>
}

export interface NewPerson {
  email: string
  name: string
  /** None: the person sets one with a link (an operator made from scratch). */
  password?: string
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

export function presentUser(row: { id: string; email: string | null; name: string; created_at: Date }): User {
  return { id: row.id, email: row.email, name: row.name, createdAt: row.created_at.toISOString() }
}

const invalidToken = (detail: string) =>
  new AppError('invalid_token', detail, { headers: wwwAuthenticate('invalid_token') })

/** A live session as `auth_session` resolves it. */
interface SessionGrant {
  user_id: string
  user_name: string
  user_email: string | null
  active_org_id: string | null
  role: Role | null
  last_used_at: Date
  expires_at: Date
}

/** What makes a cached session stale: its own row, and its user's memberships. */
export const sessionTags = (tokenHash: string, userId: string): string[] => [`session:${tokenHash}`, `user:${userId}`]

export interface AuthDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  passwords: PasswordHasher
  limiter: RateLimiter
  credentials: CredentialCache
}

export function createAuthService(deps: AuthDeps): AuthService {
  return {
    startSession: (userId, activeOrgId) => startSession(deps, userId, activeOrgId),
    createPersonIn: (tx, person) => insertPerson(deps, tx, person),
    async signup(body) {
      const user = await insertPerson(deps, deps.db.global, body)
      const session = await startSession(deps, user.id, null)
      return { ...session, user, activeOrgId: null }
    },
    login: (body, address) => login(deps, body, address),
    logout: (tokenHash) => logout(deps, tokenHash),
    authenticate: (token) => authenticate(deps, token),
    me: (userId, activeOrgId) => me(deps.db, userId, activeOrgId),
  }
}

async function memberships(db: Database, userId: string) {
  const result = await sql<{
    org_id: string
    org_name: string
    environment: 'sandbox' | 'production'
    region: string
    role: Role
    joined_at: Date
  }>`select * from user_memberships(${userId})`.execute(db.global)
  return result.rows
}

async function startSession({ db, clock, ids }: AuthDeps, userId: string, activeOrgId: string | null) {
  const token = ids.secret('sess_')
  const now = clock.now()
  await db.global
    .insertInto('sessions')
    .values({
      token_hash: hashSecret(token),
      user_id: userId,
      active_org_id: activeOrgId,
      created_at: now,
      last_used_at: now,
      expires_at: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
    })
    .execute()
  return { token, expiresAt: new Date(now.getTime() + SESSION_IDLE_MS).toISOString() }
}

/** A person with a password; 409 when the email has an account already. */
async function insertPerson({ clock, ids, passwords }: AuthDeps, executor: Reader, person: NewPerson): Promise<User> {
  const user = {
    id: ids.next('user'),
    kind: 'person' as const,
    email: normaliseEmail(person.email),
    name: person.name.trim(),
    created_at: clock.now(),
  }
  const passwordHash = person.password === undefined ? null : await passwords.hash(person.password)
  const inserted = await executor
    .insertInto('users')
    .values({ ...user, password_hash: passwordHash, home_org_id: null })
    // A literal, not a parameter: a prepared statement's generic plan could not infer the partial unique index.
    .onConflict((conflict) => conflict.column('email').where('kind', '=', sql.lit('person')).doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!inserted) throw new AppError('conflict', 'An account with this email already exists', { param: 'email' })
  return presentUser(user)
}

/** A login attempt: one token from the email's and the address's failure throttles, taken before the password is checked. */
async function loginAttempt(limiter: RateLimiter, email: string, address: string): Promise<Attempt> {
  const attempt = await takeAttempt(limiter, [
    [`login:email:${email}`, LOGIN_FAILURES_PER_EMAIL],
    [`login:ip:${address}`, LOGIN_FAILURES_PER_ADDRESS],
  ])
  if (!attempt.allowed) {
    throw new AppError('rate_limited', 'Too many failed logins; wait before trying again', {
      headers: { 'retry-after': String(attempt.verdict.retryAfter) },
    })
  }
  return attempt
}

async function login(deps: AuthDeps, body: LoginBody, address: string): Promise<LoginResponse> {
  const { db, passwords } = deps
  const email = normaliseEmail(body.email)
  const attempt = await loginAttempt(deps.limiter, email, address)
  const user = await db.global
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email)
    .where('kind', '=', 'person')
    .executeTakeFirst()
  // Checked against a hash of the same cost when there is no account: the same time either way.
  const valid = await passwords.verify(body.password, user?.password_hash ?? null)
  if (!user || !valid) throw new AppError('authentication_required', 'Email or password is incorrect')
  await attempt.succeeded()
  const first = (await memberships(db, user.id))[0]
  const session = await startSession(deps, user.id, first?.org_id ?? null)
  return { ...session, user: presentUser(user), activeOrgId: first?.org_id ?? null }
}

async function logout({ db, clock, credentials }: AuthDeps, tokenHash: string): Promise<void> {
  await db.global.updateTable('sessions').set({ ended_at: clock.now() }).where('token_hash', '=', tokenHash).execute()
  const tags = [`session:${tokenHash}`]
  await credentials.announce(db.global, tags)
  credentials.forget(tags)
}

async function authenticate({ db, clock, credentials }: AuthDeps, token: string): Promise<Identity> {
  const tokenHash = hashSecret(token)
  const row = await credentials.resolve<SessionGrant>(`sess:${tokenHash}`, async () => {
    const found = (await sql<SessionGrant>`select * from auth_session(${tokenHash})`.execute(db.global)).rows[0]
    return found ? { value: found, tags: sessionTags(tokenHash, found.user_id) } : null
  })
  if (!row) throw invalidToken('The session token is not valid')
  const now = clock.now().getTime()
  if (now >= row.expires_at.getTime() || now >= row.last_used_at.getTime() + SESSION_IDLE_MS) {
    throw invalidToken('The session has expired; log in again')
  }
  if (now - row.last_used_at.getTime() >= TOUCH_EVERY_MS) {
    await db.global
      .updateTable('sessions')
      .set({ last_used_at: new Date(now) })
      .where('token_hash', '=', tokenHash)
      .execute()
    // The cached grant follows the row, so the next minute of requests needs no touch.
    row.last_used_at = new Date(now)
  }
  const hasOrg = row.active_org_id !== null && row.role !== null
  return {
    kind: 'session',
    userId: row.user_id,
    rateKey: `usr:${row.user_id}`,
    rateTier: TIERS.session,
    orgId: hasOrg ? row.active_org_id : null,
    ...(hasOrg && row.role ? { role: row.role } : {}),
    session: { tokenHash, userName: row.user_name, userEmail: row.user_email },
  }
}

async function me(db: Database, userId: string, activeOrgId: string | null): Promise<Me> {
  const user = await db.global.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()
  const rows = await memberships(db, userId)
  return {
    user: presentUser(user),
    memberships: rows.map((row) => ({
      orgId: row.org_id,
      name: row.org_name,
      environment: row.environment,
      region: row.region,
      role: row.role,
      joinedAt: row.joined_at.toISOString(),
    })),
    activeOrgId,
  }
}
