import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify'
import type { UntypedDatabase } from '../db/database.js'
import type { Clock } from './clock.js'
import { AppError } from './errors.js'
import { prepareProblem } from './http.js'
import {
  claimIdempotencyKey,
  IdempotencyClaim,
  IDEMPOTENCY_KEY_MAX,
  keyTaken,
  requestFingerprint,
  type ClaimResult,
  type IdempotencyScope,
} from './idempotency.js'

/**
 * A POST that takes an `Idempotency-Key` names it twice in its route file: `idempotent: true`
 * in its config (the OpenAPI document and the security tests read it), and its handler wrapped
 * in `idempotent(...)`, which claims the key and hands the handler the answer to commit with its
 * transaction (`db.tx(ctx, work, { commitWith: answer })`). What the answer is and how the keys
 * are kept: src/platform/idempotency.ts.
 *
 * - `claimWithTransaction: true` (creates whose handler is one transaction): nothing is claimed
 *   ahead; the answer is the key's row, inserted `done` with the transaction's commit. When the
 *   key exists already that transaction fails with nothing written, and the request is answered
 *   as an up-front claim would answer it (a replay, 409, 422), or runs again under a takeover.
 * - Otherwise the key is claimed up front (a `running` row under a lease, its own round trip)
 *   and the answer completes that row in the write's transaction.
 * - A response that did not complete inside a transaction (an error, a write that was not given
 *   the answer) is stored as it is sent, by this file's `onSend` hook.
 */
export type StoredAnswer = IdempotencyClaim

declare module 'fastify' {
  interface FastifyInstance {
    idempotencyStore: { db: UntypedDatabase; clock: Clock }
  }
  interface FastifyRequest {
    /** The request's key, once claimed (or to be stored at commit). */
    idempotencyClaim?: IdempotencyClaim
  }
}

const WRAPPED = Symbol('idempotent handler')

/** Wraps a route's handler: `answer` is the key's stored answer to commit with the write (undefined: no key sent). */
export function idempotent<
  RouteGeneric extends RouteGenericInterface,
  ContextConfig,
  SchemaCompiler extends FastifySchema,
  TypeProvider extends FastifyTypeProvider,
>(
  handler: (
    request: FastifyRequest<
      RouteGeneric,
      RawServerDefault,
      RawRequestDefaultExpression,
      SchemaCompiler,
      TypeProvider,
      ContextConfig
    >,
    reply: FastifyReply<
      RouteGeneric,
      RawServerDefault,
      RawRequestDefaultExpression,
      RawReplyDefaultExpression,
      ContextConfig,
      SchemaCompiler,
      TypeProvider
    >,
    answer: StoredAnswer | undefined,
  ) => unknown,
): RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGeneric,
  ContextConfig,
  SchemaCompiler,
  TypeProvider
> {
  type Req = Parameters<typeof handler>[0]
  type Rep = Parameters<typeof handler>[1]
  const wrapped = async function (request: Req, reply: Rep): Promise<unknown> {
    const key = requestKey(request)
    if (key === null) return handler(request, reply, undefined)
    const config = request.routeOptions.config as FastifyContextConfig
    if (config.claimWithTransaction) {
      const { scope, requestHash, successStatus } = keyed(request, key)
      const { clock } = request.server.idempotencyStore
      const answer = IdempotencyClaim.storedAtCommit(clock, scope, requestHash, successStatus)
      request.idempotencyClaim = answer
      try {
        return await handler(request, reply, answer)
      } catch (error) {
        if (!keyTaken(error)) throw error
        // The key was there already: answered as an up-front claim answers, or run again under a takeover.
        return claimThenRun(request, reply, key, handler)
      }
    }
    return claimThenRun(request, reply, key, handler)
  }
  return Object.assign(wrapped, { [WRAPPED]: true }) as never
}

