import { sql } from 'kysely'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import type { Config } from '../../config.js'
import type { Database } from '../../database.js'
import { DAY, type Clock } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import { AppError, notFound } from '../../platform/errors.js'
import { decodeCursor, olderThan, type Page, toPage } from '../../platform/pagination.js'
import type { ClientRequest, ClientRequestQuery } from './oauth.schemas.js'

/** How long a client's requests are kept. */
export const REQUEST_LOG_RETENTION_DAYS = 30
/** Rows the retention job deletes per round (a busy round runs again at once). */
const PRUNE_BATCH = 5000

/** One request as buffered: no body, no header, no secret; the route pattern, not the path sent. */
export interface RecordedRequest {
  clientId: string
  /** The client's org when the request resolved it (an access token); looked up when the batch is written. */
  orgId?: string
  at: Date
  method: string
  path: string
  status: number
  latencyMs: number
  requestId: string
  address: string
  /** A refused request's stable code and detail, as its answer gave them. */
  errorCode?: string
  errorDetail?: string
}

/** What the log keeps of a refusal's detail. */
const DETAIL_KEPT = 500

export interface RequestLog {
  /** Buffers a request (never waits for the database); the oldest is dropped when the buffer is full. */
  record(entry: RecordedRequest): void
  /** Writes everything buffered until now; resolves once it is written (tests, shutdown). */
  flush(): Promise<void>
  /** Starts the periodic flush (the API's lifecycle: on ready); failed batches are logged to `log`. */
  start(log?: Pick<FastifyBaseLogger, 'error'>): void
  /** Stops the periodic flush and writes what is left. */
  close(): Promise<void>
  /** Rows waiting for the next batch. */
  buffered(): number
  /** Rows dropped, by reason: `buffer_full` (writes lagged) or `write_failed` (a batch the database refused). */
  dropped(): { buffer_full: number; write_failed: number }
  /** Deletes rows older than the retention (the worker's job); returns how many. */
  prune(): Promise<number>
  /** One client's requests, newest first. */
  list(ctx: RequestContext, clientId: string, query: ClientRequestQuery): Promise<Page<ClientRequest>>
}

const STATUS_CLASS = /^([1-5])xx$/

export interface RequestLogDeps {
  db: Database
  clock: Clock
  config: Config
}

/** Where failed batches are reported, and the drops counted so far. */
interface WriteState {
  log: Pick<FastifyBaseLogger, 'error'> | undefined
  drops: { buffer_full: number; write_failed: number }
}

export function createRequestLog(deps: RequestLogDeps): RequestLog {
  const { db, clock } = deps
  const { flushMs, batchRows, bufferRows } = deps.config.requestLog
  const state: WriteState = { log: undefined, drops: { buffer_full: 0, write_failed: 0 } }
  const buffer: RecordedRequest[] = []
  let writing: Promise<void> | null = null
  let scheduled = false
  let timer: NodeJS.Timeout | null = null

  /** Writes what is buffered now, in batches of at most `batchRows` (one INSERT each per org). */
  async function flush(): Promise<void> {
    while (writing) await writing
    let remaining = buffer.length
    while (remaining > 0 && buffer.length > 0) {
      const batch = buffer.splice(0, Math.min(batchRows, buffer.length))
      remaining -= batch.length
      writing = writeBatch(db, state, batch).finally(() => {
        writing = null
      })
      await writing
      while (writing) await writing
    }
  }

  /** A full batch is written on the next turn of the event loop, never in the request's own. */
  function flushSoon(): void {
    if (scheduled) return
    scheduled = true
    setImmediate(() => {
      scheduled = false
      void flush()
    })
  }

  return {
    record(entry) {
      if (buffer.length >= bufferRows) {
        buffer.shift()
        state.drops.buffer_full += 1
      }
      buffer.push(entry)
      if (buffer.length >= batchRows) flushSoon()
    },
    flush,
    start(appLog) {
      if (appLog) state.log = appLog
      if (timer) return
      timer = setInterval(() => void flush(), flushMs)
      timer.unref()
    },
    async close() {
      if (timer) clearInterval(timer)
      timer = null
      await flush()
    },
    buffered: () => buffer.length,
    dropped: () => ({ ...state.drops }),
    async prune() {
      const before = new Date(clock.now().getTime() - REQUEST_LOG_RETENTION_DAYS * DAY)
      const result = await sql<{
        pruned: string | bigint
      }>`select prune_client_requests(${before}, ${PRUNE_BATCH}) as pruned`.execute(db.global)
      return Number(result.rows[0]?.pruned ?? 0)
    },
    list: (ctx, clientId, query) => listRequests(db, ctx, clientId, query),
  }
}

/** The org of each entry: known for /v1 requests, looked up for token requests (unknown clients left out). */
async function withOrgs(db: Database, batch: RecordedRequest[]): Promise<Map<string, RecordedRequest[]>> {
  const unplaced = [...new Set(batch.filter((entry) => entry.orgId === undefined).map((entry) => entry.clientId))]
  const orgOf = new Map<string, string>()
  if (unplaced.length > 0) {
    const found = await sql<{
      client_id: string
      org_id: string
    }>`select client_id, org_id from oauth_client_orgs(${unplaced}::text[])`.execute(db.global)
    for (const row of found.rows) orgOf.set(row.client_id, row.org_id)
  }
  const byOrg = new Map<string, RecordedRequest[]>()
  for (const entry of batch) {
    const orgId = entry.orgId ?? orgOf.get(entry.clientId)
    if (orgId === undefined) continue
    const rows = byOrg.get(orgId)
    if (rows) rows.push(entry)
    else byOrg.set(orgId, [entry])
  }
  return byOrg
}

