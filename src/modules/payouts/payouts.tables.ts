export type PayoutStatus = 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled'

export interface PayoutsTables {
  payouts: {
    org_id: string
    id: string
    creator_id: string
    currency: string
    amount_micros: bigint
    status: PayoutStatus
    method: 'manual' | 'sandbox'
    opening_balance_micros: bigint
    earnings_micros: bigint
    recouped_micros: bigint
    carried_forward_micros: bigint
    entries: number
    period_start: string | null
    period_end: string | null
    failure_code: string | null
    failure_message: string | null
    created_at: Date
    created_by: string
    status_changed_at: Date
    paid_at: Date | null
    /** The payout run's batch it was written in (its payouts.run event), or null. */
    batch_id: string | null
  }
  payout_items: {
    org_id: string
    payout_id: string
    revenue_id: string
    creator_id: string
    released_at: Date | null
  }
}
