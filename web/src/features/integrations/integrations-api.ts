import { queryOptions } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../../api/client'
import { SCOPES, type Scope } from '../../../../src/platform/permissions.js'
import { ORG_EVENT_ACTIONS, EVERY_EVENT_KIND, WILDCARD_KIND } from '../../../../src/modules/webhooks/webhooks.kinds.js'

export type Credential = Schemas['OAuthClient']
export type CredentialWithSecret = Schemas['OAuthClientWithSecret']
export type Webhook = Schemas['Webhook']
export type WebhookWithSecret = Schemas['WebhookWithSecret']
export type Delivery = Schemas['WebhookDelivery']
export type Attempt = Delivery['attempts'][number]

/** The scopes a credential may be given: the API's own list. */
export const CREDENTIAL_SCOPES: readonly Scope[] = SCOPES
export type { Scope }

/** The kinds a webhook may subscribe to: every org event action, then the two catch-alls. */
export const WEBHOOK_ACTIONS: readonly string[] = ORG_EVENT_ACTIONS
export { EVERY_EVENT_KIND, WILDCARD_KIND }

/**
 * Where the pages are mounted: each feature's list path; `new` and the detail (`/{id}`) sit under it.
 * The org's settings use `/settings/credentials` and `/settings/webhooks`; another mount passes its own.
 */
export interface IntegrationPaths {
  credentials: string
  webhooks: string
}

export const SETTINGS_PATHS: IntegrationPaths = {
  credentials: '/settings/credentials',
  webhooks: '/settings/webhooks',
}

export const credentialKeys = {
  all: ['credentials'] as const,
  list: (cursor: string | undefined) => ['credentials', 'list', { cursor }] as const,
  one: (id: string) => ['credentials', 'one', id] as const,
}

export const credentialListQuery = (cursor: string | undefined) =>
  queryOptions({
    queryKey: credentialKeys.list(cursor),
    queryFn: () => unwrap(api.GET('/api/clients', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } })),
  })

export const credentialQuery = (id: string) =>
  queryOptions({
    queryKey: credentialKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/clients/{id}', { params: { path: { id } } })),
  })

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (cursor: string | undefined) => ['webhooks', 'list', { cursor }] as const,
  one: (id: string) => ['webhooks', 'one', id] as const,
  deliveries: (id: string, cursor: string | undefined) => ['webhooks', 'deliveries', id, { cursor }] as const,
}

export const webhookListQuery = (cursor: string | undefined) =>
  queryOptions({
    queryKey: webhookKeys.list(cursor),
    queryFn: () =>
      unwrap(api.GET('/api/webhooks', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } })),
  })

export const webhookQuery = (id: string) =>
  queryOptions({
    queryKey: webhookKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/webhooks/{id}', { params: { path: { id } } })),
  })

export const deliveryListQuery = (id: string, cursor: string | undefined) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(id, cursor),
    queryFn: () =>
      unwrap(
        api.GET('/api/webhooks/{id}/deliveries', {
          params: { path: { id }, query: { limit: 10, ...(cursor ? { cursor } : {}) } },
        }),
      ),
  })

/** A timestamp as the person's locale writes it (the API's ISO text in the title). */
export function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : '—'
}

/** A page under a mount point (`{basePath}/new`, `{basePath}/{id}`): a plain string, since the mount is the caller's. */
export function pageUnder(basePath: string, tail: string): string {
  return `${basePath}/${tail}`
}
