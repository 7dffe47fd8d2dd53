import type { PGlite } from '@electric-sql/pglite'
import { copyOutOverPglite } from './copy-out.js'
import { lockDataDirectory } from './data-dir-lock.js'
import {
  APP_ROLE,
  CHANNEL,
  INT8,
  parseInt8,
  type ListenHandlers,
  type SqlBackend,
  type SqlSession,
  type Subscription,
} from './sql-backend.js'

// PGlite: one in-process connection, shared through a queue.

class Mutex {
  private tail: Promise<void> = Promise.resolve()

  lock(): Promise<() => void> {
    let unlock!: () => void
    const next = new Promise<void>((resolve) => (unlock = resolve))
    const ready = this.tail.then(() => unlock)
    this.tail = this.tail.then(() => next)
    return ready
  }
}

/** The one in-process connection: its queue, its current role, the statements prepared on it. */
interface PgliteConnection {
  db: PGlite
  mutex: Mutex
  role: 'owner' | 'app'
  // One connection: what is prepared on it is prepared for every session.
  prepared: Set<string>
}

export async function createPgliteBackend(dataDir: string, options: { template?: Blob } = {}): Promise<SqlBackend> {
  // A data directory is one process's (src/db/data-dir-lock.ts); taken before PGlite reads a byte of it.
  const lock = dataDir.startsWith('memory://') ? null : lockDataDirectory(dataDir)
  let db: PGlite
  try {
    const { PGlite } = await import('@electric-sql/pglite')
    db = await PGlite.create(dataDir, {
      parsers: { [INT8]: parseInt8 },
      ...(options.template ? { loadDataDir: options.template } : {}),
    })
  } catch (error) {
    lock?.release()
    throw error
  }
  const connection: PgliteConnection = { db, mutex: new Mutex(), role: 'owner', prepared: new Set<string>() }
  return {
    kind: 'pglite',
    acquire: () => pgliteSession(connection, 'app'),
    acquireOwner: () => pgliteSession(connection, 'owner'),
    async end() {
      try {
        await db.close()
      } finally {
        lock?.release()
      }
    },
    listen: (channel, handlers) => pgliteListen(connection, channel, handlers),
    dump: async () => {
      const unlock = await connection.mutex.lock()
      try {
        return await db.dumpDataDir('none')
      } finally {
        unlock()
      }
    },
  }
}

async function pgliteSession(connection: PgliteConnection, wanted: 'owner' | 'app'): Promise<SqlSession> {
  const { db, mutex, prepared } = connection
  const unlock = await mutex.lock()
  try {
    // PGlite's only user is a superuser, which bypasses RLS even when forced: switch to the app role.
    if (connection.role !== wanted) {
      await db.exec(wanted === 'app' ? `set role ${APP_ROLE}` : 'reset role')
      connection.role = wanted
    }
  } catch (error) {
    unlock()
    throw error
  }
  let released = false
  return {
    prepared,
    query: async (sql, params) => {
      const result = await db.query<Record<string, unknown>>(sql, params as unknown[])
      return { rows: result.rows, affectedRows: result.affectedRows ?? 0 }
    },
    simple: async (sql) => {
      const results = await db.exec(sql)
      const last = results[results.length - 1]
      return { rows: (last?.rows ?? []) as Record<string, unknown>[], affectedRows: last?.affectedRows ?? 0 }
    },
    simpleAll: async (sql) =>
      (await db.exec(sql)).map((one) => ({
        rows: one.rows as Record<string, unknown>[],
        affectedRows: one.affectedRows ?? 0,
      })),
    copyOut: (query, onData) => copyOutOverPglite((message) => db.execProtocolRaw(message), query, onData),
    release: () => {
      if (released) return
      released = true
      unlock()
    },
  }
}

async function pgliteListen(
  { db, mutex }: PgliteConnection,
  channel: string,
  handlers: ListenHandlers,
): Promise<Subscription> {
  if (!CHANNEL.test(channel)) throw new Error(`invalid channel name ${channel}`)
  // LISTEN runs on the one connection: never inside someone else's open transaction.
  const unlock = await mutex.lock()
  let unlisten: () => Promise<void>
  try {
    unlisten = await db.listen(channel, (payload) => handlers.message(payload))
  } finally {
    unlock()
  }
  handlers.listening(true)
  return {
    async close() {
      const unlock = await mutex.lock()
      try {
        await unlisten()
      } finally {
        unlock()
      }
    },
  }
}
