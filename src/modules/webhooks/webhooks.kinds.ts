/**
 * Every org event action any module appends: the one registry webhook subscriptions are
 * checked against. A module that adds an action adds it here.
 */
export const ORG_EVENT_ACTIONS = [
  'org.created',
  'member.invited',
  'member.joined',
  'catalog.created',
  'catalog.superseded',
  'creator.created',
  'revenue.created',
  'revenue.imported',
  'payout.created',
  'payouts.run',
  'payout.in_transit',
  'payout.paid',
  'payout.failed',
  'payout.canceled',
  'ticketed_event.created',
  'ticketed_event.published',
  'ticketed_event.cancelled',
  'client.created',
  'client.secret_rotated',
  'client.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.disabled',
  'webhook.enabled',
  'webhook.deleted',
  'webhook.secret_rotated',
  'webhook.redelivered',
  'webhook.test',
  'evidence.sealed',
  'partner.created',
  'partner.application_submitted',
  'partner.agreement_signed',
  'partner.review_requested',
  'partner.approved',
  'partner.changes_requested',
  'partner.rejected',
  'partner.suspended',
  'partner.resumed',
] as const

/** Subscribing to it delivers every org event. */
export const EVERY_EVENT_KIND = 'audit.emitted'
export const WILDCARD_KIND = '*'

export const WEBHOOK_KINDS: readonly string[] = [...ORG_EVENT_ACTIONS, EVERY_EVENT_KIND, WILDCARD_KIND]

const KNOWN = new Set(WEBHOOK_KINDS)

export function isKnownKind(kind: string): boolean {
  return KNOWN.has(kind)
}

/**
 * The kind an event is delivered as to an endpoint with these subscriptions, or null when
 * it is not delivered there. `webhook.test` only ever goes to the endpoint being tested.
 */
export function deliveredKind(subscriptions: readonly string[], action: string): string | null {
  if (action === 'webhook.test') return null
  if (subscriptions.includes(action) || subscriptions.includes(WILDCARD_KIND)) return action
  if (subscriptions.includes(EVERY_EVENT_KIND)) return EVERY_EVENT_KIND
  return null
}
