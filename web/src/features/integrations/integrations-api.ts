import { queryOptions, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../../api/client'
import { useWrite } from '../../app/write'
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

/** The kinds by their object (the part before the dot: `catalog`, `payout`), in the API's order. */
export function kindsByObject(kinds: readonly string[]): { object: string; kinds: string[] }[] {
  const groups = new Map<string, string[]>()
  for (const kind of kinds) {
    const object = kind.split('.')[0] ?? kind
    groups.set(object, [...(groups.get(object) ?? []), kind])
  }
  return [...groups].map(([object, members]) => ({ object, kinds: members }))
}

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

/** An endpoint's deliveries; asked again every second while one is pending (its attempts are under way). */
export const deliveryListQuery = (id: string, cursor: string | undefined) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(id, cursor),
    queryFn: () =>
      unwrap(
        api.GET('/api/webhooks/{id}/deliveries', {
          params: { path: { id }, query: { limit: 10, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    refetchInterval: (query) =>
      query.state.data?.data.some((delivery) => delivery.status === 'pending') ? 1000 : false,
  })

/** Creates a credential; the answer carries its secret, once. */
export function useCreateCredential() {
  return useWrite({
    request: (body: { name: string; scopes: Scope[] }, headers) => unwrap(api.POST('/api/clients', { body, headers })),
    invalidates: [credentialKeys.all],
  })
}

/** Rotates a credential's secret: the new one is answered once. Each rotation is a new request. */
export function useRotateCredential(id: string) {
  return useWrite({
    request: (_: void, headers) =>
      unwrap(api.POST('/api/clients/{id}/rotate-secret', { params: { path: { id } }, headers })),
    sameAs: () => ({ id, rotation: Date.now() }),
    invalidates: [credentialKeys.all],
  })
}

/** Revokes a credential: its secrets stop working at once. */
export function useRevokeCredential(id: string) {
  return useWrite({
    request: (_: void, headers) => unwrap(api.POST('/api/clients/{id}/revoke', { params: { path: { id } }, headers })),
    sameAs: () => ({ id, revoke: true }),
    invalidates: [credentialKeys.all],
  })
}

/** Registers a webhook; the answer carries its signing secret, once. */
export function useCreateWebhook() {
  return useWrite({
    request: (body: { url: string; events: string[] }, headers) => unwrap(api.POST('/api/webhooks', { body, headers })),
    invalidates: [webhookKeys.all],
  })
}

/** Sends a test event to the endpoint: each press sends one (a new request). */
export function useSendTestEvent(id: string) {
  return useWrite({
    request: (_: void, headers) => unwrap(api.POST('/api/webhooks/{id}/test', { params: { path: { id } }, headers })),
    sameAs: () => ({ id, test: Date.now() }),
    invalidates: [webhookKeys.all],
  })
}

/**
 * Enables or disables the endpoint. Each press is a new request: with one key per direction, a
 * second disable after an enable would replay the first answer and change nothing.
 */
export function useToggleWebhook(id: string) {
  return useWrite({
    request: (enable: boolean, headers) => {
      const options = { params: { path: { id } }, headers }
      return unwrap(
        enable ? api.POST('/api/webhooks/{id}/enable', options) : api.POST('/api/webhooks/{id}/disable', options),
      )
    },
    sameAs: (enable) => ({ id, enable, at: Date.now() }),
    invalidates: [webhookKeys.all],
  })
}

/** Rotates the signing secret: the new one is answered once. */
export function useRotateWebhookSecret(id: string) {
  return useWrite({
    request: (_: void, headers) =>
      unwrap(api.POST('/api/webhooks/{id}/rotate-secret', { params: { path: { id } }, headers })),
    sameAs: () => ({ id, rotation: Date.now() }),
    invalidates: [webhookKeys.all],
  })
}

/** Deletes an endpoint and its delivery log. */
export function useDeleteWebhook(id: string) {
  const queryClient = useQueryClient()
  return useWrite({
    request: (_: void, headers) => unwrap(api.DELETE('/api/webhooks/{id}', { params: { path: { id } }, headers })),
    sameAs: () => ({ id, delete: true }),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: webhookKeys.one(id) })
      await queryClient.invalidateQueries({ queryKey: webhookKeys.all })
    },
  })
}

/** Sends a delivery again, as a new attempt. */
export function useRedeliver(webhookId: string, deliveryId: string) {
  return useWrite({
    request: (_: void, headers) =>
      unwrap(
        api.POST('/api/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
          params: { path: { id: webhookId, deliveryId } },
          headers,
        }),
      ),
    sameAs: () => ({ webhookId, deliveryId, at: Date.now() }),
    invalidates: [webhookKeys.all],
  })
}

/** A page under a mount point (`{basePath}/new`, `{basePath}/{id}`): a plain string, since the mount is the caller's. */
export function pageUnder(basePath: string, tail: string): string {
  return `${basePath}/${tail}`
}

/** Every kind an endpoint may subscribe to, each with its one-line description and object (`GET /api/webhook-kinds`). */
export const webhookKindsQuery = () =>
  queryOptions({
    queryKey: ['webhook-kinds'] as const,
    queryFn: () => unwrap(api.GET('/api/webhook-kinds')),
    staleTime: Infinity,
  })

/**
 * Sends again every failed delivery created since `since` (ISO), 500 a call: calls again while the
 * API answers `more`, each call with its own key (the rounds are distinct requests), and answers the total.
 */
export function useRedeliverFailed(webhookId: string) {
  return useWrite({
    request: async (since: string, headers) => {
      let total = 0
      for (let round = 0; ; round += 1) {
        const key = round === 0 ? headers : { 'Idempotency-Key': `${headers['Idempotency-Key']}.${round}` }
        const answer = await unwrap(
          api.POST('/api/webhooks/{id}/deliveries/redeliver-failed', {
            params: { path: { id: webhookId } },
            body: { since },
            headers: key,
          }),
        )
        total += answer.redelivered
        if (!answer.more) return { redelivered: total }
      }
    },
    sameAs: (since) => ({ webhookId, since, at: Date.now() }),
    invalidates: [webhookKeys.all],
  })
}
