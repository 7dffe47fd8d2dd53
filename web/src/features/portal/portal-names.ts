/** How the portal names the partner program's keys (the API's values stay the keys). */

export const TIER_NAMES = {
  api_partner: 'API Partner',
  white_label: 'White-Label',
  platform_integrator: 'Platform Integrator',
} as const

export type Tier = keyof typeof TIER_NAMES

export const TIERS = Object.keys(TIER_NAMES) as Tier[]

/** What each tier is, and what is not there yet (a white-label partner cannot go live before its deployment exists). */
export const TIER_HINT =
  'API Partner: integrate with the API. White-Label: run the app under your brand (its deployments are not built yet, so these partners cannot go live yet). Platform Integrator: limits agreed at review.'

export const REGION_NAMES: Record<string, string> = {
  'us-east': 'United States (us-east)',
  'eu-west': 'European Union (eu-west)',
  'au-east': 'Australia (au-east)',
}

export const STEP_NAMES: Record<string, string> = {
  application: 'Application',
  agreement: 'Partner agreement',
  brand_and_domain: 'Brand and domain',
  provisioning: 'Provisioning',
  integration_testing: 'Integration testing',
  go_live: 'Go live',
}

export const STEP_STATUS_NAMES: Record<string, string> = {
  pending: 'To do',
  waiting_review: 'Waiting for review',
  changes_requested: 'Changes requested',
  done: 'Done',
}

/** A partner's statuses, in the review queue's filter. */
export const PARTNER_STATUSES = ['sandbox', 'in_review', 'changes_requested', 'rejected', 'live', 'suspended'] as const
export type PartnerStatus = (typeof PARTNER_STATUSES)[number]

export const PARTNER_STATUS_NAMES: Record<string, string> = {
  sandbox: 'Sandbox',
  in_review: 'In review',
  changes_requested: 'Changes requested',
  rejected: 'Rejected',
  live: 'Live',
  suspended: 'Suspended',
}
