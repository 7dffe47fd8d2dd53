/**
 * `<input type="datetime-local">` and `<input type="date">` hold the reader's wall-clock time with no
 * zone; the API takes ISO instants. These convert between the two in the reader's time zone.
 */

const pad = (value: number) => String(value).padStart(2, '0')

/** An instant as a datetime-local value (`2026-12-02T16:30`) on the reader's clock. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** A datetime-local value read on the reader's clock, as an ISO instant; undefined when empty or not a time. */
export function localInputToIso(value: string): string | undefined {
  if (!value) return undefined
  const date = new Date(value.length === 10 ? `${value}T00:00` : value)
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString()
}

/** A date input's day (`2026-12-02`) as the ISO instant its end is on the reader's clock (the next midnight). */
export function localDayEndToIso(value: string): string | undefined {
  const start = localInputToIso(value)
  if (!start) return undefined
  const date = new Date(start)
  date.setDate(date.getDate() + 1)
  return date.toISOString()
}

/** An ISO instant as the day (`2026-12-02`) it falls on, on the reader's clock. */
export function isoToLocalDay(iso: string | undefined): string {
  if (!iso) return ''
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? '' : toLocalInput(date).slice(0, 10)
}
