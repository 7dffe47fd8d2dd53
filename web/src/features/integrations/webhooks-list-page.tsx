import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { webhooksRoute } from '../../app/routes'
import { useSession } from '../../app/session'
import { SETTINGS_PATHS } from './integrations-api'
import { WebhooksList } from './webhooks-list'

function WebhooksListPage() {
  const { cursor } = webhooksRoute.useSearch()
  const navigate = useNavigate({ from: '/settings/webhooks' })
  const { can } = useSession()
  return (
    <WebhooksList
      basePath={SETTINGS_PATHS.webhooks}
      cursor={cursor}
      onCursor={(next) => void navigate({ search: next ? { cursor: next } : {} })}
      canWrite={can('webhooks:write')}
    />
  )
}

export const route = createLazyRoute('/app/settings/webhooks')({ component: WebhooksListPage })
