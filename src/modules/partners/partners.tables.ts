import type { ColumnType } from 'kysely'

export type PartnerTier = 'api_partner' | 'white_label' | 'platform_integrator'
export type PartnerStatus = 'sandbox' | 'in_review' | 'changes_requested' | 'live' | 'rejected' | 'suspended'

/** Kysely shapes of the partner program's tables (migration 0032_partners.sql). */
export interface PartnerTables {
  partners: {
    id: string
    user_id: string
    company: string
    tier: PartnerTier
    region: string
    status: PartnerStatus
    sandbox_org_id: string
    sandbox_client_id: string
    rate_per_minute: number | null
    rate_burst: number | null
    application: ColumnType<ApplicationData | null, string | null, string | null>
    application_at: Date | null
    agreement: ColumnType<AgreementEvidence | null, string | null, string | null>
    agreement_at: Date | null
    integration_token_at: Date | null
    integration_feed_at: Date | null
    integration_webhook_at: Date | null
    provisioning_requested_at: Date | null
    status_reason: string | null
    created_at: Date
    updated_at: Date
  }
  partner_review_requests: {
    id: string
    partner_id: string
    status: 'open' | 'approved' | 'changes_requested' | 'rejected'
    requested_at: Date
    requested_by: string
    decided_at: Date | null
    decided_by: string | null
    reason: string | null
  }
  operators: {
    user_id: string
    added_at: Date
  }
  partner_applications: {
    partner_id: string
    version: number
    application: ColumnType<ApplicationData, string, string>
    submitted_at: Date
    submitted_by: string
  }
}

export interface ApplicationData {
  website: string
  useCase: string
  expectedMonthlyRequests: number
}

/** What signing the agreement records: who, when, from where, and which text exactly. */
export interface AgreementEvidence {
  version: string
  signerName: string
  userId: string
  signedAt: string
  address: string
  textSha256: string
}

/** A version of a partner's application, as the partner and the operators read it. */
export interface ApplicationVersion extends ApplicationData {
  version: number
  submittedAt: string
  submittedBy: string
}
