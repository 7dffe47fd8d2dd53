import { sql } from 'kysely'
import pg from 'pg'
import type { Database, Tx } from '../src/database.js'

/**
 * Row locks between sessions, on a PostgreSQL server. PGlite is one connection, on which one
 * transaction runs at a time: two sessions' locks never meet there, so tests of their order
 * run on PostgreSQL (CI's second pass) only.
 */
export const onPostgres = Boolean(process.env.OEUVRE_TEST_DATABASE_URL)

/** A transaction held open after `lock` ran, until `release`; `pid` is its server backend. */
export interface HeldTransaction {
  pid: number
  release(): void
  /** Settles once the transaction has committed (or failed). */
  done: Promise<void>
}

export async function holdTransaction(
  db: Database,
  orgId: string,
  lock: (tx: Tx) => Promise<unknown>,
): Promise<HeldTransaction> {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  let held!: (pid: number) => void
  let failed!: (error: unknown) => void
  const holding = new Promise<number>((resolve, reject) => {
    held = resolve
    failed = reject
  })
  const done = db.tx({ orgId }, async (tx) => {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx)
    await lock(tx)
    held(rows[0]!.pid)
    await released
  })
  done.catch(failed)
  return { pid: await holding, release, done }
}

/** Watches the server's sessions from a connection of its own (the test run's superuser). */
export class LockObserver {
  private constructor(private readonly client: pg.Client) {}

  static async open(): Promise<LockObserver> {
    const client = new pg.Client({ connectionString: process.env.OEUVRE_TEST_DATABASE_URL })
    await client.connect()
    return new LockObserver(client)
  }

  /**
   * How many sessions wait now behind the backend `pid`: for a lock it holds, or behind another
   * session that does (the second waiter for a row waits for the first, which holds the row's
   * tuple lock while it waits for the holder's transaction).
   */
  async blockedBy(pid: number): Promise<number> {
    const { rows } = await this.client.query<{ waiting: string }>(
      `with recursive behind (pid) as (
         select a.pid from pg_stat_activity a where $1 = any(pg_blocking_pids(a.pid))
         union
         select a.pid from pg_stat_activity a join behind b on b.pid = any(pg_blocking_pids(a.pid))
       )
       select count(*) as waiting from behind`,
      [pid],
    )
    return Number(rows[0]!.waiting)
  }

  close(): Promise<void> {
    return this.client.end()
  }
}
