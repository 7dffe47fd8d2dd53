import { createRoute } from '@tanstack/react-router'
import { appRoute } from './route-roots'
import { text } from './search'

/**
 * The org's API credentials and webhooks, under /settings, and the same pages in the partner
 * portal, under /portal (a credential there shows its request log). Part of `routes.ts`.
 */
export const cursorSearch = (search: Record<string, unknown>): { cursor?: string | undefined } => ({
  cursor: text(search.cursor),
})

/** A credential's page: the request log's filters and cursor (shown in the portal). */
const requestLogSearch = (
  search: Record<string, unknown>,
): { status?: string | undefined; path?: string | undefined; cursor?: string | undefined } => ({
  status: text(search.status),
  path: text(search.path),
  cursor: text(search.cursor),
})

/** The org's API credentials (OAuth clients) and webhook endpoints: list, new (the secret shown once), detail. */
const settingsCredentialsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/credentials',
  validateSearch: cursorSearch,
}).lazy(() => import('../features/integrations/settings-pages').then((pages) => pages.credentialsListRoute))

const settingsNewCredentialRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/credentials/new',
}).lazy(() => import('../features/integrations/settings-pages').then((pages) => pages.newCredentialRoute))

const settingsCredentialRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/credentials/$id',
  validateSearch: requestLogSearch,
}).lazy(() => import('../features/integrations/settings-pages').then((pages) => pages.credentialRoute))

const settingsWebhooksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/webhooks',
  validateSearch: cursorSearch,
}).lazy(() => import('../features/integrations/settings-pages').then((pages) => pages.webhooksListRoute))

const settingsNewWebhookRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/webhooks/new',
}).lazy(() => import('../features/integrations/settings-pages').then((pages) => pages.newWebhookRoute))

const settingsWebhookRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings/webhooks/$id',
  validateSearch: cursorSearch,
}).lazy(() => import('../features/integrations/settings-pages').then((pages) => pages.webhookRoute))

/** The same pages in the partner portal; a credential there shows its request log. */
const portalCredentialsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/portal/credentials',
  validateSearch: cursorSearch,
}).lazy(() => import('../features/portal/portal-integration-pages').then((pages) => pages.credentialsListRoute))

const portalNewCredentialRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/portal/credentials/new',
}).lazy(() => import('../features/portal/portal-integration-pages').then((pages) => pages.newCredentialRoute))

const portalCredentialRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/portal/credentials/$id',
  validateSearch: requestLogSearch,
}).lazy(() => import('../features/portal/portal-integration-pages').then((pages) => pages.credentialRoute))

const portalWebhooksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/portal/webhooks',
  validateSearch: cursorSearch,
}).lazy(() => import('../features/portal/portal-integration-pages').then((pages) => pages.webhooksListRoute))

const portalNewWebhookRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/portal/webhooks/new',
}).lazy(() => import('../features/portal/portal-integration-pages').then((pages) => pages.newWebhookRoute))

const portalWebhookRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/portal/webhooks/$id',
  validateSearch: cursorSearch,
}).lazy(() => import('../features/portal/portal-integration-pages').then((pages) => pages.webhookRoute))

export const integrationRoutes = [
  settingsCredentialsRoute,
  settingsNewCredentialRoute,
  settingsCredentialRoute,
  settingsWebhooksRoute,
  settingsNewWebhookRoute,
  settingsWebhookRoute,
  portalCredentialsRoute,
  portalNewCredentialRoute,
  portalCredentialRoute,
  portalWebhooksRoute,
  portalNewWebhookRoute,
  portalWebhookRoute,
] as const
