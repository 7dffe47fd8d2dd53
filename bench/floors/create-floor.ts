import { createHash } from 'node:crypto'
import { monotonicFactory } from 'ulid'
import { allocate, type Share } from '../../src/shared/money/money.allocation.js'
import { formatAmount, parseDecimal } from '../../src/shared/money/money.decimal.js'
import { canonicalJson } from '../../src/platform/canonical-json.js'
import { pooledRandom } from '../../src/platform/ids.js'
import { serveFloor, type FloorDatabase } from './floor-server.js'

/**
 * The create floor: POST /api/revenue doing the minimum a correct create must write, as the
 * table owner (no role switch, no RLS), with no authentication, rate limit, schema validation
 * or read before the write. Per request, one statement (one message, one transaction): the
 * revenue entry, its allocations (largest remainder, computed here), the org's chain head moved
 * on, the org event (its canonical JSON hashed here with the previous hash) and the
 * idempotency key stored with its response. The entry's org and splits are read once and kept;
 * the chain head is kept in memory and each org's writes are serialised here (what Oeuvre's
 * chain-head row lock does in the database). The head's update only matches the head this
 * process last wrote, so a chain moved by anyone else writes nothing instead of forking it.
 */

interface Entry {
  orgId: string
  userId: string
  shares: Share[]
}

interface Head {
  sequence: number
  hash: string
  createdAt: number
  /** The org's writes, one after another: each waits for the one before. */
  tail: Promise<unknown>
}

interface RevenueBody {
  catalogId: string
  source: string
  type: string
  periodStart: string
  periodEnd: string
  territory: string
  units: number
  amount: string
  currency: string
  statementRef?: string
  lineRef?: string
}

// Random bytes from a pool (as Oeuvre's ids), not a system call per character.
const ulid = monotonicFactory(pooledRandom())

/**
 * Everything a create writes, as one statement (one message, one transaction): every insert
 * hangs off the head's update, so when the head is not where this process left it nothing is
 * written and `moved` is 0. Prepared once per connection.
 */
const CREATE = `
  with moved as (
    update org_event_heads set sequence = $2, hash = $3, created_at = $4
    where org_id = $1 and sequence = $2::bigint - 1 and hash = $5 returning org_id
  ), entry as (
    insert into revenue_entries (org_id, id, catalog_id, source, type, period_start, period_end, territory, units, amount_micros, currency, statement_ref, line_ref, created_at, created_by)
    select org_id, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19 from moved
  ), allocation as (
    insert into revenue_allocations (org_id, revenue_id, creator_id, currency, amount_micros)
    select org_id, $6, a.creator_id, $15, a.amount from moved, unnest($20::text[], $21::bigint[]) as a (creator_id, amount)
  ), event as (
    insert into org_events (org_id, sequence, id, action, user_id, resource_type, resource_id, data, created_at, hash)
    select org_id, $2, $22, 'revenue.created', $19, 'revenue', $6, $23, $4, $3 from moved
  ), idempotency as (
    insert into idempotency_keys (caller, method, path, key, request_hash, state, response_status, response_body, locked_until, created_at)
    select $19, 'POST', '/api/revenue', $24, $25, 'done', 201, $26, $27, $18 from moved
  )
  select count(*)::int as moved from moved`
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

