import type { ColumnType } from 'kysely'

/** Stored form of a ticket type: the price as micro-units in a decimal string (jsonb has no bigint). */
export interface StoredTicketType {
  name: string
  priceMicros: string
  quantity: number
}

export interface StoredVenue {
  name: string
  city: string | null
  country: string
}

export interface TicketingTables {
  ticketed_events: {
    org_id: string
    id: string
    name: string
    /** jsonb: written as JSON text, read back parsed. */
    venue: ColumnType<StoredVenue, string, never>
    starts_at: Date
    ends_at: Date | null
    timezone: string
    currency: string
    capacity: number
    ticket_types: ColumnType<StoredTicketType[], string, never>
    performer_ids: string[]
    catalog_ids: string[]
    status: 'draft' | 'published' | 'cancelled'
    created_at: Date
    created_by: string
  }
}
