import type { operations } from './generated/openapi.js'

/** Options every method takes as its last argument. */
export interface RequestOptions {
  /** The `Idempotency-Key` of a POST; by default one is generated per call and reused across its retries. */
  idempotencyKey?: string
  /** Per attempt, in milliseconds (default: the client's `timeoutMs`). */
  timeoutMs?: number
  /** Retries after a failed attempt (default: the client's `maxRetries`). */
  maxRetries?: number
  /** How long the call may wait in total for 429s to clear (default: the client's `maxRateLimitWaitMs`). */
  maxRateLimitWaitMs?: number
  /** Aborts the call, its retries and the waits between them. */
  signal?: AbortSignal
  /** Extra request headers (`X-Request-Id`, say). */
  headers?: Record<string, string>
}

export type OperationId = keyof operations

type JsonOf<Response> = Response extends { content: { 'application/json': infer Json } } ? Json : never

/** The query parameters of an operation. */
export type QueryOf<Id extends OperationId> = operations[Id]['parameters'] extends { query?: infer Query }
  ? NonNullable<Query>
  : never

/** The JSON body of an operation. */
export type BodyOf<Id extends OperationId> =
  NonNullable<operations[Id]['requestBody']> extends { content: { 'application/json': infer Body } } ? Body : never

/** What an operation answers on success. */
export type ResultOf<Id extends OperationId> = operations[Id]['responses'] extends { 200: infer Ok }
  ? JsonOf<Ok>
  : operations[Id]['responses'] extends { 201: infer Created }
    ? JsonOf<Created>
    : void

/** One item of a list operation's `data`. */
export type ListItemOf<Id extends OperationId> = ResultOf<Id> extends { data: (infer Item)[] } ? Item : never
