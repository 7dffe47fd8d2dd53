import type { ColumnType } from 'kysely'

/** The email tables (migration 0041): global rows, like users. */
export interface EmailTables {
  email_outbox: {
    id: string
    kind: string
    to_address: string
    to_name: string | null
    tenant_org: string | null
    /** jsonb: the kind's variables, as JSON text on the way in. */
    variables: ColumnType<Record<string, unknown>, string, string>
    sealed_variables: string | null
    status: 'pending' | 'sent' | 'failed'
    attempts: number
    due_at: Date | null
    leased_until: Date | null
    lease_token: string | null
    last_error: string | null
    message_id: string | null
    created_at: Date
    finished_at: Date | null
  }
  email_preferences: {
    user_id: string
    kind: string
    receive: boolean
    updated_at: Date
  }
  password_reset_requests: {
    id: string
    email: string
    requested_at: Date
    handled_at: Date | null
  }
  password_reset_tokens: {
    token_hash: string
    user_id: string
    expires_at: Date
    used_at: Date | null
    created_at: Date
  }
}
