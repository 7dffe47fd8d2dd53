import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { webhookRoute } from '../../app/routes'
import { useSession } from '../../app/session'
import { SETTINGS_PATHS } from './integrations-api'
import { WebhookDetail } from './webhook-detail'

function WebhookDetailPage() {
  const { id } = webhookRoute.useParams()
  const { cursor } = webhookRoute.useSearch()
  const navigate = useNavigate({ from: '/settings/webhooks/$id' })
  const { can } = useSession()
  return (
    <WebhookDetail
      key={id}
      id={id}
      basePath={SETTINGS_PATHS.webhooks}
      deliveriesCursor={cursor}
      onDeliveriesCursor={(next) => void navigate({ search: next ? { cursor: next } : {} })}
      canWrite={can('webhooks:write')}
    />
  )
}

export const route = createLazyRoute('/app/settings/webhooks/$id')({ component: WebhookDetailPage })
