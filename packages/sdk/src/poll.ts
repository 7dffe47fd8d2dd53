import type { Clock } from './clock.js'
import type { EventsMethods, OrgEvent } from './generated/resources.js'
import type { QueryOf, RequestOptions } from './types.js'

/** Options of `oeuvre.events.poll`. */
export interface PollOptions extends Omit<QueryOf<'v1ListOrgEvents'>, 'cursor'> {
  /** The cursor stored from an earlier run; without it the feed starts at the org's first event. */
  cursor?: string | null
  /**
   * Called with the feed's cursor once every event of a page has been handed to the loop and
   * the loop asked for more: store it (with what the events changed, if you can) and pass it
   * as `cursor` next time, to resume exactly after the last event processed.
   */
  onCursor?: (cursor: string) => void | Promise<void>
  /** How long to wait when the feed has nothing new (default 60 000 ms). */
  intervalMs?: number
  /** End the loop once the feed has nothing new, instead of waiting for more. */
  stopWhenIdle?: boolean
  /** Ends the loop (between pages, or while waiting); the loop then simply finishes. */
  signal?: AbortSignal
  /** Options of each page request. */
  request?: Omit<RequestOptions, 'signal'>
}

export const DEFAULT_POLL_INTERVAL_MS = 60_000

/**
 * The org event feed as an endless loop, oldest first: every event once, in `sequence` order,
 * resuming after a stored cursor. The feed returns its cursor on every page (also the last
 * and an empty one), so waiting and asking again with it yields only what was appended since.
 */
export async function* pollEvents(
  events: Pick<EventsMethods, 'list'>,
  clock: Clock,
  orgId: string,
  options: PollOptions = {},
): AsyncGenerator<OrgEvent, void, undefined> {
  const { cursor: start, onCursor, intervalMs, stopWhenIdle, signal, request, ...filters } = options
  let cursor = start ?? undefined
  for (;;) {
    if (signal?.aborted) return
    let page
    try {
      page = await events.list(orgId, { ...filters, ...(cursor ? { cursor } : {}) }, { ...request, signal })
    } catch (error) {
      if (signal?.aborted) return
      throw error
    }
    for (const event of page.data) yield event
    const next = page.pagination.cursor
    if (next !== null && next !== cursor) {
      await onCursor?.(next)
      cursor = next
    }
    if (page.pagination.hasMore) continue
    if (stopWhenIdle) return
    try {
      await clock.sleep(intervalMs ?? DEFAULT_POLL_INTERVAL_MS, signal)
    } catch (error) {
      if (signal?.aborted) return
      throw error
    }
  }
}
