import { once } from 'node:events'
import type { Socket } from 'node:net'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { SqlBackend, Subscription } from '../../db/sql-backend.js'
import type { Clock } from '../../platform/clock.js'
import { AppError } from '../../platform/errors.js'
import type { OrgEvent } from './audit.schemas.js'
import { feedCursorAfter, type AuditLog } from './audit.service.js'

/** The NOTIFY channel migration 0047 fills: one notification per org per appending statement. */
export const EVENTS_CHANNEL = 'org_events'
/** Events read per query while a stream catches up. */
const CATCH_UP_PAGE = 100

/** A stream's reads: the feed's own, unfiltered, a page at a time. */
export function feedReader(audit: Pick<AuditLog, 'list'>): StreamDeps['read'] {
  return async (orgId, cursor) => {
    const page = await audit.list(orgId, { limit: CATCH_UP_PAGE, ...(cursor === undefined ? {} : { cursor }) })
    return { data: page.data, cursor: page.pagination.cursor, more: page.pagination.hasMore }
  }
}

/**
 * One node's subscriptions to org events: one LISTEN connection for every stream the node
 * serves, opened with the first. A notification wakes the streams of its org; a listening
 * connection lost and regained wakes them all (what it missed, they re-read).
 */
export interface EventHub {
  /** `end` is called when the node shuts down (the stream then closes; clients reconnect elsewhere). */
  subscribe(orgId: string, wake: () => void, end: () => void): () => void
  /** Counts a client's open stream; false when it already holds `max`. */
  admit(clientKey: string, max: number): boolean
  release(clientKey: string): void
  stats(): { streams: number; listening: boolean }
  close(): Promise<void>
}

export function createEventHub(backend: Pick<SqlBackend, 'listen'>): EventHub {
  const byOrg = new Map<string, Set<() => void>>()
  const ends = new Set<() => void>()
  const perClient = new Map<string, number>()
  let subscription: Promise<Subscription> | null = null
  let listening = false
  const wakeAll = () => byOrg.forEach((wakes) => wakes.forEach((wake) => wake()))

  function listen(): void {
    if (subscription) return
    subscription = backend.listen(EVENTS_CHANNEL, {
      message: (orgId) => byOrg.get(orgId)?.forEach((wake) => wake()),
      listening: (flowing) => {
        listening = flowing
        wakeAll()
      },
    })
    subscription.catch(() => {
      subscription = null
    })
  }

  return {
    subscribe(orgId, wake, end) {
      listen()
      const wakes = byOrg.get(orgId) ?? new Set()
      wakes.add(wake)
      byOrg.set(orgId, wakes)
      ends.add(end)
      return () => {
        ends.delete(end)
        wakes.delete(wake)
        if (wakes.size === 0) byOrg.delete(orgId)
      }
    },
    admit(clientKey, max) {
      const open = perClient.get(clientKey) ?? 0
      if (open >= max) return false
      perClient.set(clientKey, open + 1)
      return true
    },
    release(clientKey) {
      const open = (perClient.get(clientKey) ?? 1) - 1
      if (open <= 0) perClient.delete(clientKey)
      else perClient.set(clientKey, open)
    },
    stats: () => ({ streams: [...byOrg.values()].reduce((sum, wakes) => sum + wakes.size, 0), listening }),
    async close() {
      for (const end of [...ends]) end()
      byOrg.clear()
      const pending = subscription
      subscription = null
      if (pending) await (await pending.catch(() => null))?.close()
    },
  }
}

export interface StreamDeps {
  hub: EventHub
  clock: Clock
  /** The feed read (audit.list): the stream yields exactly what a poll from its cursor would. */
  read(orgId: string, cursor: string | undefined): Promise<{ data: OrgEvent[]; cursor: string | null; more: boolean }>
  heartbeatMs: number
  maxPerClient: number
}

export interface StreamRequest {
  orgId: string
  /** Last-Event-ID, or ?cursor=: where a poll would resume. */
  cursor: string | undefined
  /** Whose streams are counted against the limit (a client, or a session's user). */
  clientKey: string
  /** When the credential ends: the stream then closes with a token_expired event. */
  expiresAt: Date | null
}

