import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { Access } from '../../../src/platform/permissions.js'
import { operatorPartnersQuery, partnerQuery } from '../features/portal/portal-api'
import { useSession } from './session'

interface NavigationItem {
  to: string
  label: string
  access?: Access
  exact?: boolean
}

/** The active org's pages, in the navigation's order (some only for roles that may read them). */
const ORG_PAGES: readonly NavigationItem[] = [
  { to: '/catalog', label: 'Catalog' },
  { to: '/creators', label: 'Creators' },
  { to: '/events', label: 'Events' },
  { to: '/revenue', label: 'Revenue' },
  { to: '/payouts/balances', label: 'Balances' },
  // Exact, so the balances page (under /payouts) does not mark this link too.
  { to: '/payouts', label: 'Payouts', exact: true },
  { to: '/members', label: 'Members' },
  { to: '/audit', label: 'Audit log' },
]

/**
 * The integration pages: the org settings' for everyone, the portal's own mount of the same pages for
 * a partner (one set in the navigation, never both).
 */
const integrationPages = (base: '/settings' | '/portal'): readonly NavigationItem[] => [
  { to: `${base}/webhooks`, label: 'Webhooks' },
  { to: `${base}/credentials`, label: 'API credentials', access: 'clients:read' },
]

/**
 * Whether the person is a partner and whether an operator: the API decides (`/api/partner` answers
 * 404 to anyone not a partner, the review queue 404 to anyone not an operator), asked once a session.
 */
function useProgramRoles() {
  const partner = useQuery({ ...partnerQuery, retry: false, refetchInterval: false, staleTime: 60_000 })
  const operator = useQuery({ ...operatorPartnersQuery({}), retry: false, staleTime: Infinity })
  return { partner: partner.isSuccess, operator: operator.isSuccess }
}

/**
 * The pages the person may read, the current one marked: the active org's (with its role's), the
 * partner portal for partners only, the operator console for operators.
 */
export function MainNavigation() {
  const { active, can } = useSession()
  const { partner, operator } = useProgramRoles()
  const items: NavigationItem[] = [
    ...(active ? [...ORG_PAGES, ...integrationPages(partner ? '/portal' : '/settings')] : []),
    ...(partner ? [{ to: '/portal', label: 'Partner portal', exact: true }] : []),
    ...(operator ? [{ to: '/portal/operator', label: 'Operator console' }] : []),
  ]
  if (items.length === 0) return null
  return (
    <nav className="shell-nav" aria-label="Main">
      <ul>
        {items
          .filter((item) => !item.access || can(item.access))
          .map((item) => (
            <li key={item.to}>
              <Link
                to={item.to}
                activeOptions={{ exact: item.exact === true }}
                activeProps={{ 'aria-current': 'page', className: 'active' }}
              >
                {item.label}
              </Link>
            </li>
          ))}
      </ul>
    </nav>
  )
}
