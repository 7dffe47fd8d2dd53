/** What each object's kinds are about, for people (an object not listed is shown by its own name). */
export const OBJECT_NAMES: Readonly<Record<string, string>> = {
  org: 'Organisation',
  member: 'Members',
  catalog: 'Catalog',
  creator: 'Creators',
  revenue: 'Revenue',
  payout: 'Payouts',
  payouts: 'Payout runs',
  ticketed_event: 'Ticketed events',
  client: 'API credentials',
  webhook: 'Webhooks',
  evidence: 'Evidence seals',
  partner: 'Partner programme',
}
