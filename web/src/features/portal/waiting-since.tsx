import { useState } from 'react'
import { formatDateTime } from '../../ui'

/** "3 hours" from an instant to now, in the reader's language. */
function relative(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000))
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
  if (seconds < 60) return format.format(-seconds, 'second')
  if (seconds < 3600) return format.format(-Math.floor(seconds / 60), 'minute')
  if (seconds < 86_400) return format.format(-Math.floor(seconds / 3600), 'hour')
  return format.format(-Math.floor(seconds / 86_400), 'day')
}

/** How long something has waited ("waiting since 3 hours ago"), the exact time in the reader's zone on hover. */
export function WaitingSince({ iso }: { iso: string }) {
  const [now] = useState(() => Date.now())
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {relative(iso, now)}
    </time>
  )
}
