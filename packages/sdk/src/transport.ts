import type { TokenSource } from './auth.js'
import type { Clock } from './clock.js'
import {
  ConnectionError,
  errorFromResponse,
  errorFromTokenResponse,
  OeuvreError,
  parseRetryAfter,
  TimeoutError,
} from './errors.js'
import { RateGate } from './rate-gate.js'
import type { RequestOptions } from './types.js'

/** One call to the API, before retries. */
export interface ApiRequest {
  method: string
  /** The path with its parameters filled in (`/v1/orgs/org_.../catalog`). */
  path: string
  query?: object
  /** A JSON body. */
  body?: unknown
  /** A form body instead (the token endpoint); its errors are RFC 6749 errors. */
  form?: Record<string, string>
  /** Whether the call carries the access token. */
  auth: boolean
  options?: RequestOptions
}

export interface ApiResponse<T> {
  data: T
  status: number
  headers: Headers
  requestId: string | undefined
}

export interface TransportOptions {
  baseUrl: string
  fetch: typeof fetch
  clock: Clock
  maxRetries: number
  maxRateLimitWaitMs: number
  timeoutMs: number
  /** In [0, 1): the backoff's jitter. */
  random: () => number
  newIdempotencyKey: () => string
}

/** The longest `Retry-After` a retried failure waits for; a longer one is the caller's decision. */
export const MAX_RETRY_AFTER_SECONDS = 60

type Attempt =
  { answered: true; status: number; headers: Headers; text: string } | { answered: false; error: ConnectionError }

const noop = () => undefined

/**
 * Sends requests with retries: connection failures and timeouts, 409 `idempotency_key_in_use`
 * and 500/502/503/504 up to `maxRetries` times, with exponential backoff and jitter; 429 after
 * `Retry-After`, within `maxRateLimitWaitMs`. A POST keeps one `Idempotency-Key` across all its
 * attempts, so a retried create creates once.
 */
export class Transport {
  private readonly gate: RateGate
  private tokens: TokenSource | undefined
  readonly baseUrl: string

  constructor(private readonly options: TransportOptions) {
    this.gate = new RateGate(options.clock)
    this.baseUrl = options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')
  }

