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

/** "2 Dec 2026, 10:15 UTC" in the reader's locale; `timeZone` (an IANA name) reads it on another clock. */
export function formatDateTime(iso: string, timeZone?: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  try {
    return new Intl.DateTimeFormat(undefined, timeZone ? { ...DATE_TIME, timeZone } : DATE_TIME).format(date)
  } catch {
    return new Intl.DateTimeFormat(undefined, DATE_TIME).format(date)
  }
}

/** A calendar day (`2026-09-01`, no time and no zone) in the reader's locale: "1 Sep 2026". */
export function formatDate(day: string): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`)
  if (Number.isNaN(date.getTime())) return day
  return new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(date)
}
