import { createHash, randomBytes } from 'node:crypto'
import pg from 'pg'
import { formatAmount } from '../../src/shared/money/money.decimal.js'
import { leafHash, treeRoot } from '../../src/shared/merkle/merkle.tree.js'
import { AppError } from '../../src/platform/errors.js'
import { canonicalJson } from '../../src/platform/canonical-json.js'
import { statementFromTotals, type Statement } from '../../src/modules/payouts/index.js'

/**
 * The payout-run floor: the least a correct payout run must do, as the table owner. Per page
 * of creators, one transaction: their rows locked, their unpaid allocations aggregated in one
 * statement (the same rules applied to the totals here), then one set-based statement writing
 * the payouts and their coverage (an item per allocation, under the unique index that keeps
 * an allocation in one live payout), and the page's `payouts.run` event (the payouts hashed
 * here as Merkle leaves, the event chained under the head's row lock).
 * Usage: node dist/floors/payout-floor.js <orgId> [page]. Prints `{"payouts":..,"batches":..}`.
 */
const [orgId, pageArg] = process.argv.slice(2)
if (!orgId) throw new Error('usage: payout-floor <orgId> [page]')
const PAGE = Number(pageArg ?? 500)

/**
 * The page's creators, locked, with what no live payout holds of theirs in their payout currency.
 * Whether a live payout holds an allocation is a LIMIT 1 probe of the live-item index, never an
 * anti-join: a run grows payout_items faster than statistics follow, and an anti-join planned on
 * stale ones rescans the items for every allocation (Oeuvre's run does the same, for the same reason).
 */
const TOTALS = `
  with c as (
    select id, payout_currency, minimum_payout_micros, opening_balance_micros from creators
    where org_id = $1 and id > $2 order by id limit $3 for update
  )
  select c.id, c.payout_currency, c.minimum_payout_micros, c.opening_balance_micros,
         t.earnings, coalesce(t.entries, 0)::int as entries, t.period_start, t.period_end,
         (select sum(q.earnings_micros - q.amount_micros) from payouts q where q.org_id = $1 and q.creator_id = c.id
            and q.currency = c.payout_currency and q.status in ('pending', 'in_transit', 'paid')) as carried
  from c left join lateral (
    select sum(a.amount_micros) as earnings, count(*) as entries, min(r.period_start) as period_start, max(r.period_end) as period_end
    from revenue_allocations a join revenue_entries r on r.org_id = a.org_id and r.id = a.revenue_id
    left join lateral (select true as held from payout_items i where i.org_id = a.org_id and i.revenue_id = a.revenue_id
                       and i.creator_id = a.creator_id and i.released_at is null limit 1) h on true
    where a.org_id = $1 and a.creator_id = c.id and a.currency = c.payout_currency and h.held is null
  ) t on true
  order by c.id`

/** The page's payouts and an item for every allocation each one pays. */
const WRITE = `
  with p as (
    insert into payouts (org_id, id, creator_id, currency, amount_micros, status, method, opening_balance_micros, earnings_micros,
                         recouped_micros, carried_forward_micros, entries, period_start, period_end, created_at, created_by, status_changed_at, batch_id)
    select $1, u.* , $15, $16, $15, $17 from unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::bigint[],
                                 $9::bigint[], $10::bigint[], $11::bigint[], $12::int[], $13::text[], $14::text[]) as u
    returning id, creator_id, currency
  )
  insert into payout_items (org_id, payout_id, revenue_id, creator_id)
  select $1, p.id, a.revenue_id, a.creator_id from p
  join revenue_allocations a on a.org_id = $1 and a.creator_id = p.creator_id and a.currency = p.currency
  left join lateral (select true as held from payout_items i where i.org_id = a.org_id and i.revenue_id = a.revenue_id
                     and i.creator_id = a.creator_id and i.released_at is null limit 1) h on true
  where h.held is null`

