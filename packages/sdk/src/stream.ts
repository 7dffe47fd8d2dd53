import type { Clock } from './clock.js'
import { OeuvreError } from './errors.js'
import type { OrgEvent } from './generated/resources.js'

/** Options of `oeuvre.events.stream`. */
export interface StreamOptions {
  /** The cursor stored from an earlier run (a poll's or an event's); without it the stream starts at the org's first event. */
  cursor?: string | null
  /** Called with each event's cursor once the loop asked for the next event: store it to resume after that event. */
  onCursor?: (cursor: string) => void | Promise<void>
  /** Ends the stream; the loop then simply finishes. */
  signal?: AbortSignal
  /** The longest wait between reconnections (default 30 000 ms; the first waits are shorter). */
  maxBackoffMs?: number
}

export const DEFAULT_MAX_STREAM_BACKOFF_MS = 30_000

/** Opens the stream at `path`, resuming after `lastEventId`: the transport's, with the client's token. */
export type StreamOpener = (path: string, lastEventId: string | undefined, signal?: AbortSignal) => Promise<Response>

interface Frame {
  id?: string
  event?: string
  data?: string
}

/** Server-sent event frames as they arrive (comments and retry hints left out). */
async function* framesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame, void, undefined> {
  const decoder = new TextDecoder()
  let buffer = ''
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame: Frame = {}
      for (const line of buffer.slice(0, end).split('\n')) {
        const colon = line.indexOf(':')
        if (colon <= 0) continue
        const field = line.slice(0, colon)
        const value = line.slice(colon + 1).replace(/^ /, '')
        if (field === 'id' || field === 'event' || field === 'data') frame[field] = value
      }
      buffer = buffer.slice(end + 2)
      if (frame.event !== undefined || frame.data !== undefined) yield frame
    }
  }
}

/** Whether reconnecting could help: no answer, a 5xx, a 429, or a token that expired (a new one is fetched). */
const transient = (error: unknown): boolean =>
  !(error instanceof OeuvreError) ||
  error.status === undefined ||
  error.status >= 500 ||
  error.status === 429 ||
  error.code === 'invalid_token'

/**
 * The org event feed as it commits, oldest first from `cursor`: every event once, in
 * `sequence` order. A dropped connection, a restarted node or an expired token reconnects
 * with Last-Event-ID after a backoff (0.5 s doubling to `maxBackoffMs`), so nothing is
 * skipped or repeated; an error that reconnecting cannot fix (403, 404, a bad cursor) is thrown.
 */
export async function* streamEvents(
  open: StreamOpener,
  clock: Clock,
  orgId: string,
  options: StreamOptions = {},
): AsyncGenerator<OrgEvent, void, undefined> {
  const { signal, onCursor } = options
  const path = `/v1/orgs/${encodeURIComponent(orgId)}/events/stream`
  let cursor = options.cursor ?? undefined
  let failures = 0
  while (!signal?.aborted) {
    try {
      const response = await open(path, cursor, signal)
      for await (const frame of framesOf(response.body!)) {
        if (frame.event !== 'org_event' || frame.data === undefined || frame.id === undefined) continue
        failures = 0
        yield JSON.parse(frame.data) as OrgEvent
        cursor = frame.id
        await onCursor?.(cursor)
      }
    } catch (error) {
      if (signal?.aborted) return
      if (!transient(error)) throw error
    }
    const wait = Math.min(500 * 2 ** failures, options.maxBackoffMs ?? DEFAULT_MAX_STREAM_BACKOFF_MS)
    failures += 1
    try {
      await clock.sleep(wait, signal)
    } catch {
      if (signal?.aborted) return
    }
  }
}
