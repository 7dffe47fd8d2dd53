import { createRoute, createRouter, redirect } from '@tanstack/react-router'
import type { AuditSearch } from '../features/audit/audit-api'
import {
  CATALOG_KINDS,
  CATALOG_PAGE_SIZES,
  catalogListQuery,
  type CatalogSearch,
} from '../features/catalog/catalog-api'
import { balancesQuery, PAYOUT_STATUSES, payoutListQuery, type PayoutSearch } from '../features/payouts/payouts-api'
import { PARTNER_STATUSES, type PartnerStatus } from '../features/portal/portal-names'
import type { SignupDraft } from '../features/portal/portal-api'
import { revenueListQuery, type RevenueSearch } from '../features/revenue/revenue-api'
import { integrationRoutes } from './integration-routes'
import { NotFound } from './not-found'
import { queryClient } from './query-client'
import { appRoute, rootRoute } from './route-roots'
import { oneOf, text } from './search'

/**
 * The app's routes, in one place: path, parent and the search parameters each page keeps in the
 * URL (filters and the cursor). Each page's component is loaded with it (`.lazy`), so the first
 * load carries only the shell. Pages never import this file: they read their route with
 * `getRouteApi('/app/payouts')` (its id), so no module depends on the routes back. The root and
 * the signed-in shell's route are in `route-roots.ts`; the integrations' pages in `integration-routes.ts`.
 */

/** The login page; `notice` says why the person is here (their password was just changed). */
const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (
    search: Record<string, unknown>,
  ): { redirect?: string | undefined; notice?: 'password-changed' | undefined } => ({
    redirect: text(search.redirect),
    notice: oneOf(search.notice, ['password-changed'] as const),
  }),
}).lazy(() => import('../features/auth/login-page').then((page) => page.route))

/** "Forgot password?", and the emailed link's page that sets the new one: outside the shell, signed out. */
const forgotPasswordRoute = createRoute({ getParentRoute: () => rootRoute, path: '/forgot-password' }).lazy(() =>
  import('../features/auth/forgot-password-page').then((page) => page.route),
)

const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reset-password',
  validateSearch: (search: Record<string, unknown>): { token?: string | undefined } => ({ token: text(search.token) }),
}).lazy(() => import('../features/auth/reset-password-page').then((page) => page.route))

const signupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signup',
  validateSearch: (search: Record<string, unknown>): { redirect?: string | undefined } => ({
    redirect: text(search.redirect),
  }),
}).lazy(() => import('../features/auth/signup-page').then((page) => page.route))

/**
 * A partner's sign-up: outside the shell, like the app's own sign-up. Another region's sign-up
 * links here with what was typed there (never the password).
 */
const partnerSignupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/portal/signup',
  validateSearch: (search: Record<string, unknown>): SignupDraft => ({
    name: text(search.name),
    email: text(search.email),
    company: text(search.company),
    tier: text(search.tier),
  }),
}).lazy(() => import('../features/portal/partner-signup-page').then((page) => page.route))

/** The invitation link: outside the shell, since whoever opens it may not be signed in or in any org yet. */
const acceptInvitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invitations/accept',
  validateSearch: (search: Record<string, unknown>): { token?: string | undefined } => ({
    token: text(search.token),
  }),
}).lazy(() => import('../features/members/accept-invitation-page').then((page) => page.route))

/** The app opens on the catalog: a redirect before anything renders (the shell then sends a person with no org on). */
const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/catalog', search: {} })
  },
})

const newOrgRoute = createRoute({ getParentRoute: () => appRoute, path: '/orgs/new' }).lazy(() =>
  import('../features/orgs/new-org-page').then((page) => page.route),
)

const catalogRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/catalog',
  validateSearch: (search: Record<string, unknown>): CatalogSearch => ({
    kind: oneOf(search.kind, CATALOG_KINDS),
    isrc: text(search.isrc),
    creatorId: text(search.creatorId),
    q: text(search.q),
    limit: CATALOG_PAGE_SIZES.find((size) => String(size) === text(search.limit)),
    cursor: text(search.cursor),
  }),
  // The list is asked for at once, beside the user and the page's code (the page shows it when it comes).
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(catalogListQuery(deps)),
}).lazy(() => import('../features/catalog/catalog-list-page').then((page) => page.route))

const newCatalogRoute = createRoute({ getParentRoute: () => appRoute, path: '/catalog/new' }).lazy(() =>
  import('../features/catalog/catalog-new-page').then((page) => page.route),
)

const catalogEntryRoute = createRoute({ getParentRoute: () => appRoute, path: '/catalog/$id' }).lazy(() =>
  import('../features/catalog/catalog-detail-page').then((page) => page.route),
)

const correctCatalogRoute = createRoute({ getParentRoute: () => appRoute, path: '/catalog/$id/correct' }).lazy(() =>
  import('../features/catalog/catalog-correct-page').then((page) => page.route),
)

const creatorsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/creators',
  validateSearch: (search: Record<string, unknown>): { cursor?: string | undefined } => ({
    cursor: text(search.cursor),
  }),
}).lazy(() => import('../features/creators/creators-list-page').then((page) => page.route))

const newCreatorRoute = createRoute({ getParentRoute: () => appRoute, path: '/creators/new' }).lazy(() =>
  import('../features/creators/creator-new-page').then((page) => page.route),
)

const creatorRoute = createRoute({ getParentRoute: () => appRoute, path: '/creators/$id' }).lazy(() =>
  import('../features/creators/creator-detail-page').then((page) => page.route),
)

const eventsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/events',
  validateSearch: (search: Record<string, unknown>): { cursor?: string | undefined } => ({
    cursor: text(search.cursor),
  }),
}).lazy(() => import('../features/events/events-list-page').then((page) => page.route))