interface TotalsRow {
  id: string
  payout_currency: string
  minimum_payout_micros: string
  opening_balance_micros: string
  earnings: string | null
  entries: number
  period_start: string | null
  period_end: string | null
  carried: string | null
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')
const newId = (prefix: string) => `${prefix}_${randomBytes(13).toString('hex').toUpperCase().slice(0, 26)}`

const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
await client.connect()
try {
  const org = await client.query<{ system_user_id: string; environment: string }>(
    'select system_user_id, environment from orgs where org_id = $1',
    [orgId],
  )
  const { system_user_id: userId, environment } = org.rows[0]!
  let after = ''
  let paid = 0
  let batches = 0
  for (;;) {
    await client.query('begin')
    // Index paths only, as Oeuvre's run: statistics lag behind a table the run is filling.
    await client.query('set local enable_seqscan = off')
    const { rows } = await client.query<TotalsRow>({ name: 'totals', text: TOTALS, values: [orgId, after, PAGE] })
    const now = new Date()
    const payouts: { id: string; creatorId: string; currency: string; statement: Statement }[] = []
    for (const row of rows) {
      try {
        const statement = statementFromTotals({
          currency: row.payout_currency,
          openingBalance: BigInt(row.opening_balance_micros) + BigInt(row.carried ?? 0),
          totals: {
            earnings: BigInt(row.earnings ?? 0),
            entries: row.entries,
            periodStart: row.period_start,
            periodEnd: row.period_end,
          },
          minimum: BigInt(row.minimum_payout_micros),
        })
        payouts.push({ id: newId('po'), creatorId: row.id, currency: row.payout_currency, statement })
      } catch (error) {
        // Nothing to pay, or below the minimum: no payout for this creator.
        if (!(error instanceof AppError)) throw error
      }
    }
    if (payouts.length > 0) {
      const method = environment === 'sandbox' ? 'sandbox' : 'manual'
      const batchId = newId('bat')
      const column = <T>(pick: (payout: (typeof payouts)[number]) => T) => payouts.map(pick)
      await client.query({
        name: 'write',
        text: WRITE,
        values: [
          orgId,
          column((p) => p.id),
          column((p) => p.creatorId),
          column((p) => p.currency),
          column((p) => p.statement.amount),
          column(() => 'pending'),
          column(() => method),
          column((p) => p.statement.openingBalance),
          column((p) => p.statement.earnings),
          column((p) => p.statement.recouped),
          column((p) => p.statement.carriedForward),
          column((p) => p.statement.entries),
          column((p) => p.statement.periodStart),
          column((p) => p.statement.periodEnd),
          now,
          userId,
          batchId,
        ],
      })
      const money = (micros: bigint, currency: string) => formatAmount(micros, currency)
      const totals = new Map<string, bigint>()
      const leaves = payouts
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((p) => {
          totals.set(p.currency, (totals.get(p.currency) ?? 0n) + p.statement.amount)
          const record = {
            id: p.id,
            batchId,
            creatorId: p.creatorId,
            amount: money(p.statement.amount, p.currency),
            currency: p.currency,
            status: 'pending',
            statement: {
              openingBalance: money(p.statement.openingBalance, p.currency),
              earnings: money(p.statement.earnings, p.currency),
              recouped: money(p.statement.recouped, p.currency),
              carriedForward: money(p.statement.carriedForward, p.currency),
              entries: p.statement.entries,
              periodStart: p.statement.periodStart,
              periodEnd: p.statement.periodEnd,
            },
            method,
            failureCode: null,
            failureMessage: null,
            createdAt: now.toISOString(),
            paidAt: null,
          }
          return leafHash(Buffer.from(canonicalJson(record)))
        })
      await appendEvent(client, orgId, userId, {
        batchId,
        lineCount: leaves.length,
        totals: [...totals].sort().map(([currency, amount]) => ({ currency, amount: money(amount, currency) })),
        root: treeRoot(leaves).toString('hex'),
      })
      paid += payouts.length
      batches += 1
    }
    await client.query('commit')
    if (rows.length < PAGE) break
    after = rows.at(-1)!.id
  }
  process.stdout.write(`${JSON.stringify({ payouts: paid, batches })}\n`)
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
    id: newId('evt'),
    orgId: org,
    sequence,
    action: 'payouts.run',
    userId,
    createdAt,
    resource: { type: 'payout_batch', id: data.batchId },
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
    [org, sequence, event.id, event.action, userId, 'payout_batch', data.batchId, canonicalJson(data), createdAt, hash],
  )
}
