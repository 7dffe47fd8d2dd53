import pg from 'pg'
import { isConnectionLoss } from './connection-loss.js'
import { copyOutOverPg, type CopyDataHandler } from './copy-out.js'

export interface SqlResult {
  rows: Record<string, unknown>[]
  affectedRows: number
}

/** One exclusive connection, checked out from the backend. */
export interface SqlSession {
  /** Extended protocol: one statement with parameters. */
  query(sql: string, params: readonly unknown[]): Promise<SqlResult>
  /** Simple protocol: several literal-only statements in one round trip; the last result is returned. */
  simple(sql: string): Promise<SqlResult>
  /** The same, with every statement's result, in order. */
  simpleAll(sql: string): Promise<SqlResult[]>
  /**
   * `COPY (<query>) TO STDOUT (FORMAT binary)`, each CopyData message's payload (a row; the
   * first also holds the header) handed to `onData` where it lies, as it arrives from a server,
   * all at once from PGlite. RLS applies as to any query of the session.
   */
  copyOut(query: string, onData: CopyDataHandler): Promise<void>
  /**
   * The statements prepared on the connection under this session (src/db/statement-cache.ts):
   * the connection's, so it outlives a checkout and is empty on a new connection.
   */
  readonly prepared: Set<string>
  release(): void
}

/** What a `listen` subscriber is told. */
export interface ListenHandlers {
  /** A NOTIFY payload on the channel (delivered when the notifying transaction commits). */
  message(payload: string): void
  /**
   * Whether notifications are flowing: false when the listening connection was lost (some
   * may have been missed), true when it listens (again).
   */
  listening(flowing: boolean): void
}

export interface Subscription {
  close(): Promise<void>
}

/** A LISTEN channel's name: spliced into the statement, so letters and underscores only. */
export const CHANNEL = /^[a-z_]{1,63}$/

export interface SqlBackend {
  readonly kind: 'pg' | 'pglite'
  /** A connection running as the application role (RLS applies). */
  acquire(): Promise<SqlSession>
  /** A connection running as the table owner: migrations and operator tools only. */
  acquireOwner(): Promise<SqlSession>
  end(): Promise<void>
  /** NOTIFY payloads on `channel`, from every process on the database (this one included). */
  listen(channel: string, handlers: ListenHandlers): Promise<Subscription>
  /** PGlite only: the whole data directory as a tarball (test templates). */
  dump?(): Promise<Blob>
}

export const APP_ROLE = 'oeuvre_app'

/**
 * One statement as the table owner, on a connection of its own released at once (PGlite has
 * one connection: nothing else runs while it is held). With `params`, the extended protocol;
 * without, the simple one (several statements, or commands such as VACUUM that take none).
 */
export async function asOwner(backend: SqlBackend, sql: string, params?: readonly unknown[]): Promise<SqlResult> {
  const session = await backend.acquireOwner()
  try {
    return params ? await session.query(sql, params) : await session.simple(sql)
  } finally {
    session.release()
  }
}

/** int8 (bigint) columns come back as bigint, on both backends. */
export const INT8 = 20
export const parseInt8 = (value: string): bigint => BigInt(value)

// ---------------------------------------------------------------------------
// PostgreSQL server through `pg`

const pgTypes = {
  getTypeParser(oid: number, format?: string) {
    if (oid === INT8) return parseInt8
    return pg.types.getTypeParser(oid, format as 'text')
  },
}

function lastResult(result: pg.QueryResult | pg.QueryResult[]): SqlResult {
  const last = Array.isArray(result) ? result[result.length - 1] : result
  return { rows: last?.rows ?? [], affectedRows: last?.rowCount ?? 0 }
}

function allResults(result: pg.QueryResult | pg.QueryResult[]): SqlResult[] {
  return (Array.isArray(result) ? result : [result]).map((one) => ({
    rows: one.rows ?? [],
    affectedRows: one.rowCount ?? 0,
  }))
}

/** The socket under a pg client (pg does not type it). */
function socketOf(client: pg.ClientBase): { cork(): void; uncork(): void } | undefined {
  return (client as unknown as { connection?: { stream?: { cork(): void; uncork(): void } } }).connection?.stream
}

/**
 * An extended-protocol query: pg writes Parse, Bind, Describe, Execute and Sync one by one;
 * corked, they leave in one write (one system call, and the server wakes once).
 */
function corkedQuery(client: pg.ClientBase, sql: string, params: readonly unknown[]): Promise<pg.QueryResult> {
  const socket = socketOf(client)
  socket?.cork()
  try {
    return client.query({ text: sql, values: params as unknown[] })
  } finally {
    socket?.uncork()
  }
}

/** How long to wait for a connection (a new one, or a free one of the pool) before giving up: a request then answers 503. */
const CONNECT_TIMEOUT_MS = 5_000

