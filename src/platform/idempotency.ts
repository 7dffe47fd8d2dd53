import { CompiledQuery, type Compilable } from 'kysely'
import { canonicalJson } from './canonical-json.js'
import type { Database, Tx, TxParticipant } from '../db/database.js'
import type { LeadWrite, MergeableWrite } from '../db/driver.js'
import { mergeableInsert } from '../db/mergeable-insert.js'
import type { Clock } from './clock.js'
import { DAY, SECOND } from './clock.js'
import { sha256Hex } from './crypto.js'
import { AppError } from './errors.js'

export const IDEMPOTENCY_KEY_MAX = 255
/** Keys are honoured for at least this long. */
export const IDEMPOTENCY_RETENTION_MS = DAY
/** A claim not completed within this time is assumed abandoned by a crashed node. */
const CLAIM_LEASE_MS = 60 * SECOND

export interface IdempotencyScope {
  caller: string
  method: string
  path: string
  key: string
}

export type ClaimResult =
  { kind: 'claimed'; claim: IdempotencyClaim } | { kind: 'replay'; status: number; body: string }

/** The key was found claimed when a deferred claim reached the database: the request must be answered from it. */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('the Idempotency-Key was already claimed')
  }
}

/**
 * Where a claim stands: `held` (ours: its row is ours to complete), `pending` (deferred, not
 * sent yet, or sent inside a transaction the server refused), `sending`, `taken` (deferred,
 * and the key turned out to be claimed already), or `unknown` (the round trip that carried it
 * failed: it may or may not have committed).
 */
export type ClaimState = 'held' | 'pending' | 'sending' | 'taken' | 'unknown'

/**
 * A key claimed, or to be claimed: completes with the write's transaction, or on its own for
 * an error. A deferred claim is made by the route's transaction itself, in the round trip of
 * its first statement (`lead`), instead of in a round trip of its own ahead of the handler;
 * when that transaction read nothing before its commit, inside it, so that claim, work and
 * completion commit together in one round trip (`inline`).
 */
export class IdempotencyClaim implements TxParticipant {
  completed = false
  state: ClaimState
  readonly lead?: LeadWrite
  /** The response the inline claim carries, written with it (completeInline). */
  private inlineResponse: StoredResponse | null = null

  constructor(
    private readonly scope: IdempotencyScope,
    private readonly successStatus: number,
    deferred?: { claim: CompiledQuery; inline: (response: StoredResponse | null) => MergeableWrite },
  ) {
    this.state = deferred ? 'pending' : 'held'
    if (deferred) {
      const { claim, inline: inlineClaim } = deferred
      this.lead = {
        take: () => {
          if (this.state !== 'pending') return null
          // Its response was given to the inline claim: a claim sent alone would leave it unwritten.
          if (this.inlineResponse)
            throw new Error('a claim carrying its response must be written inside its transaction')
          this.state = 'sending'
          return claim
        },
        settle: (rows) => {
          this.state = rows.length > 0 ? 'held' : 'taken'
          if (this.state === 'taken') throw new IdempotencyKeyTaken()
        },
        lost: () => {
          this.state = 'unknown'
        },
        inline: () => {
          if (this.state !== 'pending') return null
          this.state = 'sending'
          return inlineClaim(this.inlineResponse)
        },
        settleInline: (failure) => {
          // Written or not, the response went with this commit: a later attempt gives its own.
          this.inlineResponse = null
          if (failure === null) {
            this.state = 'held'
            return
          }
          if (claimConflict(failure)) {
            this.state = 'taken'
            throw new IdempotencyKeyTaken()
          }
          // The server refused the transaction: the claim went with it, and is still to be made.
          this.state = serverRefusal(failure) ? 'pending' : 'unknown'
        },
      }
    }
  }

  /** A claim to be made with the first statement of the request's transaction. */
  static deferred(clock: Clock, scope: IdempotencyScope, requestHash: string, successStatus: number): IdempotencyClaim {
    const now = clock.now()
    return new IdempotencyClaim(scope, successStatus, {
      claim: claimQuery(now, scope, requestHash),
      inline: (response) => inlineClaim(now, scope, requestHash, response),
    })
  }

  commitWrite(tx: Tx, result: unknown): Compilable {
    return completion(tx, this.scope, this.successStatus, JSON.stringify(result))
  }

  completeInline(result: unknown): boolean {
    if (!this.lead?.inline || this.state !== 'pending') return false
    this.inlineResponse = { status: this.successStatus, body: JSON.stringify(result) }
    return true
  }

  afterCommit(): void {
    this.completed = true
  }

  /**
   * Stores a response produced outside a transaction (errors, read-only actions). Only a held
   * claim's: a row this request does not hold is never written, and one whose claim's fate is
   * unknown is left to expire (its lease) and be taken over by a retry.
   */
  async settle(db: Database, status: number, body: string): Promise<void> {
    if (this.completed || this.state !== 'held') return
    this.completed = true
    if (status === 503) {
      // Nothing was done (the database was away): the key is freed for the retry, not bound to the outage. When
      // the database is still away the claim stays, and a retry takes it over once its lease has run out.
      await release(db.global, this.scope).catch(() => undefined)
      return
    }
    await completion(db.global, this.scope, status, body).execute()
  }
}

// Every idempotent write runs these two: SQL text, not a query built and compiled each time.
const COMPLETE =
  'update idempotency_keys set state = $1, response_status = $2, response_body = $3 where caller = $4 and method = $5 and path = $6 and key = $7'
const INSERT_CLAIM =
  'insert into idempotency_keys (caller, method, path, key, request_hash, state, locked_until, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)'