const newEventRoute = createRoute({ getParentRoute: () => appRoute, path: '/events/new' }).lazy(() =>
  import('../features/events/event-new-page').then((page) => page.route),
)

const eventRoute = createRoute({ getParentRoute: () => appRoute, path: '/events/$id' }).lazy(() =>
  import('../features/events/event-detail-page').then((page) => page.route),
)

const membersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/members',
  validateSearch: (
    search: Record<string, unknown>,
  ): { cursor?: string | undefined; invitations?: string | undefined } => ({
    cursor: text(search.cursor),
    invitations: text(search.invitations),
  }),
}).lazy(() => import('../features/members/members-page').then((page) => page.route))

/** The signed-in person's account: name, email and which emails they receive (no org needed). */
const accountRoute = createRoute({ getParentRoute: () => appRoute, path: '/account' }).lazy(() =>
  import('../features/account/account-page').then((page) => page.route),
)

/** The partner portal's home: onboarding, limits, the way to credentials and webhooks. */
const portalRoute = createRoute({ getParentRoute: () => appRoute, path: '/portal' }).lazy(() =>
  import('../features/portal/portal-page').then((page) => page.route),
)

/** A signed-in account applies to be a partner, keeping its orgs (no org needed). */
const partnerApplyRoute = createRoute({ getParentRoute: () => appRoute, path: '/portal/apply' }).lazy(() =>
  import('../features/portal/partner-apply-page').then((page) => page.route),
)

/** The operator console (operators only; the API answers 404 to anyone else). */
const operatorQueueRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/portal/operator',
  validateSearch: (
    search: Record<string, unknown>,
  ): { status?: PartnerStatus | undefined; cursor?: string | undefined } => ({
    status: oneOf(search.status, PARTNER_STATUSES),
    cursor: text(search.cursor),
  }),
}).lazy(() => import('../features/portal/operator-queue-page').then((page) => page.route))

const operatorPartnerRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/portal/operator/$partnerId',
}).lazy(() => import('../features/portal/operator-partner-page').then((page) => page.route))

const auditRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/audit',
  validateSearch: (search: Record<string, unknown>): AuditSearch => ({
    action: text(search.action),
    since: text(search.since),
    until: text(search.until),
    cursor: text(search.cursor),
  }),
}).lazy(() => import('../features/audit/audit-list-page').then((page) => page.route))

const auditEventRoute = createRoute({ getParentRoute: () => appRoute, path: '/audit/$eventId' }).lazy(() =>
  import('../features/audit/audit-event-page').then((page) => page.route),
)

const revenueRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/revenue',
  validateSearch: (search: Record<string, unknown>): RevenueSearch => ({
    catalogId: text(search.catalogId),
    creatorId: text(search.creatorId),
    periodFrom: text(search.periodFrom),
    periodTo: text(search.periodTo),
    currency: text(search.currency),
    batchId: text(search.batchId),
    cursor: text(search.cursor),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(revenueListQuery(deps)),
}).lazy(() => import('../features/revenue/revenue-list-page').then((page) => page.route))

/** The revenue form; `eventId` comes from an event's "Record ticket sales" link. */
const newRevenueRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/revenue/new',
  validateSearch: (search: Record<string, unknown>): { eventId?: string | undefined } => ({
    eventId: text(search.eventId),
  }),
}).lazy(() => import('../features/revenue/revenue-new-page').then((page) => page.route))

const payoutsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/payouts',
  validateSearch: (search: Record<string, unknown>): PayoutSearch => ({
    status: oneOf(search.status, PAYOUT_STATUSES),
    cursor: text(search.cursor),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(payoutListQuery(deps)),
}).lazy(() => import('../features/payouts/payouts-list-page').then((page) => page.route))

const balancesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/payouts/balances',
  validateSearch: (search: Record<string, unknown>): { cursor?: string | undefined } => ({
    cursor: text(search.cursor),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(balancesQuery(deps.cursor)),
}).lazy(() => import('../features/payouts/balances-page').then((page) => page.route))

/** A payout; `cursor` pages its statement lines. */
const payoutRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/payouts/$id',
  validateSearch: (search: Record<string, unknown>): { cursor?: string | undefined } => ({
    cursor: text(search.cursor),
  }),
}).lazy(() => import('../features/payouts/payout-detail-page').then((page) => page.route))

/** A statement upload (CSV) and its report: its own feature, apart from the revenue lists. */
const revenueImportRoute = createRoute({ getParentRoute: () => appRoute, path: '/revenue/import' }).lazy(() =>
  import('../features/revenue-import/revenue-import-page').then((page) => page.route),
)

const routeTree = rootRoute.addChildren([
  loginRoute,
  forgotPasswordRoute,
  resetPasswordRoute,
  signupRoute,
  partnerSignupRoute,
  acceptInvitationRoute,
  appRoute.addChildren([
    homeRoute,
    newOrgRoute,
    catalogRoute,
    newCatalogRoute,
    catalogEntryRoute,
    correctCatalogRoute,
    creatorsRoute,
    newCreatorRoute,
    creatorRoute,
    eventsRoute,
    newEventRoute,
    eventRoute,
    membersRoute,
    accountRoute,
    portalRoute,
    partnerApplyRoute,
    operatorQueueRoute,
    operatorPartnerRoute,
    auditRoute,
    auditEventRoute,
    revenueRoute,
    newRevenueRoute,
    payoutsRoute,
    balancesRoute,
    payoutRoute,
    revenueImportRoute,
    ...integrationRoutes,
  ]),
])

export const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  defaultNotFoundComponent: NotFound,
  scrollRestoration: true,
})

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router
  }
}
