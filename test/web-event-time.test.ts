import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { venueTimeToInstant } from '../web/src/features/events/event-time.js'
import { formatDateTime } from '../web/src/ui/format-date.js'

/** The wall clock at `timeZone` at an instant, as a datetime-local input holds it (`2026-12-05T20:00`). */
function wallClock(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`
}

const zones = [...Intl.supportedValuesOf('timeZone'), 'UTC']
const HOUR = 3_600_000

describe('the event form’s venue time (web/src/features/events/event-time.ts)', () => {
  it('sends the instant at which the venue’s clock shows the time typed, in every zone', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        // Whole minutes from 2000 to 2099, as the form's input gives them (events are booked now and ahead; some
        // zones kept offsets in seconds until the 1970s, which the form's minutes cannot show).
        fc.integer({ min: Date.UTC(2000, 0, 1) / 60_000, max: Date.UTC(2099, 11, 31) / 60_000 }),
        (zone, minutes) => {
          const instant = new Date(minutes * 60_000)
          const typed = wallClock(instant, zone)
          const sent = new Date(venueTimeToInstant(typed, zone))
          expect(wallClock(sent, zone)).toBe(typed)
          // The same instant, or, where the clock shows that time twice (a change back), the other of the two.
          expect(Math.abs(sent.getTime() - instant.getTime())).toBeLessThanOrEqual(3 * HOUR)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('converts known times, and moves a time inside a spring-forward gap past it', () => {
    expect(venueTimeToInstant('2026-12-05T20:00', 'Europe/Amsterdam')).toBe('2026-12-05T19:00:00.000Z')
    expect(venueTimeToInstant('2026-07-05T20:00', 'America/New_York')).toBe('2026-07-06T00:00:00.000Z')
    expect(venueTimeToInstant('2026-07-05T20:00:30', 'Asia/Kolkata')).toBe('2026-07-05T14:30:30.000Z')
    // 02:30 does not exist in Amsterdam on 29 March 2026: it is read as 03:30 local.
    expect(venueTimeToInstant('2026-03-29T02:30', 'Europe/Amsterdam')).toBe('2026-03-29T01:30:00.000Z')
  })

  it('sends what it cannot read as typed, for the API to name the field', () => {
    expect(venueTimeToInstant('', 'UTC')).toBe('')
    expect(venueTimeToInstant('next friday', 'UTC')).toBe('next friday')
    expect(venueTimeToInstant('2026-12-05T20:00', 'Nowhere/Land')).toBe('2026-12-05T20:00')
    expect(formatDateTime('not a time', 'UTC')).toBe('not a time')
  })
})
