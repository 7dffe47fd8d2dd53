import type { Database } from '../../database.js'
import { HOUR, MINUTE, type Clock } from '../../platform/clock.js'
import type { CredentialCache } from '../../platform/credential-cache.js'
import { hashSecret, type PasswordHasher } from '../../platform/crypto.js'
import { AppError } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { RateLimiter, RateTier } from '../../platform/rate-limit.js'
import type { Job } from '../../worker/worker.js'
import type { EmailOutbox } from '../email/index.js'
import { normaliseEmail } from './auth.service.js'

/** A reset link works this long; an operator's first set-password link, a day. */
export const RESET_LINK_MS = 60 * MINUTE
export const OPERATOR_LINK_MS = 24 * HOUR

/** Reset requests allowed before a pause: per address, and per email (whether or not it has an account). */
const RESETS_PER_ADDRESS: RateTier = { perMinute: 10 / 60, burst: 10 }
const RESETS_PER_EMAIL: RateTier = { perMinute: 3 / 60, burst: 3 }

export interface PasswordResets {
  /** Writes the request as it came, known email or not (the worker makes the token and the email). */
  request(email: string, address: string): Promise<void>
  /** Sets the password with a link's token, once: every session of the person ends, and they are told by email. */
  confirm(token: string, password: string): Promise<void>
  /** A set-password link for a person (an operator made from scratch), valid `ttlMs`. */
  issueLink(userId: string, ttlMs: number): Promise<{ link: string; expiresInMinutes: number }>
  /** The worker's jobs: each pending request of an existing account becomes a token and an email; old rows go. */
  jobs: Job[]
}

export interface PasswordResetDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  passwords: PasswordHasher
  limiter: RateLimiter
  credentials: CredentialCache
  outbox: EmailOutbox
  publicUrl: string
}

export function createPasswordResets(deps: PasswordResetDeps): PasswordResets {
  return {
    request: (email, address) => request(deps, email, address),
    confirm: (token, password) => confirm(deps, token, password),
    async issueLink(userId, ttlMs) {
      const token = await deps.db.globalTx((tx) => newToken(deps, tx, userId, ttlMs))
      return { link: resetLink(deps, token), expiresInMinutes: Math.round(ttlMs / MINUTE) }
    },
    jobs: [
      { name: 'password-resets', everyMs: 1_000, run: () => handleRequests(deps) },
      { name: 'prune-password-resets', everyMs: HOUR, run: () => prune(deps) },
    ],
  }
}

const resetLink = (deps: PasswordResetDeps, token: string) =>
  `${deps.publicUrl}/reset-password?token=${encodeURIComponent(token)}`

async function request(deps: PasswordResetDeps, email: string, address: string): Promise<void> {
  const normalised = normaliseEmail(email)
  for (const [key, tier] of [
    [`reset:ip:${address}`, RESETS_PER_ADDRESS],
    [`reset:email:${normalised}`, RESETS_PER_EMAIL],
  ] as const) {
    const verdict = await deps.limiter.take(key, tier)
    if (!verdict.allowed)
      throw new AppError('rate_limited', 'Too many password reset requests; wait before asking again', {
        headers: { 'retry-after': String(verdict.retryAfter) },
      })
  }
  await deps.db.global
    .insertInto('password_reset_requests')
    .values({ id: deps.ids.next('passwordReset'), email: normalised, requested_at: deps.clock.now(), handled_at: null })
    .execute()
}

type GlobalTx = Parameters<Parameters<Database['globalTx']>[0]>[0]

/** A single-use token for the person, stored only as its hash. */
async function newToken(deps: PasswordResetDeps, tx: GlobalTx, userId: string, ttlMs: number): Promise<string> {
  const token = deps.ids.secret('pwr_')
  const now = deps.clock.now()
  await tx
    .insertInto('password_reset_tokens')
    .values({
      token_hash: hashSecret(token),
      user_id: userId,
      expires_at: new Date(now.getTime() + ttlMs),
      used_at: null,
      created_at: now,
    })
    .execute()
  return token
}

/** Each pending request: for an account that exists, a token and the email; for any, marked handled. */
async function handleRequests(deps: PasswordResetDeps): Promise<number> {
  return deps.db.globalTx(async (tx) => {
    const pending = await tx
      .selectFrom('password_reset_requests')
      .select(['id', 'email'])
      .where('handled_at', 'is', null)
      .orderBy('requested_at')
      .limit(50)
      .forUpdate()
      .skipLocked()
      .execute()
    for (const { id, email } of pending) {
      const user = await tx
        .selectFrom('users')
        .select(['id', 'name', 'email'])
        .where('email', '=', email)
        .where('kind', '=', 'person')
        .executeTakeFirst()
      if (user?.email) {
        const token = await newToken(deps, tx, user.id, RESET_LINK_MS)
        await deps.outbox.enqueue(tx, {
          kind: 'password_reset',
          to: { address: user.email, name: user.name },
          variables: { user: { name: user.name }, expiresInMinutes: String(RESET_LINK_MS / MINUTE) },
          secret: { link: resetLink(deps, token) },
        })
      }
      await tx
        .updateTable('password_reset_requests')
        .set({ handled_at: deps.clock.now() })
        .where('id', '=', id)
        .execute()
    }
    return pending.length
  })
}

/** Requests handled, and links used or expired, a day ago: nothing reads them any more. */
async function prune({ db, clock }: PasswordResetDeps): Promise<number> {
  const dayAgo = new Date(clock.now().getTime() - 24 * HOUR)
  const requests = await db.global.deleteFrom('password_reset_requests').where('handled_at', '<', dayAgo).execute()
  const tokens = await db.global.deleteFrom('password_reset_tokens').where('expires_at', '<', dayAgo).execute()
  return Number(requests[0]?.numDeletedRows ?? 0n) + Number(tokens[0]?.numDeletedRows ?? 0n)
}

async function confirm(deps: PasswordResetDeps, token: string, password: string): Promise<void> {
  const passwordHash = await deps.passwords.hash(password)
  const now = deps.clock.now()
  const userId = await deps.db.globalTx(async (tx) => {
    const found = await tx
      .selectFrom('password_reset_tokens')
      .select(['user_id', 'used_at', 'expires_at'])
      .where('token_hash', '=', hashSecret(token))
      .forUpdate()
      .executeTakeFirst()
    if (!found || found.used_at !== null || found.expires_at.getTime() <= now.getTime())
      throw new AppError('parameter_invalid', 'This link is not valid any more (used, or expired): ask for a new one', {
        param: 'token',
      })
    await tx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', found.user_id).execute()
    // Every other link of the person stops working too, and every session ends.
    await tx
      .updateTable('password_reset_tokens')
      .set({ used_at: now })
      .where('user_id', '=', found.user_id)
      .where('used_at', 'is', null)
      .execute()
    await tx
      .updateTable('sessions')
      .set({ ended_at: now })
      .where('user_id', '=', found.user_id)
      .where('ended_at', 'is', null)
      .execute()
    await deps.credentials.announce(tx, [`user:${found.user_id}`])
    const user = await tx
      .selectFrom('users')
      .select(['name', 'email'])
      .where('id', '=', found.user_id)
      .executeTakeFirstOrThrow()
    if (user.email)
      await deps.outbox.enqueue(tx, {
        kind: 'password_changed',
        to: { address: user.email, name: user.name },
        variables: { user: { name: user.name }, changedAt: now.toISOString() },
      })
    return found.user_id
  })
  deps.credentials.forget([`user:${userId}`])
}
