import type { Clock } from './clock.js'
import { parseRetryAfter } from './errors.js'

const open = () => undefined

/**
 * The client's view of its rate-limit bucket. While the API says the bucket is empty (a 429,
 * or `X-RateLimit-Remaining: 0`), requests go one at a time, each after the wait the API named
 * (`Retry-After`, or one token's refill time), so a burst of calls drains the bucket at the
 * server's pace instead of spending its retries on 429s.
 */
export class RateGate {
  private notBefore = 0
  private throttled = false
  private waiting = 0
  private tail: Promise<void> = Promise.resolve()

  constructor(private readonly clock: Clock) {}

  /** Waits for this request's turn; the returned function ends the turn once its answer was observed. */
  async enter(signal?: AbortSignal): Promise<() => void> {
    if (!this.throttled && this.waiting === 0 && this.clock.now() >= this.notBefore) return open
    this.waiting += 1
    const previous = this.tail
    let release!: () => void
    this.tail = new Promise<void>((resolve) => (release = resolve))
    try {
      await previous
      for (let wait = this.notBefore - this.clock.now(); wait > 0; wait = this.notBefore - this.clock.now())
        await this.clock.sleep(wait, signal)
    } catch (error) {
      release()
      throw error
    } finally {
      this.waiting -= 1
    }
    return release
  }

  /** What an answer says about the bucket. */
  observe(status: number, headers: Headers): void {
    const now = this.clock.now()
    if (status === 429) {
      const seconds = parseRetryAfter(headers.get('retry-after'), now) ?? 1
      this.hold(now + seconds * 1000)
      return
    }
    const remaining = Number(headers.get('x-ratelimit-remaining') ?? Number.NaN)
    const perMinute = Number(headers.get('x-ratelimit-limit') ?? Number.NaN)
    if (remaining === 0 && perMinute > 0) this.hold(now + Math.ceil(60_000 / perMinute))
    else if (remaining > 0) this.throttled = false
  }

  private hold(until: number): void {
    this.throttled = true
    this.notBefore = Math.max(this.notBefore, until)
  }
}
