import { createWebhookDeliveries, type WebhookDeliveries, type WebhookDeliveriesDeps } from './webhooks.deliveries.js'
import { createWebhookEndpoints, type WebhookEndpoints, type WebhookEndpointsDeps } from './webhooks.endpoints.js'

export { SECRET_OVERLAP_MS, type WebhookWithNewSecret } from './webhooks.endpoints.js'

/**
 * Webhooks over the API: the org's endpoints (webhooks.endpoints.ts) and their deliveries
 * (webhooks.deliveries.ts). The worker that sends them is webhooks.worker.ts.
 */
export interface WebhookService extends WebhookEndpoints, WebhookDeliveries {}

export type WebhookServiceDeps = WebhookEndpointsDeps & WebhookDeliveriesDeps

export function createWebhookService(deps: WebhookServiceDeps): WebhookService {
  return { ...createWebhookEndpoints(deps), ...createWebhookDeliveries(deps) }
}