/** One org's rows in one INSERT, and one UPDATE per client: its latest request that authenticated. */
async function writeOrg(db: Database, orgId: string, entries: RecordedRequest[]): Promise<void> {
  const latest = new Map<string, RecordedRequest>()
  for (const entry of entries) {
    // A failed secret (401) is not a use of the client.
    if (entry.status === 401) continue
    const seen = latest.get(entry.clientId)
    if (!seen || seen.at.getTime() <= entry.at.getTime()) latest.set(entry.clientId, entry)
  }
  await db.tx({ orgId }, async (tx) => {
    await tx
      .insertInto('client_requests')
      .values(
        entries.map((entry) => ({
          org_id: orgId,
          client_id: entry.clientId,
          at: entry.at,
          method: entry.method,
          path: entry.path,
          status: entry.status,
          latency_ms: entry.latencyMs,
          request_id: entry.requestId,
          address: entry.address,
          error_code: entry.errorCode ?? null,
          error_detail: entry.errorDetail ?? null,
        })),
      )
      .execute()
    for (const entry of latest.values()) {
      // Another node's older batch never moves it back.
      await tx
        .updateTable('oauth_clients')
        .set({ last_used_at: entry.at, last_used_from: entry.address })
        .where('org_id', '=', orgId)
        .where('id', '=', entry.clientId)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', entry.at)]))
        .execute()
    }
  })
}

async function writeBatch(db: Database, state: WriteState, batch: RecordedRequest[]): Promise<void> {
  let byOrg: Map<string, RecordedRequest[]>
  try {
    byOrg = await withOrgs(db, batch)
  } catch (error) {
    state.drops.write_failed += batch.length
    state.log?.error({ err: error, rows: batch.length }, 'request log batch not written')
    return
  }
  for (const [orgId, entries] of byOrg) {
    try {
      await writeOrg(db, orgId, entries)
    } catch (error) {
      // Not retried: a batch the database refuses would hold up every later one.
      state.drops.write_failed += entries.length
      state.log?.error({ err: error, rows: entries.length }, 'request log batch not written')
    }
  }
}

async function listRequests(
  db: Database,
  ctx: RequestContext,
  clientId: string,
  query: ClientRequestQuery,
): Promise<Page<ClientRequest>> {
  const filters = { status: query.status, path: query.path }
  const after = decodeCursor(query.cursor, filters, 2)
  const rows = await db.read(ctx.orgId, async (reader) => {
    const client = await reader
      .selectFrom('oauth_clients')
      .select('id')
      .where('org_id', '=', ctx.orgId)
      .where('id', '=', clientId)
      .executeTakeFirst()
    if (!client) throw notFound('client')
    let select = reader
      .selectFrom('client_requests')
      .select([
        'id',
        'at',
        'method',
        'path',
        'status',
        'latency_ms',
        'request_id',
        'address',
        'error_code',
        'error_detail',
      ])
      .where('org_id', '=', ctx.orgId)
      .where('client_id', '=', clientId)
    if (query.status !== undefined) {
      const statusClass = STATUS_CLASS.exec(query.status)
      if (statusClass) {
        const low = Number(statusClass[1]) * 100
        select = select.where('status', '>=', low).where('status', '<', low + 100)
      } else select = select.where('status', '=', Number(query.status))
    }
    if (query.path !== undefined) select = select.where('path', '=', query.path)
    if (after) {
      if (!/^\d{1,19}$/.test(String(after[1])))
        throw new AppError('invalid_cursor', 'cursor is not one this service issued', { param: 'cursor' })
      select = select.where(olderThan(after, 'at', 'id'))
    }
    return select
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit + 1)
      .execute()
  })
  return toPage(
    rows,
    query.limit,
    (row) => [row.at.toISOString(), String(row.id)],
    (row) => ({
      at: row.at.toISOString(),
      method: row.method,
      path: row.path,
      status: row.status,
      latencyMs: row.latency_ms,
      requestId: row.request_id,
      address: row.address,
      errorCode: row.error_code,
      errorDetail: row.error_detail,
    }),
    filters,
  )
}

/** `/v1/orgs/:orgId/events` as `/v1/orgs/{orgId}/events`, computed once per route. */
const patterns = new Map<string, string>()
function routePattern(url: string): string {
  let pattern = patterns.get(url)
  if (pattern === undefined) {
    pattern = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
    patterns.set(url, pattern)
  }
  return pattern
}

/**
 * Records every /v1 and /oauth/token request that carried a client's credentials, once it has
 * been answered. A callback hook: nothing is awaited, so the response is never held up.
 */
export function registerRequestLog(app: FastifyInstance, requestLog: RequestLog, clock: Clock): void {
  app.addHook('onReady', async () => requestLog.start(app.log))
  app.addHook('onClose', () => requestLog.close())
  app.addHook('onResponse', (request, reply, done) => {
    const client = request.credentialClient
    const url = request.routeOptions.url
    if (client !== undefined && url !== undefined && (url.startsWith('/v1/') || url === '/oauth/token')) {
      requestLog.record({
        clientId: client.id,
        ...(client.orgId === undefined ? {} : { orgId: client.orgId }),
        at: clock.now(),
        method: request.method,
        path: routePattern(url),
        status: reply.statusCode,
        latencyMs: Math.round(reply.elapsedTime),
        requestId: String(request.id),
        address: request.ip,
        ...(request.refusal && reply.statusCode >= 400
          ? { errorCode: request.refusal.code, errorDetail: request.refusal.detail.slice(0, DETAIL_KEPT) }
          : {}),
      })
    }
    done()
  })
}
