import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import Fastify from 'fastify'

/**
 * The feed's floor on PGlite: a bare Fastify route running the same keyset query as
 * feed-floor.ts, with the same row-to-JSON mapping, on PGlite in-process over Oeuvre's
 * DATA_DIR (as its superuser, the table owner), with no auth, no rate limit, no RLS and no
 * response schema. `DATA_DIR=... node --import tsx bench/floors/feed-floor-pglite.ts` prints `listening on <url>`.
 */
const db = await PGlite.create(path.join(process.env.DATA_DIR ?? './data', 'pglite'))
const app = Fastify({ logger: false })

interface EventRow {
  id: string
  org_id: string
  action: string
  user_id: string
  created_at: Date
  hash: string
  sequence: number
  resource_type: string | null
  resource_id: string | null
  data: unknown
}

app.get<{ Params: { orgId: string }; Querystring: { limit?: string; cursor?: string } }>('/v1/orgs/:orgId/events', async (request) => {
  const limit = Math.min(100, Math.max(1, Number(request.query.limit ?? 25)))
  const after = Number(request.query.cursor ?? 0)
  const { rows } = await db.query<EventRow>('select * from org_events where org_id = $1 and sequence > $2 order by sequence asc limit $3', [
    request.params.orgId,
    after,
    limit + 1,
  ])
  const page = rows.slice(0, limit).map((row) => ({
    id: row.id,
    orgId: row.org_id,
    action: row.action,
    userId: row.user_id,
    createdAt: row.created_at.toISOString(),
    hash: row.hash,
    sequence: Number(row.sequence),
    resource: row.resource_type ? { type: row.resource_type, id: row.resource_id } : null,
    data: row.data,
  }))
  const last = page[page.length - 1]
  return { data: page, hasMore: rows.length > limit, nextCursor: last ? String(last.sequence) : null }
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
