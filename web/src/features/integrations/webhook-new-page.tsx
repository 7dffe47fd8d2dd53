import { createLazyRoute } from '@tanstack/react-router'
import { SETTINGS_PATHS } from './integrations-api'
import { WebhookCreate } from './webhook-create'

function NewWebhookPage() {
  return <WebhookCreate basePath={SETTINGS_PATHS.webhooks} />
}

export const route = createLazyRoute('/app/settings/webhooks/new')({ component: NewWebhookPage })