  async send<T>(request: ApiRequest): Promise<ApiResponse<T>> {
    const options = request.options ?? {}
    const maxRetries = options.maxRetries ?? this.options.maxRetries
    const maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? this.options.maxRateLimitWaitMs
    const idempotencyKey =
      request.method === 'POST' && !request.form
        ? (options.idempotencyKey ?? this.options.newIdempotencyKey())
        : undefined
    let retries = 0
    let rateLimitWaitMs = 0
    let reauthenticated = false
    for (;;) {
      options.signal?.throwIfAborted()
      let token: string | undefined
      let attempt: Attempt
      const release = request.auth ? await this.gate.enter(options.signal) : noop
      try {
        token = request.auth ? await this.tokenSource().token(options.signal) : undefined
        attempt = await this.attempt(request, token, idempotencyKey)
        if (request.auth && attempt.answered) this.gate.observe(attempt.status, attempt.headers)
      } finally {
        release()
      }
      if (!attempt.answered) {
        if (retries >= maxRetries) throw attempt.error
        await this.options.clock.sleep(this.backoff(retries), options.signal)
        retries += 1
        continue
      }
      const { status, headers, text } = attempt
      const body = parseBody(text)
      if (status >= 200 && status < 300) {
        if (body === INVALID_JSON) throw new OeuvreError(`${status}: the answer is not JSON`, { status })
        return { data: body as T, status, headers, requestId: headers.get('x-request-id') ?? undefined }
      }
      const now = this.options.clock.now()
      const error = request.form
        ? errorFromTokenResponse(status, body === INVALID_JSON ? text : body, headers, now)
        : errorFromResponse(status, body === INVALID_JSON ? text : body, headers, now)
      if (status === 401 && error.code === 'invalid_token' && token && !reauthenticated) {
        reauthenticated = true
        if (await this.tokenSource().invalidate(token)) continue
      }
      const retryAfter = parseRetryAfter(headers.get('retry-after'), now)
      if (status === 429) {
        // Not a failure: the call had no effect and may go again after the wait the service names,
        // for as long as its waits for the rate limit stay within the budget.
        const wait = (retryAfter ?? 1) * 1000
        if (rateLimitWaitMs + wait > maxRateLimitWaitMs) throw error
        rateLimitWaitMs += wait
        // An authenticated call's 429 has set the rate gate, which does the waiting.
        if (!request.auth) await this.options.clock.sleep(wait, options.signal)
        continue
      }
      if (!retryable(status, error.code) || retries >= maxRetries) throw error
      if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_SECONDS) throw error
      await this.options.clock.sleep(
        retryAfter !== undefined ? retryAfter * 1000 : this.backoff(retries),
        options.signal,
      )
      retries += 1
    }
  }

  /** Exponential, from 0.5 s up to 8 s, less up to a quarter at random. */
  backoff(retries: number): number {
    return Math.min(8_000, 500 * 2 ** retries) * (1 - 0.25 * this.options.random())
  }

  /**
   * Opens a server-sent event stream with the client's token; an answer other than 200 is
   * thrown as the API error it is (a 401 invalid_token first forgets the token).
   */
  async openStream(path: string, lastEventId: string | undefined, signal?: AbortSignal): Promise<Response> {
    const tokens = this.tokenSource()
    const token = await tokens.token(signal)
    const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${token}` }
    if (lastEventId) headers['last-event-id'] = lastEventId
    const response = await this.options.fetch(`${this.baseUrl}${path}`, { headers, ...(signal ? { signal } : {}) })
    if (response.status === 200) return response
    const text = await response.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // not JSON: the error carries the text
    }
    const error = errorFromResponse(response.status, body, response.headers, this.options.clock.now())
    if (response.status === 401) await tokens.invalidate(token)
    throw error
  }

  /** Where authenticated calls take their bearer token from. */
  authenticate(tokens: TokenSource | undefined): void {
    this.tokens = tokens
  }

  private tokenSource(): TokenSource {
    if (!this.tokens)
      throw new OeuvreError('this client has no credentials: pass clientId and clientSecret, or accessToken')
    return this.tokens
  }

  private async attempt(request: ApiRequest, token: string | undefined, idempotencyKey: string | undefined) {
    const options = request.options ?? {}
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
    let body: string | undefined
    if (request.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(request.form).toString()
    } else if (request.body !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(request.body)
    }
    if (token) headers.authorization = `Bearer ${token}`
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs
    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
    const onAbort = () => controller.abort(options.signal?.reason)
    options.signal?.addEventListener('abort', onAbort, { once: true })
    try {
      const response = await this.options.fetch(this.url(request), {
        method: request.method,
        headers,
        body,
        signal: controller.signal,
      })
      // The body is part of the attempt: a connection that breaks while it arrives is retried.
      const text = await response.text()
      return { answered: true, status: response.status, headers: response.headers, text } satisfies Attempt
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason
      const what = `${request.method} ${request.path}`
      return {
        answered: false,
        error: timedOut
          ? new TimeoutError(`${what}: no answer within ${timeoutMs} ms`, { cause: error })
          : new ConnectionError(`${what}: ${describe(error)}`, { cause: error }),
      } satisfies Attempt
    } finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
    }
  }

  private url(request: ApiRequest): string {
    const query = new URLSearchParams()
    for (const [name, value] of Object.entries(request.query ?? {}))
      if (value !== undefined && value !== null)
        for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item))
    const search = query.toString()
    return `${this.baseUrl}${request.path}${search ? `?${search}` : ''}`
  }
}

function retryable(status: number, code: string | undefined): boolean {
  if (status === 409) return code === 'idempotency_key_in_use'
  return status === 500 || status === 502 || status === 503 || status === 504
}

const INVALID_JSON = Symbol('invalid JSON')

function parseBody(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return INVALID_JSON
  }
}

/** fetch's TypeError says little ("fetch failed"); the reason is in its cause. */
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause
  const parts = [error instanceof Error ? error.message : String(error)]
  if (cause && typeof cause.code === 'string') parts.push(cause.code)
  else if (cause && typeof cause.message === 'string') parts.push(cause.message)
  return parts.join(': ')
}
