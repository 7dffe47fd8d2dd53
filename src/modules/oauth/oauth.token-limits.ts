import { TIERS, type BucketVerdict, type RateLimiter, type RateTier } from '../../platform/rate-limit.js'

/** Failed client authentications allowed before a pause: per client id, and per address. */
const FAILURES_PER_CLIENT: RateTier = { perMinute: 10 / 15, burst: 10 }
const FAILURES_PER_ADDRESS: RateTier = { perMinute: 30 / 15, burst: 30 }

/**
 * Which bucket each token request draws from. Many clients behind one address (a NAT, a
 * partner's platform) must not refuse each other's valid exchanges, and guessing secrets must
 * stay slow:
 * - a valid exchange, in a bucket of the client's own, at the client's tier (apart from the
 *   bucket of its API requests, so a new token never costs an API request);
 * - a failed client authentication, in two failure throttles, per client id and per address,
 *   which are looked at before the secret is checked;
 * - a request refused before any client is authenticated (malformed, wrong grant type, no
 *   credentials), in the address's bucket for unauthenticated requests, as on any other route.
 */
export interface TokenLimits {
  /** Looks at both failure throttles (takes nothing); refused while either is exhausted. */
  failures(clientId: string, address: string): Promise<BucketVerdict>
  /** Counts a failed authentication in both throttles; the verdict of the one that decides. */
  failed(clientId: string, address: string): Promise<BucketVerdict>
  /** A valid exchange, from the client's exchange bucket. */
  exchange(clientId: string, tier: RateTier): Promise<BucketVerdict>
  /** A request refused before any client authenticated, from the address's bucket. */
  unauthenticated(address: string): Promise<BucketVerdict>
}

/** Of two throttles, the one that decides: a refusing one (the longer wait), else the one with less left. */
function binding(verdicts: readonly BucketVerdict[]): BucketVerdict {
  const refusing = verdicts.filter((verdict) => !verdict.allowed)
  if (refusing.length > 0) return refusing.reduce((a, b) => (b.retryAfter > a.retryAfter ? b : a))
  return verdicts.reduce((a, b) => (b.remaining < a.remaining ? b : a))
}

export function createTokenLimits(limiter: RateLimiter): TokenLimits {
  const failureBuckets = (clientId: string, address: string) =>
    [
      [`oauth:fail:cli:${clientId.slice(0, 100)}`, FAILURES_PER_CLIENT],
      [`oauth:fail:ip:${address}`, FAILURES_PER_ADDRESS],
    ] as const

  return {
    // Cost 0: a request refused while throttled is not a new failure.
    failures: async (clientId, address) =>
      binding(await Promise.all(failureBuckets(clientId, address).map(([key, tier]) => limiter.take(key, tier, 0)))),
    failed: async (clientId, address) =>
      binding(await Promise.all(failureBuckets(clientId, address).map(([key, tier]) => limiter.take(key, tier)))),
    exchange: (clientId, tier) => limiter.take(`oauth:exchange:cli:${clientId}`, tier),
    unauthenticated: (address) => limiter.take(`ip:${address}`, TIERS.anonymous),
  }
}
