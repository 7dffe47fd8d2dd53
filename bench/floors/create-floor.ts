import { serveFloor } from './floor-server.js'

/**
 * The create floor: a bare Fastify route inserting one row into a bare table (no auth,
 * no validation schema, no transaction, no event, no idempotency), answering 201 with the
 * row, over pg (DATABASE_URL) or PGlite (DATA_DIR, DATABASE_URL empty).
 */
await serveFloor(async (app, db) => {
  await db.query(
    'create table if not exists bench_floor_rows (id bigserial primary key, body jsonb not null, created_at timestamptz not null default now())',
  )
  app.post('/api/revenue', async (request, reply) => {
    const { rows } = await db.query<{ id: number | string; created_at: Date }>(
      'insert into bench_floor_rows (body) values ($1) returning id, created_at',
      [JSON.stringify(request.body)],
    )
    reply.code(201)
    return { id: String(rows[0]!.id), createdAt: rows[0]!.created_at.toISOString(), ...(request.body as object) }
  })
})
