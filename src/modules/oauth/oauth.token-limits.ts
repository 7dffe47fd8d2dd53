import { takeAttempt, type Attempt } from '../../platform/attempt-throttle.js'
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
 * - a client authentication, in two failure throttles, per client id and per address: the
 *   attempt takes a token from both before the secret is checked, and a success gives them back;
 * - a request refused before any client is authenticated (malformed, wrong grant type, no
 *   credentials), in the address's bucket for unauthenticated requests, as on any other route.
 */
export interface TokenLimits {
  /** Takes an attempt from both failure throttles before the secret is checked (refused while either is empty). */
  attempt(clientId: string, address: string): Promise<Attempt>
  /** A valid exchange, from the client's exchange bucket. */
  exchange(clientId: string, tier: RateTier): Promise<BucketVerdict>
  /** A request refused before any client authenticated, from the address's bucket. */
  unauthenticated(address: string): Promise<BucketVerdict>
}

export function createTokenLimits(limiter: RateLimiter): TokenLimits {
  const failureBuckets = (clientId: string, address: string) =>
    [
      [`oauth:fail:cli:${clientId.slice(0, 100)}`, FAILURES_PER_CLIENT],
      [`oauth:fail:ip:${address}`, FAILURES_PER_ADDRESS],
    ] as const

  return {
    attempt: (clientId, address) => takeAttempt(limiter, failureBuckets(clientId, address)),
    exchange: (clientId, tier) => limiter.take(`oauth:exchange:cli:${clientId}`, tier),
    unauthenticated: (address) => limiter.take(`ip:${address}`, TIERS.anonymous),
  }
}
