export interface CreatorsTables {
  creators: {
    org_id: string
    id: string
    name: string
    legal_name: string | null
    kind: 'person' | 'group' | 'company'
    roles: string[]
    email: string | null
    country: string | null
    ipi: string | null
    isni: string | null
    payout_currency: string
    minimum_payout_micros: bigint
    opening_balance_micros: bigint
    created_at: Date
    created_by: string
  }
}
