import type { components } from './generated/openapi.js'

/** An RFC 9457 problem as the API answers it (`code` is one of the documented codes). */
export type Problem = components['schemas']['Problem']

export interface OeuvreErrorInit {
  status?: number
  code?: string
  requestId?: string
  param?: string
  problem?: Problem
  cause?: unknown
}

/** Every error the SDK throws. API errors carry the problem's fields; `status` is absent when no answer came. */
export class OeuvreError extends Error {
  /** The HTTP status, when the API answered. */
  readonly status: number | undefined
  /** The problem's stable `code` (`resource_missing`, `rate_limited`, ...), or the OAuth `error` of the token endpoint. */
  readonly code: string | undefined
  /** The request's id (`X-Request-Id`): quote it to support. */
  readonly requestId: string | undefined
  /** The parameter at fault, when the problem names one. */
  readonly param: string | undefined
  /** The whole problem+json body. */
  readonly problem: Problem | undefined

  constructor(message: string, init: OeuvreErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause })
    this.name = new.target.name
    this.status = init.status
    this.code = init.code
    this.requestId = init.requestId
    this.param = init.param
    this.problem = init.problem
  }
}

/** 401: no, a malformed, an expired or a revoked token, or client credentials the token endpoint refused. */
export class AuthenticationError extends OeuvreError {}

/** 403: the token lacks the scope (`problem.scope` names it), or the action is not allowed. */
export class PermissionError extends OeuvreError {}

/** 404: no such record, or one in an org the token cannot see. */
export class NotFoundError extends OeuvreError {}

/** 400 or 422: the request was refused as it is (`param` and `problem.errors` say where). */
export class ValidationError extends OeuvreError {}

/** 409: a conflict with the record's state, or the same `Idempotency-Key` still running. */
export class ConflictError extends OeuvreError {}

/** 429 after the retries: `retryAfter` is the server's wait in seconds. */
export class RateLimitError extends OeuvreError {
  readonly retryAfter: number | undefined

  constructor(message: string, init: OeuvreErrorInit & { retryAfter?: number }) {
    super(message, init)
    this.retryAfter = init.retryAfter
  }
}

/**
 * 421: the org, record or credential belongs to another region's deployment: `region` names it,
 * `baseUrl` is that deployment's address (when the service knows it). Send the call there.
 */
export class WrongRegionError extends OeuvreError {
  readonly baseUrl: string | undefined
  readonly region: string | undefined

  constructor(message: string, init: OeuvreErrorInit & { baseUrl?: string; region?: string }) {
    super(message, init)
    this.baseUrl = init.baseUrl
    this.region = init.region
  }
}

/** 5xx after the retries. */
export class ServerError extends OeuvreError {}

/** No answer: the connection failed or broke (after the retries). */
export class ConnectionError extends OeuvreError {}

/** No answer within `timeoutMs` (after the retries). */
export class TimeoutError extends ConnectionError {}

/** A webhook delivery that does not verify; `code` says why. */
export class WebhookVerificationError extends OeuvreError {}

/** Seconds from a `Retry-After` header (seconds, or an HTTP date measured against `now`). */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim())
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string'
}

/** The typed error for an API answer that is not a success. */
export function errorFromResponse(status: number, body: unknown, headers: Headers, now: number): OeuvreError {
  const problem = isProblem(body) ? body : undefined
  const requestId = problem?.requestId ?? headers.get('x-request-id') ?? undefined
  const code = problem?.code
  const detail = problem?.detail ?? problem?.title ?? (typeof body === 'string' && body ? body : 'no details')
  const message = `${status} ${code ?? 'error'}: ${detail}${requestId ? ` (request ${requestId})` : ''}`
  const init: OeuvreErrorInit = { status, code, requestId, param: problem?.param, problem }
  if (status === 401) return new AuthenticationError(message, init)
  if (status === 403) return new PermissionError(message, init)
  if (status === 404) return new NotFoundError(message, init)
  if (status === 400 || status === 422) return new ValidationError(message, init)
  if (status === 409) return new ConflictError(message, init)
  if (status === 421) return new WrongRegionError(message, { ...init, ...regionFields(problem) })
  if (status === 429)
    return new RateLimitError(message, { ...init, retryAfter: parseRetryAfter(headers.get('retry-after'), now) })
  if (status >= 500) return new ServerError(message, init)
  return new OeuvreError(message, init)
}

function regionFields(body: unknown): { baseUrl?: string; region?: string } {
  const { baseUrl, region } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  return {
    ...(typeof baseUrl === 'string' ? { baseUrl } : {}),
    ...(typeof region === 'string' ? { region } : {}),
  }
}

/** The token endpoint answers RFC 6749 errors (`error`, `error_description`), not problems. */
export function errorFromTokenResponse(status: number, body: unknown, headers: Headers, now: number): OeuvreError {
  const oauth = (typeof body === 'object' && body !== null ? body : {}) as {
    error?: unknown
    error_description?: unknown
  }
  if (typeof oauth.error !== 'string') return errorFromResponse(status, body, headers, now)
  const requestId = headers.get('x-request-id') ?? undefined
  const description = typeof oauth.error_description === 'string' ? oauth.error_description : 'no details'
  const message = `${status} ${oauth.error}: ${description}${requestId ? ` (request ${requestId})` : ''}`
  const init: OeuvreErrorInit = { status, code: oauth.error, requestId }
  if (status === 421) return new WrongRegionError(message, { ...init, ...regionFields(body) })
  if (status === 429)
    return new RateLimitError(message, { ...init, retryAfter: parseRetryAfter(headers.get('retry-after'), now) })
  if (status >= 500) return new ServerError(message, init)
  return new AuthenticationError(message, init)
}
