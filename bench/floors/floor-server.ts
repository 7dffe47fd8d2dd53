import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import Fastify, { type FastifyInstance } from 'fastify'
import pg from 'pg'

/**
 * What every HTTP floor shares: the bare database it queries (a pg pool of 10 as the table
 * owner when DATABASE_URL is set, as Oeuvre's pool; otherwise PGlite in-process over
 * DATA_DIR as its superuser, as Oeuvre's embedded mode), a bare Fastify app, and the
 * process's start and stop. Prints `listening on <url>` once serving.
 */
export interface FloorDatabase {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>
  /**
   * Several statements (literals only) as one simple-protocol message: PostgreSQL runs them as
   * one implicit transaction, committed when the last succeeds and rolled back when one fails.
   */
  exec(text: string): Promise<void>
  close(): Promise<void>
}

async function openFloorDatabase(): Promise<FloorDatabase> {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
    // A statement with parameters is prepared once per connection (named by its text), as a plain pg app would.
    const names = new Map<string, string>()
    const nameOf = (text: string) => {
      let name = names.get(text)
      if (!name) names.set(text, (name = `floor_${names.size + 1}`))
      return name
    }
    return {
      query: async <Row>(text: string, params?: unknown[]) => ({
        rows: (await (params ? pool.query({ name: nameOf(text), text, values: params }) : pool.query(text)))
          .rows as Row[],
      }),
      exec: async (text) => {
        await pool.query(text)
      },
      close: () => pool.end(),
    }
  }
  const db = await PGlite.create(path.join(process.env.DATA_DIR ?? './data', 'pglite'))
  return {
    query: <Row>(text: string, params?: unknown[]) => db.query<Row>(text, params),
    exec: async (text) => {
      await db.exec(text)
    },
    close: () => db.close(),
  }
}

export async function serveFloor(routes: (app: FastifyInstance, db: FloorDatabase) => Promise<void>): Promise<void> {
  const db = await openFloorDatabase()
  const app = Fastify({ logger: false })
  await routes(app, db)
  const shutdown = async () => {
    await app.close()
    await db.close()
    process.exit(0)
  }
  process.once('SIGTERM', shutdown)
  process.once('SIGINT', shutdown)
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  process.stdout.write(`listening on ${url}\n`)
}
