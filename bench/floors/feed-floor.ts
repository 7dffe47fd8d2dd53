import { serveFloor } from './floor-server.js'

/**
 * The feed's floor: a bare Fastify route running the same keyset query as the table owner,
 * with no auth, no rate limit, no RLS and no response schema, over pg (DATABASE_URL) or
 * PGlite (DATA_DIR, DATABASE_URL empty). `node --import tsx bench/floors/feed-floor.ts`
 * prints `listening on <url>`.
 */
interface EventRow {
  id: string
  org_id: string
  action: string
  user_id: string
  created_at: Date
  hash: string
  sequence: number | string
  resource_type: string | null
  resource_id: string | null
  /** JSON text. */
  data: string
}

await serveFloor(async (app, db) => {
  app.get<{ Params: { orgId: string }; Querystring: { limit?: string; cursor?: string } }>(
    '/v1/orgs/:orgId/events',
    async (request) => {
      const limit = Math.min(100, Math.max(1, Number(request.query.limit ?? 25)))
      const after = Number(request.query.cursor ?? 0)
      const { rows } = await db.query<EventRow>(
        'select * from org_events where org_id = $1 and sequence > $2 order by sequence asc limit $3',
        [request.params.orgId, after, limit + 1],
      )
      const page = rows.slice(0, limit).map((row) => ({
        id: row.id,
        orgId: row.org_id,
        action: row.action,
        userId: row.user_id,
        createdAt: row.created_at.toISOString(),
        hash: row.hash,
        sequence: Number(row.sequence),
        resource: row.resource_type ? { type: row.resource_type, id: row.resource_id } : null,
        // The stored JSON text parsed, as pg's jsonb parser did for this floor before the column held text (migration 0009).
        data: JSON.parse(row.data) as unknown,
      }))
      const last = page[page.length - 1]
      return { data: page, hasMore: rows.length > limit, nextCursor: last ? String(last.sequence) : null }
    },
  )
})
