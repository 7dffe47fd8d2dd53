import type { Generated } from 'kysely'

/** Kysely shapes of the oauth module's tables (migrations 0003_oauth.sql, 0040_client_requests.sql, 0046_request_refusals.sql). */
export interface OAuthTables {
  oauth_clients: {
    org_id: string
    id: string
    name: string
    service_user_id: string
    scopes: string[]
    tier: 'api_partner_sandbox' | 'api_partner_production' | 'platform_integrator'
    rate_per_minute: number
    rate_burst: number
    environment: 'sandbox' | 'production'
    secret_hash: string
    secret_hint: string
    previous_secret_hash: string | null
    previous_secret_expires_at: Date | null
    secret_rotated_at: Date | null
    created_at: Date
    created_by: string
    revoked_at: Date | null
    revoked_by: string | null
    last_used_at: Date | null
    last_used_from: string | null
  }
  oauth_access_tokens: {
    org_id: string
    token_hash: string
    client_id: string
    scopes: string[]
    created_at: Date
    expires_at: Date
  }
  /** The request log: written only through record_client_requests, pruned through prune_client_requests. */
  client_requests: {
    org_id: string
    id: Generated<bigint>
    client_id: string
    at: Date
    method: string
    path: string
    status: number
    latency_ms: number
    request_id: string
    address: string
    error_code: string | null
    error_detail: string | null
  }
}
