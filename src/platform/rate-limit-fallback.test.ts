import { describe, expect, it } from 'vitest'
import { eventually } from '../../test/eventually.js'
import { ManualClock } from './clock.js'
import { createFallbackRateLimiter, type RateLimitLog } from './rate-limit-fallback.js'
import { createMemoryRateLimiter, TIERS, type RateLimiter } from './rate-limit.js'

/** A log that keeps its lines. */
function recordingLog(): RateLimitLog & { lines: { level: string; msg: string }[] } {
  const lines: { level: string; msg: string }[] = []
  const at = (level: string) => (_obj: unknown, msg?: string) => void lines.push({ level, msg: msg ?? '' })
  return { lines, warn: at('warn'), info: at('info'), debug: at('debug') } as RateLimitLog & { lines: typeof lines }
}

/** A shared store the test switches between answering (in-process buckets), failing and never answering. */
function sharedBuckets(clock: ManualClock) {
  const buckets = createMemoryRateLimiter(clock)
  const state = { mode: 'up' as 'up' | 'down' | 'frozen', takes: 0 }
  const limiter: RateLimiter = {
    take(key, tier, cost) {
      if (state.mode === 'down') return Promise.reject(new Error("Stream isn't writeable"))
      if (state.mode === 'frozen') return new Promise(() => undefined)
      state.takes += 1
      return buckets.take(key, tier, cost)
    },
    refund: (key, tier, tokens) => buckets.refund(key, tier, tokens),
    close: async () => undefined,
  }
  return {
    limiter,
    state,
    probe: () => (state.mode === 'up' ? Promise.resolve('PONG') : Promise.reject(new Error('down'))),
  }
}

describe('rate limits when Redis fails', () => {
  it('answer from local buckets at once, log the fallback and the recovery once each, and use Redis again once it answers', async () => {
    const clock = new ManualClock()
    const shared = sharedBuckets(clock)
    const log = recordingLog()
    const limiter = createFallbackRateLimiter({
      shared: shared.limiter,
      local: createMemoryRateLimiter(clock),
      probe: shared.probe,
      log,
      probeEveryMs: 5,
      answerMs: 20,
    })
    try {
      expect((await limiter.take('k', TIERS.sandbox)).allowed).toBe(true)
      expect(shared.state.takes).toBe(1)

      shared.state.mode = 'down'
      const verdicts = await Promise.all(Array.from({ length: 5 }, () => limiter.take('k', TIERS.sandbox)))
      // Same tier, from this node's bucket (full at first): the headers' values stay meaningful.
      expect(verdicts.map((verdict) => verdict.limit)).toEqual([60, 60, 60, 60, 60])
      expect(verdicts.every((verdict) => verdict.allowed)).toBe(true)
      expect(limiter.status?.()).toEqual({ backend: 'local', reason: "Redis unavailable: Stream isn't writeable" })
      expect((await limiter.take('k', TIERS.sandbox)).allowed).toBe(true)
      expect(log.lines.filter((line) => line.level === 'warn')).toHaveLength(1)

      shared.state.mode = 'up'
      await eventually(() => limiter.status?.().backend === 'redis', 'the recovery')
      const before = shared.state.takes
      await limiter.take('k', TIERS.sandbox)
      expect(shared.state.takes).toBe(before + 1)
      expect(log.lines.map((line) => line.level)).toEqual(['warn', 'info'])

      // A Redis that holds commands without answering costs a request the answer time, not more: the
      // frozen store never answers, so this take resolves only because the limiter stopped waiting.
      shared.state.mode = 'frozen'
      expect((await limiter.take('k', TIERS.sandbox)).allowed).toBe(true)
      expect(limiter.status?.()).toEqual({
        backend: 'local',
        reason: 'Redis unavailable: Redis did not answer within 20 ms',
      })
    } finally {
      await limiter.close()
    }
  })
})
