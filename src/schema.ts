import type { ColumnType, Generated } from 'kysely'
import type { EvidenceTables } from './modules/evidence/evidence.tables.js'
import type { WebhookTables } from './modules/webhooks/webhooks.tables.js'
import type { CatalogTables } from './modules/catalog/catalog.tables.js'
import type { CreatorsTables } from './modules/creators/creators.tables.js'
import type { PayoutsTables } from './modules/payouts/payouts.tables.js'
import type { RevenueTables } from './modules/revenue/revenue.tables.js'
import type { TicketingTables } from './modules/ticketing/ticketing.tables.js'
import type { OAuthTables } from './modules/oauth/oauth.tables.js'
import type { PartnerTables } from './modules/partners/partners.tables.js'
import type { EmailTables } from './modules/email/email.tables.js'

/** Tables of the foundation. Each module adds its own interface and DB extends them all. */
export interface FoundationTables {
  users: {
    id: string
    kind: 'person' | 'service' | 'system'
    email: string | null
    name: string
    password_hash: string | null
    home_org_id: string | null
    created_at: Date
  }
  sessions: {
    token_hash: string
    user_id: string
    active_org_id: string | null
    created_at: Date
    last_used_at: Date
    expires_at: Date
    ended_at: Date | null
  }
  orgs: {
    org_id: string
    name: string
    environment: 'sandbox' | 'production'
    region: string
    system_user_id: string
    created_at: Date
    created_by: string
    /** The partner the org belongs to (migration 0032). */
    partner_id: ColumnType<string | null, string | null | undefined, string | null>
  }
  memberships: {
    org_id: string
    user_id: string
    role: string
    created_at: Date
  }
  invitations: {
    org_id: string
    id: string
    email: string
    role: string
    token_hash: string
    expires_at: Date
    created_at: Date
    created_by: string
    accepted_at: Date | null
    accepted_by: string | null
    /** The token, sealed: an invitation is sent again with the same link (migration 0044). */
    token_sealed: ColumnType<string | null, string | null | undefined, string | null>
    revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>
    revoked_by: ColumnType<string | null, string | null | undefined, string | null>
    /** When its email was last sent. */
    sent_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  }
  org_events: {
    org_id: string
    sequence: bigint
    id: string
    action: string
    user_id: string
    resource_type: string | null
    resource_id: string | null
    /** JSON text: the data's canonical text as hashed (migration 0009; jsonb's text form in older rows). */
    data: string
    created_at: Date
    hash: string
  }
  org_event_heads: {
    org_id: string
    sequence: bigint
    hash: string
    /** The last event's createdAt (null before the first): the next one is never earlier. */
    created_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  }
  idempotency_keys: {
    caller: string
    method: string
    path: string
    key: string
    request_hash: string
    state: 'running' | 'done'
    response_status: number | null
    response_body: string | null
    locked_until: Date
    created_at: Date
  }
  schema_migrations: {
    name: string
    checksum: string
    applied_at: Generated<Date>
  }
}

export type DB = FoundationTables &
  CreatorsTables &
  CatalogTables &
  TicketingTables &
  RevenueTables &
  PayoutsTables &
  WebhookTables &
  EvidenceTables &
  OAuthTables &
  PartnerTables &
  EmailTables
