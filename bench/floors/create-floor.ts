import Fastify from 'fastify'
import pg from 'pg'

/**
 * The create floor: a bare Fastify route inserting one row into a bare table (no auth,
 * no validation schema, no transaction, no event, no idempotency), answering 201 with the row.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
await pool.query('create table if not exists bench_floor_rows (id bigserial primary key, body jsonb not null, created_at timestamptz not null default now())')
const app = Fastify({ logger: false })

app.post('/api/revenue', async (request, reply) => {
  const { rows } = await pool.query('insert into bench_floor_rows (body) values ($1) returning id, created_at', [JSON.stringify(request.body)])
  reply.code(201)
  return { id: String(rows[0].id), createdAt: rows[0].created_at.toISOString(), ...(request.body as object) }
})

const shutdown = async () => {
  await app.close()
  await pool.end()
  process.exit(0)
}
process.once('SIGTERM', shutdown)
process.once('SIGINT', shutdown)

const url = await app.listen({ port: 0, host: '127.0.0.1' })
process.stdout.write(`listening on ${url}\n`)
