import type { BucketVerdict, RateLimiter, RateTier } from './rate-limit.js'

/**
 * Throttles on guesses (a password, a client secret): each attempt takes a token from every
 * bucket it counts against *before* the check, each take one atomic step of the bucket's store
 * (a Redis script, or this process's map), so any number of attempts sent at once get at most
 * the buckets' tokens of checks. A check that passes gives its tokens back: only failures count.
 */
export interface Attempt {
  allowed: boolean
  /** The verdict of the bucket that decides (a refusing one, else the one with least left): for the headers. */
  verdict: BucketVerdict
  /** The check passed: the tokens go back. */
  succeeded(): Promise<void>
}

export type ThrottleBuckets = readonly (readonly [key: string, tier: RateTier])[]

/** Of several verdicts, the one that decides: a refusing one (the longest wait), else the one with least left. */
export function bindingVerdict(verdicts: readonly BucketVerdict[]): BucketVerdict {
  const refusing = verdicts.filter((verdict) => !verdict.allowed)
  if (refusing.length > 0) return refusing.reduce((a, b) => (b.retryAfter > a.retryAfter ? b : a))
  return verdicts.reduce((a, b) => (b.remaining < a.remaining ? b : a))
}

export async function takeAttempt(limiter: RateLimiter, buckets: ThrottleBuckets): Promise<Attempt> {
  const verdicts = await Promise.all(buckets.map(([key, tier]) => limiter.take(key, tier)))
  const giveBack = async (which: ThrottleBuckets) => {
    await Promise.all(which.map(([key, tier]) => limiter.refund(key, tier, 1)))
  }
  const allowed = verdicts.every((verdict) => verdict.allowed)
  // Refused by one bucket: the tokens the others gave are not spent on a check that never runs.
  if (!allowed) await giveBack(buckets.filter((_, i) => verdicts[i]?.allowed))
  return { allowed, verdict: bindingVerdict(verdicts), succeeded: () => giveBack(buckets) }
}
