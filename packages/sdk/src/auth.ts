import type { Clock } from './clock.js'

/** An access token as the client keeps it. */
export interface StoredToken {
  accessToken: string
  /** Milliseconds since the Unix epoch. */
  expiresAt: number
  scope: string
}

/**
 * Where the client keeps its access token. By default only in memory, for the life of the
 * client: pass a store to share one token across processes (a cache you trust with secrets).
 */
export interface TokenStore {
  load(): StoredToken | undefined | Promise<StoredToken | undefined>
  save(token: StoredToken | undefined): void | Promise<void>
}

/** Gives the bearer token of each request. */
export interface TokenSource {
  token(signal?: AbortSignal): Promise<string>
  /** The API refused `token` (401 `invalid_token`): forget it. Says whether a new one can be had. */
  invalidate(token: string): Promise<boolean>
}

/** Refresh this long before the token expires, so no request carries one that expires on the way. */
export const REFRESH_MARGIN_MS = 60_000

/** A token given by the caller: used as it is, never refreshed. */
export function staticToken(accessToken: string): TokenSource {
  return { token: async () => accessToken, invalidate: async () => false }
}

/**
 * OAuth 2.0 client credentials with a cache: a token is reused until 60 s before it expires,
 * and one exchange at a time is in flight (concurrent calls wait for the same one).
 */
export function clientCredentials(options: {
  exchange: () => Promise<StoredToken>
  clock: Clock
  store?: TokenStore
}): TokenSource {
  let current: StoredToken | undefined
  let exchanging: Promise<StoredToken> | undefined
  let refused: string | undefined
  const fresh = (token: StoredToken | undefined): token is StoredToken =>
    token !== undefined && options.clock.now() < token.expiresAt - REFRESH_MARGIN_MS

  async function exchange(): Promise<StoredToken> {
    // Another process sharing the store may have a newer token already.
    const stored = await options.store?.load()
    if (fresh(stored) && stored.accessToken !== refused) return (current = stored)
    const token = await options.exchange()
    current = token
    await options.store?.save(token)
    return token
  }

  return {
    async token(signal) {
      if (fresh(current)) return current.accessToken
      // The exchange is shared: one caller's abort must not fail the others, so it takes no signal.
      exchanging ??= exchange().finally(() => (exchanging = undefined))
      const token = await (signal ? abortable(exchanging, signal) : exchanging)
      return token.accessToken
    },
    async invalidate(token) {
      refused = token
      if (current?.accessToken === token) {
        current = undefined
        await options.store?.save(undefined)
      }
      return true
    },
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error)),
    )
  })
}
