import { TZDateMini } from '@date-fns/tz'

/** The IANA time zones this browser knows, for the event form's list (the API checks the name it gets). */
export function timeZones(): string[] {
  const zones = Intl.supportedValuesOf('timeZone')
  return zones.includes('UTC') ? zones : [...zones, 'UTC']
}

/** The person's own time zone: where most of their events take place, so the form starts there. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/

/**
 * A wall-clock time at the venue (`2026-12-05T20:00`, as a datetime-local input gives it) in the
 * venue's time zone, as the UTC instant the API takes. Text that is not such a time is sent as
 * typed, and the API names the field.
 */
export function venueTimeToInstant(local: string, timeZone: string): string {
  const match = LOCAL_TIME.exec(local.trim())
  if (!match) return local
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  try {
    return new Date(new TZDateMini(year, month - 1, day, hour, minute, second, timeZone).getTime()).toISOString()
  } catch {
    return local
  }
}
