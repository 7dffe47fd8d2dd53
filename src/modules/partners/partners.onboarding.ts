import type { Selectable } from 'kysely'
import type { RateTier } from '../../platform/rate-limit.js'
import { TIERS } from '../../platform/rate-limit.js'
import type { OnboardingStep, Partner, ReviewRequest } from './partners.schemas.js'
import type { PartnerTables } from './partners.tables.js'
import type { ApplicationVersion } from './partners.tables.js'

export type PartnerRow = Selectable<PartnerTables['partners']>

const iso = (value: Date | null): string | null => (value === null ? null : value.toISOString())

/**
 * The date `days` business days after `from` (UTC), skipping Saturdays and Sundays: a request
 * on a Friday is ready on Wednesday, one on a Saturday on Wednesday too.
 */
export function addBusinessDays(from: Date, days: number): string {
  const date = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()))
  let left = days
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1)
    const weekday = date.getUTCDay()
    if (weekday !== 0 && weekday !== 6) left -= 1
  }
  return date.toISOString().slice(0, 10)
}

export const PROVISIONING_BUSINESS_DAYS = 3

/** When all three real sandbox actions have happened: the latest of them. */
export function integrationDoneAt(row: PartnerRow): Date | null {
  const marks = [row.integration_token_at, row.integration_feed_at, row.integration_webhook_at]
  if (marks.some((mark) => mark === null)) return null
  return new Date(Math.max(...marks.map((mark) => mark!.getTime())))
}

/** The onboarding steps in the program's order, each with its status (docs/partners.md, "Onboarding steps"). */
export function onboardingSteps(row: PartnerRow): OnboardingStep[] {
  const steps: OnboardingStep[] = []
  const done = (key: OnboardingStep['key'], at: Date | null): OnboardingStep =>
    at ? { key, status: 'done', completedAt: at.toISOString() } : { key, status: 'pending' }
  steps.push(done('application', row.application_at))
  steps.push(done('agreement', row.agreement_at))
  if (row.tier === 'white_label') {
    steps.push({
      key: 'brand_and_domain',
      status: 'pending',
      detail: 'The brand file and the domain are submitted with the white-label deployment, which is not available yet',
    })
    steps.push({
      key: 'provisioning',
      status: 'pending',
      ...(row.provisioning_requested_at
        ? { expectedReadyAt: addBusinessDays(row.provisioning_requested_at, PROVISIONING_BUSINESS_DAYS) }
        : { detail: 'Starts once brand_and_domain is submitted; ready three business days after' }),
    })
  }
  const integrated = integrationDoneAt(row)
  steps.push({
    ...done('integration_testing', integrated),
    ...(integrated
      ? {}
      : {
          detail:
            'Done by itself once the sandbox client has obtained a token, read the org event feed, and had a webhook delivery answered 2xx',
        }),
    checks: {
      tokenIssuedAt: iso(row.integration_token_at),
      feedReadAt: iso(row.integration_feed_at),
      webhookDeliveredAt: iso(row.integration_webhook_at),
    },
  })
  const goLive: OnboardingStep = { key: 'go_live', status: 'pending' }
  if (row.status === 'in_review') goLive.status = 'waiting_review'
  else if (row.status === 'changes_requested') {
    goLive.status = 'changes_requested'
    if (row.status_reason) goLive.detail = row.status_reason
  } else if (row.status === 'live' || row.status === 'suspended') goLive.status = 'done'
  else if (row.status === 'rejected') goLive.detail = row.status_reason ?? 'The review was rejected'
  steps.push(goLive)
  return steps
}

/** The steps the partner can act on now: every earlier step before go_live, go_live once they are done. */
export function currentlyDue(row: PartnerRow, steps: OnboardingStep[]): OnboardingStep['key'][] {
  if (row.status === 'rejected' || row.status === 'live' || row.status === 'suspended') return []
  const open = steps.filter((step) => step.status === 'pending' || step.status === 'changes_requested')
  const beforeGoLive = open.filter((step) => step.key !== 'go_live')
  if (beforeGoLive.length > 0) return beforeGoLive.map((step) => step.key)
  return open.map((step) => step.key)
}

/** Steps before go_live that are not done (a review request needs none). */
export function missingBeforeReview(row: PartnerRow): OnboardingStep['key'][] {
  return onboardingSteps(row)
    .filter((step) => step.key !== 'go_live' && step.status !== 'done')
    .map((step) => step.key)
}

/** The limits of the partner's production clients: API partners the production tier; integrators what was set at approval. */
export function productionLimits(row: PartnerRow): RateTier | null {
  if (row.tier === 'platform_integrator') {
    return row.rate_per_minute !== null && row.rate_burst !== null
      ? { perMinute: row.rate_per_minute, burst: row.rate_burst }
      : null
  }
  return { ...TIERS.production }
}

/** Business days an operator takes to answer a review request, at most (the portal says so). */
export const REVIEW_BUSINESS_DAYS = 3

/** A partner as the API shows it; with `applications`, every version of its application, the newest first. */
export function presentPartner(row: PartnerRow, applications?: ApplicationVersion[]): Partner {
  const steps = onboardingSteps(row)
  return {
    id: row.id,
    company: row.company,
    tier: row.tier,
    region: row.region as Partner['region'],
    status: row.status,
    statusReason: row.status_reason,
    sandboxOrgId: row.sandbox_org_id,
    sandboxClientId: row.sandbox_client_id,
    onboarding: { steps, currentlyDue: currentlyDue(row, steps) },
    limits: { sandbox: { ...TIERS.sandbox }, production: productionLimits(row) },
    reviewExpectedBy: row.status === 'in_review' ? addBusinessDays(row.updated_at, REVIEW_BUSINESS_DAYS) : null,
    ...(applications ? { applications } : {}),
    createdAt: row.created_at.toISOString(),
  }
}

/** A review request as the API shows it. */
export function presentReview(row: {
  id: string
  partner_id: string
  status: ReviewRequest['status']
  requested_at: Date
  requested_by: string
  decided_at: Date | null
  decided_by: string | null
  reason: string | null
}): ReviewRequest {
  return {
    id: row.id,
    partnerId: row.partner_id,
    status: row.status,
    requestedAt: row.requested_at.toISOString(),
    requestedBy: row.requested_by,
    decidedAt: row.decided_at?.toISOString() ?? null,
    decidedBy: row.decided_by,
    reason: row.reason,
  }
}
