export type RevenueType =
  'stream' | 'download' | 'physical' | 'sync' | 'performance' | 'mechanical' | 'ticket_sale' | 'other'

export interface RevenueTables {
  revenue_entries: {
    org_id: string
    id: string
    catalog_id: string
    event_id: string | null
    source: string
    type: RevenueType
    /** YYYY-MM-DD */
    period_start: string
    period_end: string
    territory: string
    units: bigint
    amount_micros: bigint
    currency: string
    statement_ref: string | null
    line_ref: string | null
    reverses: string | null
    /** The import batch the line was written in (its revenue.imported event), or null. */
    batch_id: string | null
    created_at: Date
    created_by: string
  }
  revenue_allocations: {
    org_id: string
    revenue_id: string
    creator_id: string
    currency: string
    amount_micros: bigint
  }
}
