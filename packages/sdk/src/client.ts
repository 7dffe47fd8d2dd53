import { clientCredentials, staticToken, type StoredToken, type TokenSource, type TokenStore } from './auth.js'
import { systemClock, type Clock } from './clock.js'
import { OeuvreResources, type AccessToken, type EventsMethods, type OrgEvent } from './generated/resources.js'
import { pollEvents, type PollOptions } from './poll.js'
import { streamEvents, type StreamOptions } from './stream.js'
import { regionOf, type Region } from './region.js'
import { Transport } from './transport.js'
import type { RequestOptions } from './types.js'
import { randomKey } from './web-crypto.js'

export interface OeuvreOptions {
  /** The deployment's address, e.g. `https://eu-west.oeuvre.example` (a trailing `/v1` is ignored). */
  baseUrl?: string
  /**
   * Or each region's deployment: the client then talks to the region its credential was issued
   * in (the tag of `clientSecret` or `accessToken`, or the region digit of `clientId`).
   */
  regionUrls?: Partial<Record<Region, string>>
  /** OAuth client credentials (`cli_...`, `cs_test_...` or `cs_live_...`) and the scopes to ask for. */
  clientId?: string
  clientSecret?: string
  scopes?: readonly string[] | string
  /** Or an access token obtained elsewhere: used as it is, never refreshed. */
  accessToken?: string
  /** Share the access token beyond this client (by default it lives in this client's memory only). */
  tokenStore?: TokenStore
  /** Retries of a call after a connection failure, a timeout or a 5xx (default 2). */
  maxRetries?: number
  /**
   * How long one call may wait in total for 429s to clear before it throws `RateLimitError`
   * (default 60 000 ms; 0: throw at the first 429). A 429 is not a failure: the call had no
   * effect and goes again after the `Retry-After` the service names.
   */
  maxRateLimitWaitMs?: number
  /** Per attempt, in milliseconds (default 30 000). */
  timeoutMs?: number
  /** The same as `timeoutMs`. */
  timeout?: number
  /** The `fetch` to send with (default: the platform's). */
  fetch?: typeof fetch
  /** Time for token expiry, retry waits and polling intervals (default: the system's). */
  clock?: Clock
}

/** `oeuvre.events` also polls the feed. */
export interface EventsWithPolling extends EventsMethods {
  /**
   * Every event of the org's feed, oldest first, then the new ones as they come: resumes
   * after `cursor` and reports each page's cursor to `onCursor`, so nothing is skipped or
   * repeated across restarts. Ends when `signal` aborts (or when idle, with `stopWhenIdle`).
   */
  poll(orgId: string, options?: PollOptions): AsyncGenerator<OrgEvent, void, undefined>
  poll(options: PollOptions & { orgId: string }): AsyncGenerator<OrgEvent, void, undefined>
  /**
   * The org's events as they commit (server-sent events), oldest first from `cursor`, then
   * live: reconnects with Last-Event-ID and backs off, so nothing is skipped or repeated.
   */
  stream(orgId: string, options?: StreamOptions): AsyncGenerator<OrgEvent, void, undefined>
}

/** A call to a route the generated methods do not cover (yet). */
export interface RawRequest {
  method: string
  /** From the deployment's root: `/v1/orgs/{orgId}/...`, filled in already. */
  path: string
  query?: object
  body?: unknown
  /** Send the access token (default true). */
  auth?: boolean
}

export const DEFAULT_MAX_RETRIES = 2
export const DEFAULT_TIMEOUT_MS = 30_000
export const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 60_000

/**
 * The Oeuvre partner API: `oeuvre.<resource>.<method>(orgId, ...)` for every /v1 route,
 * with client-credentials tokens, retries, auto-pagination and typed errors.
 */
export class Oeuvre extends OeuvreResources {
  declare readonly events: EventsWithPolling
  /** The region the client's credential was issued in, when it carries one. */
  readonly region: Region | undefined
  /** The deployment the client talks to. */
  readonly baseUrl: string
  private readonly transport: Transport

  constructor(options: OeuvreOptions) {
    const region = [options?.clientSecret, options?.accessToken, options?.clientId]
      .map((value) => (typeof value === 'string' ? regionOf(value) : undefined))
      .find((found) => found !== undefined)
    const baseUrl = options?.baseUrl ?? (region ? options?.regionUrls?.[region] : undefined)
    if (typeof baseUrl !== 'string' || !/^https?:\/\//.test(baseUrl))
      throw new TypeError(
        options?.baseUrl === undefined && options?.regionUrls
          ? `regionUrls has no address for the credential's region (${region ?? 'none'}): pass baseUrl`
          : 'baseUrl must be the http(s) address of an Oeuvre deployment',
      )
    const clock = options.clock ?? systemClock
    const fetcher = options.fetch ?? globalThis.fetch?.bind(globalThis)
    if (!fetcher) throw new TypeError('no fetch on this platform: pass `fetch` in the options')
    const transport = new Transport({
      baseUrl,
      fetch: fetcher,
      clock,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      maxRateLimitWaitMs: options.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS,
      timeoutMs: options.timeoutMs ?? options.timeout ?? DEFAULT_TIMEOUT_MS,
      random: Math.random,
      newIdempotencyKey: randomKey,
    })
    super((request) => transport.send(request))
    this.transport = transport
    this.region = region
    this.baseUrl = transport.baseUrl
    transport.authenticate(tokenSource(options, transport, clock))
    const events = this.events as EventsMethods
    const poll = (first: string | (PollOptions & { orgId: string }), second?: PollOptions) =>
      typeof first === 'string'
        ? pollEvents(events, clock, first, second)
        : pollEvents(events, clock, first.orgId, withoutOrgId(first))
    const stream = (orgId: string, options?: StreamOptions) =>
      streamEvents(
        (path, lastEventId, signal) => transport.openStream(path, lastEventId, signal),
        clock,
        orgId,
        options,
      )
    Object.assign(this.events, { poll, stream })
  }

  /** Sends any request with the client's credentials, retries and errors; answers the parsed body. */
  async request<T = unknown>(request: RawRequest, options?: RequestOptions): Promise<T> {
    const { auth = true, ...rest } = request
    const response = await this.transport.send<T>({ ...rest, method: request.method.toUpperCase(), auth, options })
    return response.data
  }
}

function withoutOrgId(options: PollOptions & { orgId: string }): PollOptions {
  const { orgId: _orgId, ...rest } = options
  return rest
}

function tokenSource(options: OeuvreOptions, transport: Transport, clock: Clock): TokenSource | undefined {
  if (options.accessToken !== undefined) return staticToken(options.accessToken)
  if (options.clientId === undefined && options.clientSecret === undefined) return undefined
  const { clientId, clientSecret } = options
  if (!clientId || !clientSecret) throw new TypeError('clientId and clientSecret go together')
  const scope = typeof options.scopes === 'string' ? options.scopes : (options.scopes ?? []).join(' ')
  if (scope.trim() === '') throw new TypeError('scopes: name the scopes the token needs (events:read, ...)')
  return clientCredentials({
    clock,
    ...(options.tokenStore ? { store: options.tokenStore } : {}),
    async exchange(): Promise<StoredToken> {
      const requestedAt = clock.now()
      const { data } = await transport.send<AccessToken>({
        method: 'POST',
        path: '/oauth/token',
        form: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope },
        auth: false,
      })
      return { accessToken: data.access_token, expiresAt: requestedAt + data.expires_in * 1000, scope: data.scope }
    },
  })
}
