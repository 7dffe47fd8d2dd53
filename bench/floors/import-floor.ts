import { createHash, randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { formatAmount } from '../../src/shared/money/money.decimal.js'
import { leafHash, treeRoot } from '../../src/shared/merkle/merkle.tree.js'
import { canonicalJson } from '../../src/platform/canonical-json.js'

/**
 * The import floor: the least a correct statement import must do, as the table owner.
 * `COPY` of the file into a staging table, then per batch of lines, one transaction: a
 * set-based `INSERT ... SELECT` of the entries matched to active recordings by ISRC (the
 * statement-line key skips lines already recorded, so a re-run adds nothing) and of their
 * allocations by largest remainder, in SQL; the batch's lines as written come back, and here
 * each is hashed as a Merkle leaf (its canonical JSON) into the batch's root; then the
 * batch's `revenue.imported` event is chained (hashed here) under the head's row lock.
 * Usage: node dist/floors/import-floor.js <statement.csv> <orgId> <source> [batch]
 * Prints `{"lines":..,"imported":..,"batches":..}` as its last line.
 */
const [file, orgId, source, batchArg] = process.argv.slice(2)
if (!file || !orgId || !source) throw new Error('usage: import-floor <statement.csv> <orgId> <source> [batch]')
const BATCH = Number(batchArg ?? 1000)

/** The batch's new lines with their allocations, one row per allocation, in id order. */
const BOOK = `
  with line as (
    select $4 || lpad(s.line_no::text, 12, '0') as id, c.id as catalog_id, s.territory, s.period_start, s.period_end,
           s.units, (s.amount * 1000000)::bigint as amount_micros, s.currency, s.statement_ref, s.line_ref
    from staging s
    join catalog_entries c on c.org_id = $1 and c.isrc = s.isrc and c.superseded_by is null
    where s.line_no between $5 and $6
  ), entry as (
    insert into revenue_entries (org_id, id, catalog_id, source, type, period_start, period_end, territory, units, amount_micros, currency, statement_ref, line_ref, batch_id, created_at, created_by)
    select $1, id, catalog_id, $2, 'stream', period_start, period_end, territory, units, amount_micros, currency, statement_ref, line_ref, $8, $3, $7 from line
    on conflict (org_id, source, statement_ref, line_ref) where statement_ref is not null and line_ref is not null do nothing
    returning *
  ), share as (
    select e.id, sp.creator_id, sum(sp.share_bps)::bigint as bps, abs(e.amount_micros) as magnitude, sign(e.amount_micros) as sign
    from entry e join catalog_splits sp on sp.org_id = $1 and sp.catalog_id = e.catalog_id
    group by e.id, sp.creator_id, e.amount_micros
  ), part as (
    select id, creator_id, sign, magnitude * bps / 10000 as whole,
           magnitude - sum(magnitude * bps / 10000) over (partition by id) as leftover,
           row_number() over (partition by id order by magnitude * bps % 10000 desc, bps desc, creator_id collate "C") as rank
    from share
  ), allocation as (
    insert into revenue_allocations (org_id, revenue_id, creator_id, currency, amount_micros)
    select $1, p.id, p.creator_id, e.currency, p.sign * (p.whole + case when p.rank <= p.leftover then 1 else 0 end)
    from part p join entry e on e.id = p.id
    returning revenue_id, creator_id, amount_micros
  )
  select e.id, e.catalog_id, e.type, e.period_start, e.period_end, e.territory, e.units, e.amount_micros, e.currency,
         e.statement_ref, e.line_ref, a.creator_id, a.amount_micros as allocated
  from entry e join allocation a on a.revenue_id = e.id
  order by e.id collate "C", a.creator_id collate "C"`

interface BookedRow {
  id: string
  catalog_id: string
  type: string
  period_start: string
  period_end: string
  territory: string
  units: string
  amount_micros: string
  currency: string
  statement_ref: string
  line_ref: string
  creator_id: string
  allocated: string
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')
const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
await client.connect()
try {
  await client.query(
    `create temp table staging (line_no bigint generated always as identity, isrc text, territory text, period_start text,
       period_end text, units bigint, amount numeric, currency text, statement_ref text, line_ref text)`,
  )
  await pipeline(
    createReadStream(file),
    client.query(
      copyFrom(
        'copy staging (isrc, territory, period_start, period_end, units, amount, currency, statement_ref, line_ref) from stdin with (format csv, header true)',
      ),
    ),
  )
  // Each batch reads its lines by number: an index, made once the rows are in (cheaper than kept during the COPY).
  await client.query('create index on staging (line_no)')
  await client.query('analyze staging')
  const lines = Number((await client.query<{ n: string }>('select count(*) as n from staging')).rows[0]!.n)
  const org = await client.query<{ system_user_id: string }>('select system_user_id from orgs where org_id = $1', [
    orgId,
  ])
  const userId = org.rows[0]!.system_user_id
  // Ids unique to this run: a random prefix and the line number.
  const prefix = `rev_${randomBytes(7).toString('hex').toUpperCase()}`
  let imported = 0
  let batches = 0
  for (let first = 1; first <= lines; first += BATCH) {
    await client.query('begin')
    const createdAt = new Date()
    const batchId = `bat_${randomBytes(13).toString('hex').toUpperCase().slice(0, 26)}`
    const { rows } = await client.query<BookedRow>({
      name: 'book',
      text: BOOK,
      values: [orgId, source, createdAt, prefix, first, first + BATCH - 1, userId, batchId],
    })
    if (rows.length === 0) {
      await client.query('commit')
      continue
    }
    const leaves: Buffer[] = []
    const totals = new Map<string, bigint>()
    for (let at = 0; at < rows.length;) {
      const row = rows[at]!
      const allocations = []
      for (; at < rows.length && rows[at]!.id === row.id; at += 1)
        allocations.push({
          creatorId: rows[at]!.creator_id,
          amount: formatAmount(BigInt(rows[at]!.allocated), row.currency),
        })
      const line = {
        id: row.id,
        batchId,
        catalogId: row.catalog_id,
        eventId: null,
        source,
        type: row.type,
        periodStart: row.period_start,
        periodEnd: row.period_end,
        territory: row.territory,
        units: Number(row.units),
        amount: formatAmount(BigInt(row.amount_micros), row.currency),
        currency: row.currency,
        statementRef: row.statement_ref,
        lineRef: row.line_ref,
        reverses: null,
        allocations,
        createdAt: createdAt.toISOString(),
        createdBy: userId,
      }
      leaves.push(leafHash(Buffer.from(canonicalJson(line))))
      totals.set(row.currency, (totals.get(row.currency) ?? 0n) + BigInt(row.amount_micros))
    }
    const data = {
      batchId,
      lineCount: leaves.length,
      totals: [...totals].sort().map(([currency, amount]) => ({ currency, amount: formatAmount(amount, currency) })),
      root: treeRoot(leaves).toString('hex'),
    }
    await appendEvent(client, orgId, userId, data)
    await client.query('commit')
    imported += leaves.length
    batches += 1
  }
  process.stdout.write(`${JSON.stringify({ lines, imported, batches })}\n`)
} finally {
  await client.end()
}

/** The batch's event, chained under the head's row lock (the canonical JSON hashed here). */
interface BatchData {
  batchId: string
  lineCount: number
  totals: { currency: string; amount: string }[]
  root: string
}

async function appendEvent(db: pg.Client, org: string, userId: string, data: BatchData): Promise<void> {
  const head = await db.query<{ sequence: string; hash: string; created_at: Date | null }>(
    'select sequence, hash, created_at from org_event_heads where org_id = $1 for update',
    [org],
  )
  const previous = head.rows[0]!
  const sequence = Number(previous.sequence) + 1
  const createdAt = new Date(Math.max(Date.now(), previous.created_at?.getTime() ?? 0)).toISOString()
  const event = {
    id: `evt_${randomBytes(13).toString('hex').toUpperCase().slice(0, 26)}`,
    orgId: org,
    sequence,
    action: 'revenue.imported',
    userId,
    createdAt,
    resource: { type: 'revenue_batch', id: data.batchId },
    data,
    previousHash: previous.hash,
  }
  const hash = `sha256:${sha256(canonicalJson(event))}`
  await db.query(
    `with event as (
       insert into org_events (org_id, sequence, id, action, user_id, resource_type, resource_id, data, created_at, hash)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     )
     update org_event_heads set sequence = $2, hash = $10, created_at = $9 where org_id = $1`,
    [
      org,
      sequence,
      event.id,
      event.action,
      userId,
      'revenue_batch',
      data.batchId,
      canonicalJson(data),
      createdAt,
      hash,
    ],
  )
}
