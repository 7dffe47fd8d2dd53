import { formatAmount } from '../../shared/money/money.decimal.js'
import { iso } from '../../shared/records/records.mount.js'
import type { AllocationRow, RevenueRow } from './revenue.repo.js'
import type { Revenue } from './revenue.schemas.js'

/** An entry as the API serves it (and as a batch's Merkle leaf hashes it). */
export function presentRevenue(row: RevenueRow, allocations: readonly AllocationRow[]): Revenue {
  return {
    id: row.id,
    catalogId: row.catalog_id,
    eventId: row.event_id,
    source: row.source,
    type: row.type,
    periodStart: row.period_start,
    periodEnd: row.period_end,
    territory: row.territory,
    units: Number(row.units),
    amount: formatAmount(row.amount_micros, row.currency),
    currency: row.currency,
    statementRef: row.statement_ref,
    lineRef: row.line_ref,
    reverses: row.reverses,
    batchId: row.batch_id,
    // By creator, as JavaScript orders strings: the record is a batch's Merkle leaf, whatever order the rows came in.
    allocations: [...allocations]
      .sort((a, b) => (a.creator_id < b.creator_id ? -1 : a.creator_id > b.creator_id ? 1 : 0))
      .map((allocation) => ({
        creatorId: allocation.creator_id,
        amount: formatAmount(allocation.amount_micros, row.currency),
      })),
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
  }
}