async function claimThenRun<Req extends FastifyRequest, Rep extends FastifyReply>(
  request: Req,
  reply: Rep,
  key: string,
  handler: (request: Req, reply: Rep, answer: StoredAnswer | undefined) => unknown,
): Promise<unknown> {
  const result = await claimNow(request, key)
  if (result.kind === 'replay') return sendReplay(reply, result)
  request.idempotencyClaim = result.claim
  return handler(request, reply, result.claim)
}

/** The request's Idempotency-Key, checked; null when none was sent. */
function requestKey(request: FastifyRequest): string | null {
  const key = request.headers['idempotency-key']
  if (key === undefined) return null
  if (typeof key !== 'string' || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw new AppError('parameter_invalid', `Idempotency-Key must be 1..${IDEMPOTENCY_KEY_MAX} characters`, {
      param: 'Idempotency-Key',
    })
  }
  return key
}

/** What a request's key is claimed under. */
function keyed(
  request: FastifyRequest,
  key: string,
): { scope: IdempotencyScope; requestHash: string; successStatus: number } {
  const caller = request.identity ? (request.identity.clientId ?? request.identity.userId) : `ip:${request.ip}`
  return {
    scope: { caller, method: request.method, path: request.url.split('?')[0] ?? '', key },
    requestHash: requestFingerprint(request.body),
    successStatus: request.routeOptions.config?.successStatus ?? 200,
  }
}

/** Claims the request's key in a round trip of its own. */
function claimNow(request: FastifyRequest, key: string): Promise<ClaimResult> {
  const { db, clock } = request.server.idempotencyStore
  const { scope, requestHash, successStatus } = keyed(request, key)
  return claimIdempotencyKey(db, clock, scope, requestHash, successStatus)
}

function replayHeaders(reply: FastifyReply, result: Extract<ClaimResult, { kind: 'replay' }>): void {
  reply.header('idempotent-replayed', 'true')
  reply.code(result.status).type(result.status >= 400 ? 'application/problem+json' : 'application/json')
}

function sendReplay(reply: FastifyReply, result: Extract<ClaimResult, { kind: 'replay' }>): FastifyReply {
  replayHeaders(reply, result)
  return reply.send(result.body)
}

/** A response that did not complete inside a transaction (an error, or no write given the answer) is stored now. */
async function storeResponse(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  let claim = request.idempotencyClaim
  if (!claim || claim.completed || reply.getHeader('idempotent-replayed') !== undefined) return payload
  const { db } = request.server.idempotencyStore
  if (claim.unclaimed) {
    // The database was away: nothing was written and nothing is stored, so the retry runs.
    if (reply.statusCode === 503) return payload
    // A key to be stored at commit whose transaction did not commit (an error): claimed now,
    // and a key claimed already answers the request as it would have up front.
    let result: ClaimResult
    try {
      result = await claimNow(request, request.headers['idempotency-key'] as string)
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      return JSON.stringify(prepareProblem(reply, error))
    }
    if (result.kind === 'replay') {
      replayHeaders(reply, result)
      return result.body
    }
    claim = request.idempotencyClaim = result.claim
  }
  await claim.settle(db, reply.statusCode, typeof payload === 'string' ? payload : String(payload ?? ''))
  return payload
}

/**
 * Gives the wrapper its store and stores the responses the wrapper could not (`onSend`); refuses
 * at start a route whose config and handler disagree about taking a key.
 */
export function registerIdempotency(app: FastifyInstance, store: { db: UntypedDatabase; clock: Clock }): void {
  app.decorate('idempotencyStore', store)
  app.decorateRequest('idempotencyClaim', undefined)
  app.addHook('onSend', storeResponse)
  app.addHook('onRoute', (route) => {
    const config = route.config as FastifyContextConfig | undefined
    const wrapped = (route.handler as unknown as Record<symbol, unknown>)[WRAPPED] === true
    if (Boolean(config?.idempotent) !== wrapped)
      throw new Error(
        `${String(route.method)} ${route.url}: a route that takes Idempotency-Key says idempotent: true in its config and wraps its handler in idempotent()`,
      )
  })
}