/** Connection settings of every client: bounded connect, and TCP keepalive so a vanished server is noticed. */
const clientSettings = {
  connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
}

/**
 * A pg client as a session (simple: pg sends a parameterless query as one simple-protocol message).
 * `release` hears the connection error the session saw, if any: a broken client must not be reused.
 */
function pgSession(
  client: pg.ClientBase,
  prepared: Set<string>,
  release: (broken: Error | undefined) => void,
): SqlSession {
  let broken: Error | undefined
  let released = false
  // pg emits 'error' on a client whose connection drops; unheard, that event would end the process.
  const onError = (error: Error) => void (broken ??= error)
  client.on('error', onError)
  // A failure that lost the connection marks the client broken too (pg emits 'error' for it later, or not at all).
  const watched =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await run(...args)
      } catch (error) {
        if (isConnectionLoss(error)) broken ??= error as Error
        throw error
      }
    }
  return {
    prepared,
    query: watched(async (sql, params) => lastResult(await corkedQuery(client, sql, params))),
    simple: watched(async (sql) => lastResult((await client.query(sql)) as pg.QueryResult | pg.QueryResult[])),
    simpleAll: watched(async (sql) => allResults((await client.query(sql)) as pg.QueryResult | pg.QueryResult[])),
    copyOut: watched((query, onData) => copyOutOverPg(client, query, onData)),
    release: () => {
      if (released) return
      released = true
      client.off('error', onError)
      release(broken)
    },
  }
}

export function createPgBackend(connectionString: string, options: { max?: number } = {}): SqlBackend {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10, types: pgTypes, ...clientSettings })
  const assumedRole = new WeakSet<pg.PoolClient>()
  // A client the pool replaces (after an error) takes its prepared statements with it: a new one starts empty.
  const preparedOn = new WeakMap<pg.PoolClient, Set<string>>()
  // A pool error on an idle client must not crash the process; the pool drops it and the next checkout reconnects.
  pool.on('error', () => undefined)

  function wrap(client: pg.PoolClient): SqlSession {
    let prepared = preparedOn.get(client)
    if (!prepared) {
      prepared = new Set()
      preparedOn.set(client, prepared)
    }
    // A broken client is closed and dropped from the pool (release with an error), never handed out again.
    return pgSession(client, prepared, (broken) => client.release(broken))
  }

  return {
    kind: 'pg',
    async acquire() {
      const client = await pool.connect()
      const session = wrap(client)
      if (!assumedRole.has(client)) {
        try {
          await session.simple(`set role ${APP_ROLE}`)
        } catch (error) {
          session.release()
          throw error
        }
        assumedRole.add(client)
      }
      return session
    },
    async acquireOwner() {
      const client = new pg.Client({ connectionString, types: pgTypes, ...clientSettings })
      // Heard from the start: the connection can drop while it is being made.
      client.on('error', () => undefined)
      await client.connect()
      return pgSession(client, new Set(), () => void client.end().catch(() => undefined))
    },
    end: () => pool.end(),
    listen: (channel, handlers) => listenOverPg(connectionString, channel, handlers),
  }
}

const RELISTEN_MS = 1000

/**
 * A dedicated connection that LISTENs on the channel, reconnecting after a loss. Handlers
 * hear `listening(false)` when it drops and `listening(true)` once it listens again, so a
 * subscriber can distrust what it learned while notifications could not arrive.
 */
async function listenOverPg(
  connectionString: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<Subscription> {
  if (!CHANNEL.test(channel)) throw new Error(`invalid channel name ${channel}`)
  let current: pg.Client | null = null
  let closed = false
  let retry: NodeJS.Timeout | undefined

  const lost = (client: pg.Client) => {
    if (current !== client) return
    current = null
    handlers.listening(false)
    void client.end().catch(() => undefined)
    schedule()
  }
  const schedule = () => {
    if (closed) return
    retry = setTimeout(() => void connect().catch(schedule), RELISTEN_MS)
    retry.unref()
  }
  const connect = async () => {
    const client = new pg.Client({ connectionString, ...clientSettings })
    client.on('notification', (notice) => {
      if (notice.channel === channel && notice.payload !== undefined) handlers.message(notice.payload)
    })
    client.on('error', () => lost(client))
    client.on('end', () => lost(client))
    try {
      await client.connect()
      await client.query(`listen ${channel}`)
    } catch (error) {
      void client.end().catch(() => undefined)
      throw error
    }
    if (closed) {
      await client.end()
      return
    }
    current = client
    handlers.listening(true)
  }

  await connect().catch(schedule)
  return {
    async close() {
      closed = true
      clearTimeout(retry)
      const client = current
      current = null
      await client?.end().catch(() => undefined)
    },
  }
}
