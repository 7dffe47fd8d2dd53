import { CompiledQuery } from 'kysely'
import type { CommitWith, CommitWrite, UntypedDatabase } from '../db/database.js'
import { mergeableInsert } from '../db/mergeable-insert.js'
import { canonicalJson } from './canonical-json.js'
import type { Clock } from './clock.js'
import { DAY, SECOND } from './clock.js'
import { sha256Hex } from './crypto.js'
import { AppError } from './errors.js'

/**
 * Idempotency keys, all of their rules in this file. A key is stored one of two ways:
 *
 * - **Claimed up front** (`claimIdempotencyKey`, most routes): a `running` row under a 60 s
 *   lease, committed before the handler writes anything, so a second request with the key
 *   waits for the answer (409 `idempotency_key_in_use`) instead of running too. The response
 *   completes the row in the write's own transaction (`write`), or after it (`settle`) for an
 *   error or a request that wrote nothing. A claim whose node crashed is taken over when its
 *   lease has run out.
 * - **Stored at commit** (routes whose handler is one transaction: the creates of revenue,
 *   creators and catalog entries): nothing is written ahead; the write's transaction inserts
 *   the key `done`, with its response, at its commit. A key that exists already fails that
 *   transaction on its primary key (`keyTaken`), with nothing written, and the request is then
 *   answered as an up-front claim would answer it: a replay, 409, 422, or a takeover and a
 *   run under the claim taken. A request answered without that transaction committing (an
 *   error) stores its answer the up-front way.
 */

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

const KEY_CONSTRAINT = 'idempotency_keys_pkey'

/** The failure of a transaction whose key, stored at commit, was there already. */
export function keyTaken(failure: unknown): boolean {
  const { code, constraint } = (failure ?? {}) as { code?: unknown; constraint?: unknown }
  return code === '23505' && constraint === KEY_CONSTRAINT
}

// Every idempotent write runs these: SQL text, not a query built and compiled each time.
const COMPLETE =
  'update idempotency_keys set state = $1, response_status = $2, response_body = $3 where caller = $4 and method = $5 and path = $6 and key = $7'
const CLAIM =
  'insert into idempotency_keys (caller, method, path, key, request_hash, state, locked_until, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict do nothing returning key'
const RELEASE =
  'delete from idempotency_keys where caller = $1 and method = $2 and path = $3 and key = $4 and state = $5'
const FIND =
  'select request_hash, state, locked_until, created_at, response_status, response_body from idempotency_keys where caller = $1 and method = $2 and path = $3 and key = $4'
/** Take over the row as it was seen (compare-and-set): only one retry wins. */
const TAKE_OVER =
  'update idempotency_keys set request_hash = $1, state = $2, locked_until = $3, created_at = $4, response_status = null, response_body = null where caller = $5 and method = $6 and path = $7 and key = $8 and created_at = $9 and locked_until = $10 returning key'
const PRUNE = 'delete from idempotency_keys where created_at < $1'

/** An idempotency key's row, as a claim reads it. */
interface KeyRow {
  request_hash: string
  state: 'running' | 'done'
  locked_until: Date
  created_at: Date
  response_status: number | null
  response_body: string | null
}

