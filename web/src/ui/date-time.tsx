import { formatDate, formatDateTime } from './format-date'

/**
 * One date format everywhere: the reader's language and time zone, with the zone named, and the
 * API's exact ISO text in `dateTime` and `title` (shown on hover).
 */
/** An instant: `<time>` with the ISO text to hover; "—" when there is none. */
export function DateTime({ value, timeZone }: { value: string | null | undefined; timeZone?: string | undefined }) {
  if (!value) return <>—</>
  return (
    <time dateTime={value} title={value}>
      {formatDateTime(value, timeZone)}
    </time>
  )
}

/** A calendar day (a period's start, a release date). */
export function CalendarDate({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>
  return (
    <time dateTime={value} title={value}>
      {formatDate(value)}
    </time>
  )
}

/** A period of calendar days: "1 Sep 2026 to 30 Sep 2026". */
export function Period({ start, end }: { start: string; end: string }) {
  return (
    <>
      <CalendarDate value={start} /> to <CalendarDate value={end} />
    </>
  )
}