const CLAIM = `${INSERT_CLAIM} on conflict do nothing returning key`
/**
 * The claim made inside the request's own transaction: no conflict clause, so a key already
 * claimed fails the transaction (its primary key), and the request is answered from it. A
 * group commit inserts its transactions' claims in one statement; one key taken fails the
 * group, and each transaction is then committed alone and hears its own outcome.
 */
const insertClaim = mergeableInsert('idempotency_keys', [
  ['caller', 'text'],
  ['method', 'text'],
  ['path', 'text'],
  ['key', 'text'],
  ['request_hash', 'text'],
  ['state', 'text'],
  ['locked_until', 'timestamptz'],
  ['created_at', 'timestamptz'],
  ['response_status', 'integer'],
  ['response_body', 'text'],
])

/** A response stored with its key. */
interface StoredResponse {
  status: number
  body: string
}

const KEY_CONSTRAINT = 'idempotency_keys_pkey'

function claimConflict(failure: unknown): boolean {
  const { code, constraint } = (failure ?? {}) as { code?: unknown; constraint?: unknown }
  return code === '23505' && constraint === KEY_CONSTRAINT
}

/** An error the server answered with (it rolled the transaction back), not a lost connection. */
function serverRefusal(failure: unknown): boolean {
  const { code, severity } = (failure ?? {}) as { code?: unknown; severity?: unknown }
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string'
}

/** The stored response that completes a claimed key. */
function completion(db: Tx | Database['global'], scope: IdempotencyScope, status: number, body: string) {
  const query = CompiledQuery.raw(COMPLETE, ['done', status, body, scope.caller, scope.method, scope.path, scope.key])
  return { compile: () => query, execute: () => db.executeQuery(query) }
}

const RELEASE =
  'delete from idempotency_keys where caller = $1 and method = $2 and path = $3 and key = $4 and state = $5'

/** Frees a claim that is still running (a committed write has completed it: that one stays, and is replayed). */
function release(db: Database['global'], scope: IdempotencyScope) {
  return db.executeQuery(CompiledQuery.raw(RELEASE, [scope.caller, scope.method, scope.path, scope.key, 'running']))
}

export function requestFingerprint(body: unknown): string {
  return sha256Hex(canonicalJson(body ?? null))
}

/** The insert that claims a key (running, under a lease); it returns the key when it did. */
function claimValues(
  now: Date,
  scope: IdempotencyScope,
  requestHash: string,
  state: 'running' | 'done' = 'running',
): unknown[] {
  return [
    scope.caller,
    scope.method,
    scope.path,
    scope.key,
    requestHash,
    state,
    new Date(now.getTime() + CLAIM_LEASE_MS),
    now,
  ]
}

function claimQuery(now: Date, scope: IdempotencyScope, requestHash: string): CompiledQuery {
  return CompiledQuery.raw(CLAIM, claimValues(now, scope, requestHash))
}

/** The claim inside the work's transaction: running, or done with the response when the work gave it one (completeInline). */
function inlineClaim(
  now: Date,
  scope: IdempotencyScope,
  requestHash: string,
  response: StoredResponse | null,
): MergeableWrite {
  return insertClaim([
    ...claimValues(now, scope, requestHash, response ? 'done' : 'running'),
    response?.status ?? null,
    response?.body ?? null,
  ])
}

/** Claims a key now, in a round trip of its own, or says how the request is to be answered instead. */
export async function claimIdempotencyKey(
  db: Database,
  clock: Clock,
  scope: IdempotencyScope,
  requestHash: string,
  successStatus: number,
): Promise<ClaimResult> {
  const now = clock.now()
  const lease = new Date(now.getTime() + CLAIM_LEASE_MS)
  const claimed = await db.global.executeQuery(claimQuery(now, scope, requestHash))
  if (claimed.rows.length > 0) return { kind: 'claimed', claim: new IdempotencyClaim(scope, successStatus) }

  const existing = await db.global
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('caller', '=', scope.caller)
    .where('method', '=', scope.method)
    .where('path', '=', scope.path)
    .where('key', '=', scope.key)
    .executeTakeFirst()
  if (!existing) return claimIdempotencyKey(db, clock, scope, requestHash, successStatus)

  const expired = existing.created_at.getTime() + IDEMPOTENCY_RETENTION_MS < now.getTime()
  const abandoned = existing.state === 'running' && existing.locked_until.getTime() < now.getTime()
  if (expired || (abandoned && existing.request_hash === requestHash)) {
    // Take over: compare-and-set on the row we saw, so only one retry wins.
    const taken = await db.global
      .updateTable('idempotency_keys')
      .set({
        request_hash: requestHash,
        state: 'running',
        locked_until: lease,
        created_at: now,
        response_status: null,
        response_body: null,
      })
      .where('caller', '=', scope.caller)
      .where('method', '=', scope.method)
      .where('path', '=', scope.path)
      .where('key', '=', scope.key)
      .where('created_at', '=', existing.created_at)
      .where('locked_until', '=', existing.locked_until)
      .returning('key')
      .executeTakeFirst()
    if (taken) return { kind: 'claimed', claim: new IdempotencyClaim(scope, successStatus) }
  }
  if (existing.request_hash !== requestHash) {
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body', {
      param: 'Idempotency-Key',
    })
  }
  if (existing.state === 'running') {
    throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed', {
      param: 'Idempotency-Key',
      headers: { 'retry-after': '1' },
    })
  }
  return { kind: 'replay', status: existing.response_status ?? 200, body: existing.response_body ?? '' }
}

/** Deletes records past retention (run by the worker). */
export async function pruneIdempotencyKeys(db: Database, clock: Clock): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - 2 * IDEMPOTENCY_RETENTION_MS)
  const result = await db.global.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst()
  return Number(result.numDeletedRows)
}