/** A key stored done at commit; a group commit inserts its transactions' keys in one statement. */
const insertDone = mergeableInsert('idempotency_keys', [
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

/** A key of a request: claimed up front, or to be stored with the commit of the request's transaction. */
export class IdempotencyClaim implements CommitWith {
  /** The response is stored (with the write's commit, or by `settle`). */
  completed = false

  private constructor(
    private readonly scope: IdempotencyScope,
    private readonly successStatus: number,
    /** Set for a key stored at commit: when and for which body it is written. */
    private readonly atCommit: { now: Date; requestHash: string } | null,
  ) {}

  static claimed(scope: IdempotencyScope, successStatus: number): IdempotencyClaim {
    return new IdempotencyClaim(scope, successStatus, null)
  }

  /** A key to store, done, with the commit of the request's transaction. */
  static storedAtCommit(clock: Clock, scope: IdempotencyScope, requestHash: string, successStatus: number) {
    return new IdempotencyClaim(scope, successStatus, { now: clock.now(), requestHash })
  }

  /** Whether nothing is stored yet for this key by this request (a key stored at commit, before its commit). */
  get unclaimed(): boolean {
    return this.atCommit !== null && !this.completed
  }

  write(result: unknown): CommitWrite {
    const body = JSON.stringify(result)
    if (this.atCommit === null)
      return CompiledQuery.raw(COMPLETE, [
        'done',
        this.successStatus,
        body,
        this.scope.caller,
        this.scope.method,
        this.scope.path,
        this.scope.key,
      ])
    const { now, requestHash } = this.atCommit
    return insertDone([...claimValues(now, this.scope, requestHash, 'done'), this.successStatus, body])
  }

  committed(): void {
    this.completed = true
  }

  /**
   * Stores a response produced outside a transaction (errors, read-only actions), for a key
   * claimed up front only: a row this request does not hold is never written.
   */
  async settle(db: UntypedDatabase, status: number, body: string): Promise<void> {
    if (this.completed || this.atCommit !== null) return
    this.completed = true
    if (status === 503) {
      // Nothing was done (the database was away): the key is freed for the retry, not bound to the outage. When
      // the database is still away the claim stays, and a retry takes it over once its lease has run out.
      await db.global
        .executeQuery(
          CompiledQuery.raw(RELEASE, [
            this.scope.caller,
            this.scope.method,
            this.scope.path,
            this.scope.key,
            'running',
          ]),
        )
        .catch(() => undefined)
      return
    }
    await db.global.executeQuery(
      CompiledQuery.raw(COMPLETE, [
        'done',
        status,
        body,
        this.scope.caller,
        this.scope.method,
        this.scope.path,
        this.scope.key,
      ]),
    )
  }
}

export function requestFingerprint(body: unknown): string {
  return sha256Hex(canonicalJson(body ?? null))
}

/** The values a key's row starts with: running under a lease, or done. */
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

/** Claims a key now, in a round trip of its own, or says how the request is to be answered instead. */
export async function claimIdempotencyKey(
  db: UntypedDatabase,
  clock: Clock,
  scope: IdempotencyScope,
  requestHash: string,
  successStatus: number,
): Promise<ClaimResult> {
  const now = clock.now()
  const lease = new Date(now.getTime() + CLAIM_LEASE_MS)
  const claimed = await db.global.executeQuery(CompiledQuery.raw(CLAIM, claimValues(now, scope, requestHash)))
  if (claimed.rows.length > 0) return { kind: 'claimed', claim: IdempotencyClaim.claimed(scope, successStatus) }

  const key = [scope.caller, scope.method, scope.path, scope.key]
  const [existing] = (await db.global.executeQuery<KeyRow>(CompiledQuery.raw(FIND, key) as CompiledQuery<KeyRow>)).rows
  if (!existing) return claimIdempotencyKey(db, clock, scope, requestHash, successStatus)

  const expired = existing.created_at.getTime() + IDEMPOTENCY_RETENTION_MS < now.getTime()
  const abandoned = existing.state === 'running' && existing.locked_until.getTime() < now.getTime()
  if (expired || (abandoned && existing.request_hash === requestHash)) {
    // Take over: compare-and-set on the row we saw, so only one retry wins.
    const seen = [existing.created_at, existing.locked_until]
    const taken = await db.global.executeQuery(
      CompiledQuery.raw(TAKE_OVER, [requestHash, 'running', lease, now, ...key, ...seen]),
    )
    if (taken.rows.length > 0) return { kind: 'claimed', claim: IdempotencyClaim.claimed(scope, successStatus) }
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
export async function pruneIdempotencyKeys(db: UntypedDatabase, clock: Clock): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - 2 * IDEMPOTENCY_RETENTION_MS)
  const result = await db.global.executeQuery(CompiledQuery.raw(PRUNE, [cutoff]))
  return Number(result.numAffectedRows ?? 0)
}
