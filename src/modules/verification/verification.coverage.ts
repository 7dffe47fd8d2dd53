import { sql, type RawBuilder } from 'kysely'
import type { Database } from '../../database.js'

/**
 * Whether every record the log must cover is covered by an org event: its own creation event
 * (`catalog.created` naming it), or, for a line of a bulk write, its batch's event, whose root
 * `checkBatches` holds the line to. A row written around the application (another process on
 * the data directory, a hand-made INSERT) has no event, and verify names it.
 */

export interface Uncovered {
  table: string
  id: string
  reason: string
}

export interface CoverageReport {
  ok: boolean
  /** The first few records not covered, per check. */
  uncovered: Uncovered[]
}

/** Records named per check at most. */
const NAMED = 5

/** A family whose every row has a creation event naming it (`resource_id`). */
interface Created {
  table: string
  action: string
}

const CREATED: readonly Created[] = [
  { table: 'creators', action: 'creator.created' },
  { table: 'catalog_entries', action: 'catalog.created' },
  { table: 'ticketed_events', action: 'ticketed_event.created' },
  { table: 'webhook_endpoints', action: 'webhook.created' },
  { table: 'oauth_clients', action: 'client.created' },
  { table: 'evidence_seals', action: 'evidence.sealed' },
]

/** One check: the ids it finds uncovered (at most NAMED) and why. */
interface Check {
  table: string
  reason: string
  query: (orgId: string, since: Date | null) => RawBuilder<{ id: string }>
}

const recent = (alias: string, since: Date | null) =>
  since === null ? sql`` : sql`and ${sql.ref(`${alias}.created_at`)} >= ${since}`

const createdBy = ({ table, action }: Created): Check => ({
  table,
  reason: `no ${action} event names it`,
  query: (orgId, since) => sql<{ id: string }>`
    select r.id from ${sql.table(table)} r
    where r.org_id = ${orgId} ${recent('r', since)}
      and not exists (select 1 from org_events e where e.org_id = r.org_id and e.action = ${action} and e.resource_id = r.id)
    limit ${NAMED}`,
})

/** A line written alone has its creation event; a line of a batch, its batch's event. */
const lines = (table: string, created: string, batched: string): Check[] => [
  {
    table,
    reason: `written alone, and no ${created} event names it`,
    query: (orgId, since) => sql<{ id: string }>`
      select r.id from ${sql.table(table)} r
      where r.org_id = ${orgId} and r.batch_id is null ${recent('r', since)}
        and not exists (select 1 from org_events e where e.org_id = r.org_id and e.action = ${created} and e.resource_id = r.id)
      limit ${NAMED}`,
  },
  {
    table,
    reason: `its batch has no ${batched} event`,
    query: (orgId, since) => sql<{ id: string }>`
      select r.id from ${sql.table(table)} r
      where r.org_id = ${orgId} and r.batch_id is not null ${recent('r', since)}
        and not exists (select 1 from org_events e where e.org_id = r.org_id and e.action = ${batched} and e.resource_id = r.batch_id)
      limit ${NAMED}`,
  },
]

const CHECKS: readonly Check[] = [
  ...CREATED.map(createdBy),
  ...lines('revenue_entries', 'revenue.created', 'revenue.imported'),
  {
    table: 'revenue_allocations',
    reason: 'the allocations of this entry do not sum to its amount',
    query: (orgId, since) => sql<{ id: string }>`
      select r.id from revenue_entries r
      left join lateral (select sum(a.amount_micros) as total from revenue_allocations a
                         where a.org_id = r.org_id and a.revenue_id = r.id) a on true
      where r.org_id = ${orgId} ${recent('r', since)} and a.total is distinct from r.amount_micros
      limit ${NAMED}`,
  },
  {
    table: 'revenue_allocations',
    reason: 'this entry has other allocations than its revenue.created event lists',
    query: (orgId, since) => sql<{ id: string }>`
      select r.id from revenue_entries r
      join org_events e on e.org_id = r.org_id and e.action = 'revenue.created' and e.resource_id = r.id
      where r.org_id = ${orgId} and r.batch_id is null ${recent('r', since)}
        and (select count(*) from revenue_allocations a where a.org_id = r.org_id and a.revenue_id = r.id)
            <> jsonb_array_length(e.data::jsonb -> 'allocations')
      limit ${NAMED}`,
  },
  ...lines('payouts', 'payout.created', 'payouts.run'),
  {
    table: 'payout_items',
    reason: 'this payout holds another number of allocations than its statement counts',
    query: (orgId, since) => sql<{ id: string }>`
      select p.id from payouts p
      left join lateral (select count(*) as held from payout_items i where i.org_id = p.org_id and i.payout_id = p.id) i on true
      where p.org_id = ${orgId} ${recent('p', since)} and i.held <> p.entries
      limit ${NAMED}`,
  },
]

/**
 * Runs every check in the org's tenant scope; with `since`, over the records created from then
 * on only (`--since-seal`: the older ones were checked when their seal was).
 */
export async function checkCoverage(db: Database, orgId: string, since: Date | null = null): Promise<CoverageReport> {
  const uncovered: Uncovered[] = []
  for (const check of CHECKS) {
    const { rows } = await db.read(orgId, (reader) => check.query(orgId, since).execute(reader))
    for (const row of rows) uncovered.push({ table: check.table, id: row.id, reason: check.reason })
  }
  return { ok: uncovered.length === 0, uncovered }
}
