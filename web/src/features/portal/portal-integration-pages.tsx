import { createLazyRoute, useNavigate, useSearch } from '@tanstack/react-router'
import { integrationPages } from '../integrations/integration-pages'
import type { IntegrationPaths } from '../integrations/integrations-api'
import { RequestLog, type RequestLogSearch } from './request-log'

const PORTAL_PATHS: IntegrationPaths = { credentials: '/portal/credentials', webhooks: '/portal/webhooks' }

/** A portal credential's request log, its filters and cursor in the page's URL. */
function CredentialRequestLog({ clientId }: { clientId: string }) {
  const search = useSearch({ strict: false }) as RequestLogSearch
  const navigate = useNavigate()
  return (
    <RequestLog
      clientId={clientId}
      search={{ status: search.status, path: search.path, cursor: search.cursor }}
      onSearch={(next) => void navigate({ to: '.', search: next })}
    />
  )
}

/** The partner portal's credentials (each with its request log) and webhooks: the org settings' pages, mounted here. */
const pages = integrationPages(PORTAL_PATHS, { credential: (id) => <CredentialRequestLog clientId={id} /> })

export const credentialsListRoute = createLazyRoute('/app/portal/credentials')({ component: pages.CredentialsList })
export const newCredentialRoute = createLazyRoute('/app/portal/credentials/new')({ component: pages.NewCredential })
export const credentialRoute = createLazyRoute('/app/portal/credentials/$id')({ component: pages.Credential })
export const webhooksListRoute = createLazyRoute('/app/portal/webhooks')({ component: pages.WebhooksList })
export const newWebhookRoute = createLazyRoute('/app/portal/webhooks/new')({ component: pages.NewWebhook })
export const webhookRoute = createLazyRoute('/app/portal/webhooks/$id')({ component: pages.Webhook })
