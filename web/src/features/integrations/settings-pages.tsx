import { createLazyRoute } from '@tanstack/react-router'
import { integrationPages } from './integration-pages'
import { SETTINGS_PATHS } from './integrations-api'

/** The org's API credentials and webhooks, under /settings. */
const pages = integrationPages(SETTINGS_PATHS)

export const credentialsListRoute = createLazyRoute('/app/settings/credentials')({ component: pages.CredentialsList })
export const newCredentialRoute = createLazyRoute('/app/settings/credentials/new')({ component: pages.NewCredential })
export const credentialRoute = createLazyRoute('/app/settings/credentials/$id')({ component: pages.Credential })
export const webhooksListRoute = createLazyRoute('/app/settings/webhooks')({ component: pages.WebhooksList })
export const newWebhookRoute = createLazyRoute('/app/settings/webhooks/new')({ component: pages.NewWebhook })
export const webhookRoute = createLazyRoute('/app/settings/webhooks/$id')({ component: pages.Webhook })
