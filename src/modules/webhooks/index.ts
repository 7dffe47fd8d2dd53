/** Webhooks: endpoints, the outbox the audit log fills, signed deliveries and their worker. */
export { registerWebhookRoutes, PARTNER_SURFACE, SESSION_SURFACE } from './webhooks.routes.js'
export { registerWebhookKindsRoute } from './webhooks.kinds-route.js'
export { createWebhooksModule, webhookOutbox, type WebhookNetwork, type WebhooksModule } from './webhooks.module.js'
export type { WebhookService } from './webhooks.service.js'
export { deliveryPayload } from './webhooks.repo.js'
export { ENDPOINT_CONCURRENCY } from './webhooks.worker.js'
export type { HostLookup, ResolvedAddress } from './webhooks.ssrf.js'
