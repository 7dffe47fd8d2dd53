/**
 * One date format everywhere: the reader's language and time zone, with the zone named. The
 * components in `date-time.tsx` put the API's exact ISO text in `dateTime` and `title`.
 */
const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
}

/** Formatters by time zone ('' for the reader's own): made once, a list formats many dates. */
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? ''
  let made = formatters.get(key)
  if (!made) {
    try {
      made = new Intl.DateTimeFormat(undefined, timeZone ? { ...DATE_TIME, timeZone } : DATE_TIME)
    } catch {
      // Not a zone this browser knows: the reader's own clock, with its zone named.
      made = formatter(undefined)
    }
    formatters.set(key, made)
  }
  return made
}

/** "2 Dec 2026, 10:15 UTC" in the reader's locale; `timeZone` (an IANA name) reads it on another clock. */
export function formatDateTime(iso: string, timeZone?: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : formatter(timeZone).format(date)
}

const DAY = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })

/** A calendar day (`2026-09-01`, no time and no zone) in the reader's locale: "1 Sep 2026". */
export function formatDate(day: string): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`)
  return Number.isNaN(date.getTime()) ? day : DAY.format(date)
}
