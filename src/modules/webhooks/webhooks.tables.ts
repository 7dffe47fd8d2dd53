/** Kysely shapes of the webhook tables (migrations 0004 and 0013). */
export interface WebhookTables {
  webhook_endpoints: {
    org_id: string
    id: string
    url: string
    events: string[]
    status: 'enabled' | 'disabled'
    disabled_reason: string | null
    secret_sealed: string | null
    previous_secret_sealed: string | null
    previous_secret_expires_at: Date | null
    failing_since: Date | null
    created_at: Date
    created_by: string
    updated_at: Date
    deleted_at: Date | null
  }
  webhook_deliveries: {
    org_id: string
    id: string
    endpoint_id: string
    event_id: string
    event_type: string
    payload: string
    status: DeliveryStatus
    attempt_count: number
    retry_index: number
    redelivery_requested: boolean
    next_attempt_at: Date | null
    last_http_status: number | null
    last_error: string | null
    created_at: Date
    updated_at: Date
    finished_at: Date | null
  }
  webhook_attempts: {
    org_id: string
    delivery_id: string
    attempt: number
    endpoint_id: string
    trigger: 'scheduled' | 'redelivery'
    started_at: Date
    status: AttemptStatus
    http_status: number | null
    latency_ms: number
    response_body: string | null
    error: string | null
    address: string | null
  }
  webhook_queue: {
    delivery_id: string
    tenant_org: string
    endpoint_id: string
    due_at: Date | null
    leased_until: Date | null
    lease_owner: bigint | null
    lease_token: string | null
    finished_at: Date | null
  }
  /** An endpoint's circuit breaker (no row: closed, no failure since the last success). */
  webhook_circuits: {
    endpoint_id: string
    tenant_org: string
    failures: number
    opened: number
    open_until: Date | null
    updated_at: Date
  }
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'blocked'
export type AttemptStatus = 'succeeded' | 'failed' | 'blocked'