await serveFloor(async (app, db) => {
  const entries = new Map<string, Promise<Entry>>()
  const heads = new Map<string, Promise<Head>>()

  const entryOf = (catalogId: string) => {
    let entry = entries.get(catalogId)
    if (!entry) entries.set(catalogId, (entry = readEntry(db, catalogId)))
    return entry
  }
  const headOf = (orgId: string) => {
    let head = heads.get(orgId)
    if (!head) heads.set(orgId, (head = readHead(db, orgId)))
    return head
  }

  app.post('/api/revenue', async (request, reply) => {
    const body = request.body as RevenueBody
    const key = String(request.headers['idempotency-key'] ?? ulid())
    const entry = await entryOf(body.catalogId)
    const head = await headOf(entry.orgId)
    const parsed = parseDecimal(body.amount)
    if (!parsed.ok) throw new Error(parsed.reason)
    const id = `rev_${ulid()}`
    const createdAt = new Date()
    const allocations = allocate(parsed.micros, entry.shares).sort((a, b) => (a.creatorId < b.creatorId ? -1 : 1))
    const revenue = {
      id,
      catalogId: body.catalogId,
      eventId: null,
      source: body.source,
      type: body.type,
      periodStart: body.periodStart,
      periodEnd: body.periodEnd,
      territory: body.territory,
      units: body.units,
      amount: formatAmount(parsed.micros, body.currency),
      currency: body.currency,
      statementRef: body.statementRef ?? null,
      lineRef: body.lineRef ?? null,
      reverses: null,
      allocations: allocations.map((a) => ({ creatorId: a.creatorId, amount: formatAmount(a.amount, body.currency) })),
      createdAt: createdAt.toISOString(),
      createdBy: entry.userId,
    }
    const response = JSON.stringify(revenue)
    const written = head.tail.then(async () => {
      const sequence = head.sequence + 1
      const at = new Date(Math.max(createdAt.getTime(), head.createdAt))
      const eventId = `evt_${ulid()}`
      const event = {
        id: eventId,
        orgId: entry.orgId,
        sequence,
        action: 'revenue.created',
        userId: entry.userId,
        createdAt: at.toISOString(),
        resource: { type: 'revenue', id },
        data: revenue,
        previousHash: head.hash,
      }
      const hash = `sha256:${sha256(canonicalJson(event))}`
      const { rows } = await db.query<{ moved: number }>(CREATE, [
        entry.orgId,
        sequence,
        hash,
        event.createdAt,
        head.hash,
        id,
        body.catalogId,
        body.source,
        body.type,
        body.periodStart,
        body.periodEnd,
        body.territory,
        body.units,
        parsed.micros,
        body.currency,
        body.statementRef ?? null,
        body.lineRef ?? null,
        revenue.createdAt,
        entry.userId,
        allocations.map((a) => a.creatorId),
        allocations.map((a) => a.amount),
        eventId,
        canonicalJson(revenue),
        key,
        sha256(canonicalJson(body)),
        response,
        new Date(createdAt.getTime() + 60_000).toISOString(),
      ])
      // Someone else moved the chain: nothing was written, and the head is read again for the next write.
      if (rows[0]?.moved !== 1) {
        heads.delete(entry.orgId)
        throw new Error('the chain head moved under the floor')
      }
      head.sequence = sequence
      head.hash = hash
      head.createdAt = at.getTime()
    })
    // The next write of the org waits for this one, whether it commits or not.
    head.tail = written.catch(() => undefined)
    await written
    reply.code(201).type('application/json')
    return response
  })
})

async function readEntry(db: FloorDatabase, catalogId: string): Promise<Entry> {
  const { rows } = await db.query<{ org_id: string; created_by: string; creator_id: string; share_bps: number }>(
    `select c.org_id, c.created_by, s.creator_id, s.share_bps from catalog_entries c
     join catalog_splits s on s.org_id = c.org_id and s.catalog_id = c.id where c.id = $1 order by s.creator_id`,
    [catalogId],
  )
  const first = rows[0]
  if (!first) throw new Error(`no catalog entry ${catalogId} with splits`)
  return {
    orgId: first.org_id,
    userId: first.created_by,
    shares: rows.map((row) => ({ creatorId: row.creator_id, shareBps: row.share_bps })),
  }
}

async function readHead(db: FloorDatabase, orgId: string): Promise<Head> {
  const { rows } = await db.query<{ sequence: string | number; hash: string; created_at: Date | null }>(
    'select sequence, hash, created_at from org_event_heads where org_id = $1',
    [orgId],
  )
  const row = rows[0]
  if (!row) throw new Error(`org ${orgId} has no chain head`)
  return {
    sequence: Number(row.sequence),
    hash: row.hash,
    createdAt: row.created_at?.getTime() ?? 0,
    tail: Promise.resolve(),
  }
}
