import { describe, expect, it } from 'vitest'
import { ManualClock } from './clock.js'
import { createIdGenerator, isId, pooledRandom } from './ids.js'

describe('ids', () => {
  it('are prefixed ULIDs, strictly increasing within one millisecond and across pool refills', () => {
    const ids = createIdGenerator(new ManualClock(new Date('2026-11-22T10:00:00.000Z')))
    const made = Array.from({ length: 2000 }, () => ids.next('revenue'))
    for (const id of made) expect(isId('rev', id)).toBe(true)
    for (let i = 1; i < made.length; i += 1) expect(made[i]! > made[i - 1]!).toBe(true)
  })

  it('draw their randomness evenly from the pooled CSPRNG bytes', () => {
    const random = pooledRandom()
    const counts = new Array<number>(256).fill(0)
    for (let i = 0; i < 256 * 200; i += 1) {
      const value = random()
      expect(value).toBeGreaterThanOrEqual(0)
      expect(value).toBeLessThan(1)
      counts[Math.floor(value * 256)]! += 1
    }
    // 51,200 draws over 256 values: each is expected 200 times; a stuck or short pool would not spread like this.
    expect(Math.min(...counts)).toBeGreaterThan(120)
    expect(Math.max(...counts)).toBeLessThan(290)
  })

  it('differ between generators started in the same millisecond', () => {
    const clock = new ManualClock(new Date('2026-11-22T10:00:00.000Z'))
    const a = createIdGenerator(clock).next('event')
    const b = createIdGenerator(clock).next('event')
    expect(a.slice(0, 14)).toBe(b.slice(0, 14))
    expect(a).not.toBe(b)
  })
})
