/**
 * Every org event action any module appends: the one registry webhook subscriptions are
 * checked against. A module that adds an action adds it here.
 */
export const ORG_EVENT_ACTIONS = [
  'org.created',
  'member.invited',
  'member.invitation_revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
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

/** What each kind means, one line each (the app groups them by their object, the part before the dot). */
export const KIND_DESCRIPTIONS: Record<
  (typeof ORG_EVENT_ACTIONS)[number] | typeof EVERY_EVENT_KIND | typeof WILDCARD_KIND,
  string
> = {
  'org.created': 'The org was created',
  'member.invited': 'Someone was invited to the org (also when an invitation is sent again)',
  'member.invitation_revoked': 'An invitation was revoked before it was accepted',
  'member.joined': 'An invited person accepted and joined',
  'member.role_changed': 'A member’s role changed',
  'member.removed': 'A member was removed from the org',
  'catalog.created': 'A catalog entry (work, recording or release) was created',
  'catalog.superseded': 'A catalog entry was corrected: a newer entry supersedes it',
  'creator.created': 'A creator was added',
  'revenue.created': 'A revenue entry was recorded (one line, allocated to its creators)',
  'revenue.imported': 'A batch of a statement import was booked (one event per batch, with its Merkle root)',
  'payout.created': 'A payout was created (pending)',
  'payouts.run': 'A payout run paid a batch of creators (one event per batch)',
  'payout.in_transit': 'A payout is on its way',
  'payout.paid': 'A payout arrived',
  'payout.failed': 'A payout failed; its money is back in the creator’s balance',
  'payout.canceled': 'A pending payout was canceled; its money is back in the creator’s balance',
  'ticketed_event.created': 'A ticketed event was created (draft)',
  'ticketed_event.published': 'A ticketed event was published',
  'ticketed_event.cancelled': 'A ticketed event was cancelled',
  'client.created': 'An OAuth client (API credential) was created',
  'client.secret_rotated': 'A client’s secret was rotated (the old one works for the grace period)',
  'client.revoked': 'A client was revoked: its secrets and tokens stopped working',
  'webhook.created': 'A webhook endpoint was registered',
  'webhook.updated': 'A webhook endpoint’s URL or kinds changed',
  'webhook.disabled': 'A webhook endpoint was disabled (by someone, or after failing)',
  'webhook.enabled': 'A webhook endpoint was enabled again',
  'webhook.deleted': 'A webhook endpoint was deleted',
  'webhook.secret_rotated': 'A webhook endpoint’s signing secret was rotated',
  'webhook.redelivered': 'A delivery was sent again on request',
  'webhook.test': 'A test event (sent only to the endpoint being tested)',
  'evidence.sealed': 'The org’s log was sealed: a signed Merkle checkpoint over its events',
  'partner.created': 'The partner signed up (its sandbox org and credentials were made)',
  'partner.application_submitted': 'The partner submitted (or changed) its application',
  'partner.agreement_signed': 'The partner agreement was signed (who, which text, when)',
  'partner.review_requested': 'The partner asked for its review',
  'partner.approved': 'The partner passed its review and is live',
  'partner.changes_requested': 'An operator asked the partner for changes',
  'partner.rejected': 'The partner’s application was rejected',
  'partner.suspended': 'The partner was suspended: its production credentials get no new tokens',
  'partner.resumed': 'The partner was resumed after a suspension',
  'audit.emitted': 'Every org event, delivered under this one kind (the audit log as a stream)',
  '*': 'Every org event, each delivered under its own kind (including kinds added later)',
}

/** The kinds for people and integrations: each with its group and what it means. */
export function kindCatalogue(): { kind: string; group: string; description: string }[] {
  return WEBHOOK_KINDS.map((kind) => ({
    kind,
    group: kind === EVERY_EVENT_KIND || kind === WILDCARD_KIND ? 'every event' : kind.split('.')[0]!,
    description: KIND_DESCRIPTIONS[kind as keyof typeof KIND_DESCRIPTIONS],
  }))
}