const streamHeaders = (requestId: string) => ({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
  // A stream's connection is not reused: when it ends, so does the socket.
  connection: 'close',
  'x-request-id': requestId,
})

const TOKEN_EXPIRED =
  'event: token_expired\ndata: {"code":"token_expired","detail":"The access token has expired; request a new one and reconnect with Last-Event-ID"}\n\n'
const READ_FAILED = 'event: error\ndata: {"code":"service_unavailable","detail":"Reconnect with Last-Event-ID"}\n\n'

const frame = (event: OrgEvent) =>
  `id: ${feedCursorAfter(event.sequence)}\nevent: org_event\ndata: ${JSON.stringify(event)}\n\n`

/** Every heartbeat: the stream ends once its credential has, else a comment and a re-read. */
function startHeartbeat(
  deps: Pick<StreamDeps, 'clock' | 'heartbeatMs'>,
  expiresAt: Date | null,
  on: { expired(): void; beat(): void },
): NodeJS.Timeout {
  return setInterval(() => {
    if (expiresAt && deps.clock.now().getTime() >= expiresAt.getTime()) on.expired()
    else on.beat()
  }, deps.heartbeatMs)
}

/**
 * Serves one stream: the events after the cursor, then each as it commits, until the client
 * goes or its credential expires. The first read happens before the answer starts, so a bad
 * cursor is a 400 like a poll's; from then on the socket is the stream's.
 */
export async function serveStream(
  deps: StreamDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  stream: StreamRequest,
): Promise<void> {
  const first = await deps.read(stream.orgId, stream.cursor)
  if (!deps.hub.admit(stream.clientKey, deps.maxPerClient))
    throw new AppError('too_many_streams', `At most ${deps.maxPerClient} event streams may be open at once`)
  reply.hijack()
  const raw = reply.raw
  raw.writeHead(200, streamHeaders(String(request.id)))
  let cursor = stream.cursor
  let closed = false
  let dirty = false
  let pumping: Promise<void> | null = null

  const write = async (text: string) => {
    if (!closed && !raw.write(text)) await Promise.race([once(raw, 'drain'), once(raw, 'close')])
  }
  const send = async (page: { data: OrgEvent[]; cursor: string | null }) => {
    for (const event of page.data) await write(frame(event))
    cursor = page.cursor ?? cursor
  }
  const pump = async () => {
    while (dirty && !closed) {
      dirty = false
      for (let more = true; more && !closed;) {
        const page = await deps.read(stream.orgId, cursor)
        await send(page)
        more = page.more
      }
    }
  }
  const wake = () => {
    dirty = true
    pumping ??= pump()
      .catch((error: unknown) => {
        request.log.error({ err: error }, 'event stream read failed')
        finish(READ_FAILED)
      })
      .finally(() => {
        pumping = null
        if (dirty && !closed) wake()
      })
  }
  const finish = (last?: string) => {
    if (closed) return
    if (last) raw.write(last)
    closed = true
    raw.end()
  }
  // What the stream holds once caught up: its subscription and its heartbeat.
  const live: { unsubscribe(): void; heartbeat?: NodeJS.Timeout } = { unsubscribe: () => undefined }
  // An injected request (tests) has a stand-in socket without destroy.
  const socket = request.raw.socket as Partial<Socket> | undefined
  raw.on('close', () => {
    // The connection is the stream's alone (Connection: close): it goes with it.
    socket?.destroy?.()
    closed = true
    clearInterval(live.heartbeat)
    live.unsubscribe()
    deps.hub.release(stream.clientKey)
  })
  await write(': connected\n\n')
  await send(first)
  if (closed) return
  // Woken only from here on: a wake during the catch-up would read from the cursor it started with.
  live.unsubscribe = deps.hub.subscribe(stream.orgId, wake, () => finish())
  live.heartbeat = startHeartbeat(deps, stream.expiresAt, {
    expired: () => finish(TOKEN_EXPIRED),
    // A notification lost (a listening connection down) is made good here at the latest.
    beat: () => void write(': heartbeat\n\n').then(wake),
  })
  // What committed between the first read and the subscription (or past its first page): read again.
  wake()
}
