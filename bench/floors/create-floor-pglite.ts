import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import Fastify from 'fastify'

/**
 * The create floor on PGlite: create-floor.ts's bare route (one row into a bare table, no auth,
 * no validation schema, no transaction, no event, no idempotency, 201 with the row) on PGlite
 * in-process over Oeuvre's DATA_DIR. `DATA_DIR=... node --import tsx bench/floors/create-floor-pglite.ts` prints `listening on <url>`.
 */
const db = await PGlite.create(path.join(process.env.DATA_DIR ?? './data', 'pglite'))
await db.exec('create table if not exists bench_floor_rows (id bigserial primary key, body jsonb not null, created_at timestamptz not null default now())')
const app = Fastify({ logger: false })

app.post('/api/revenue', async (request, reply) => {
  const { rows } = await db.query<{ id: number; created_at: Date }>('insert into bench_floor_rows (body) values ($1) returning id, created_at', [JSON.stringify(request.body)])
  reply.code(201)
  return { id: String(rows[0]!.id), createdAt: rows[0]!.created_at.toISOString(), ...(request.body as object) }
})

const shutdown = async () => {
  await app.close()
  await db.close()
  process.exit(0)
}
process.once('SIGTERM', shutdown)
process.once('SIGINT', shutdown)

const url = await app.listen({ port: 0, host: '127.0.0.1' })
process.stdout.write(`listening on ${url}\n`)
