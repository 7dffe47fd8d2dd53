import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { idempotent, type StoredAnswer } from '../../platform/idempotent-route.js'
import type { FastifyInstance } from 'fastify'
import { Type, type TProperties, type TSchema } from 'typebox'
import type { RequestContext } from '../../platform/context.js'
import { idPattern } from '../../platform/ids.js'
import { NoContent, responses } from '../../platform/routes.js'
import type { WebhookService } from './webhooks.service.js'
import {
  CreateWebhookBody,
  DeliveryList,
  DeliveryListQuery,
  DeliverySchema,
  RedeliverFailedBody,
  RedeliverFailedResult,
  WebhookList,
  WebhookListQuery,
  WebhookSchema,
  WebhookWithSecret,
} from './webhooks.schemas.js'

export interface WebhookSurface {
  /** `/api/webhooks` (session) or `/v1/orgs/:orgId/webhooks` (OAuth client). */
  prefix: string
  auth: 'session' | 'client'
  tag: string
}

export const SESSION_SURFACE: WebhookSurface = {
  prefix: '/api/webhooks',
  auth: 'session',
  tag: 'Session surface: webhooks',
}
export const PARTNER_SURFACE: WebhookSurface = {
  prefix: '/v1/orgs/:orgId/webhooks',
  auth: 'client',
  tag: 'Partner surface: webhooks',
}

const Id = Type.String({ maxLength: 64 })

/** The same routes on either surface: one service, the org from the session or the path. */
export function registerWebhookRoutes(app: FastifyInstance, webhooks: WebhookService, surface: WebhookSurface): void {
  const on = surfaceRoutes(surface)
  registerEndpointRoutes(app, webhooks, on)
  registerEndpointActions(app, webhooks, on)
  registerDeliveryRoutes(app, webhooks, on)
}

/** What the routes of one surface share: path, auth, tags, parameters and configs. */
function surfaceRoutes({ prefix, auth, tag }: WebhookSurface) {
  // The partner surface names the org in the path; the guard checks it is the token's.
  const org: TProperties = auth === 'client' ? { orgId: Type.String({ pattern: idPattern('org') }) } : {}
  return {
    prefix,
    auth,
    tags: [tag],
    ListParams: Type.Object({ ...org }),
    IdParams: Type.Object({ ...org, id: Id }),
    DeliveryParams: Type.Object({ ...org, id: Id, deliveryId: Id }),
    read: { auth, access: 'webhooks:read', module: 'webhooks' } as const,
    write: { auth, access: 'webhooks:write', module: 'webhooks', idempotent: true } as const,
  }
}

type SurfaceRoutes = ReturnType<typeof surfaceRoutes>

/** List, create, read and delete endpoints. */
function registerEndpointRoutes(app: FastifyInstance, webhooks: WebhookService, on: SurfaceRoutes): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { prefix, auth, tags, ListParams, IdParams, read, write } = on

  api.get(
    prefix,
    {
      schema: {
        tags,
        operationId: 'listWebhooks',
        summary: 'List webhook endpoints',
        params: ListParams,
        querystring: WebhookListQuery,
        response: responses({ 200: WebhookList }),
      },
      config: read,
    },
    (request) => webhooks.list(request.ctx, request.query),
  )

  api.post(
    prefix,
    {
      schema: {
        tags,
        operationId: 'createWebhook',
        summary: 'Register an endpoint; the answer carries its signing secret (shown once)',
        params: ListParams,
        body: CreateWebhookBody,
        response: responses({ 201: WebhookWithSecret }, [409, 422]),
      },
      config: { ...write, successStatus: 201 },
    },
    idempotent(async (request, reply, answer) =>
      reply.code(201).send(await webhooks.create(request.ctx, request.body, answer)),
    ),
  )

  api.get(
    `${prefix}/:id`,
    {
      schema: {
        operationId: 'getWebhook',
        tags,
        summary: 'One webhook endpoint',
        params: IdParams,
        response: responses({ 200: WebhookSchema }),
      },
      config: read,
    },
    (request) => webhooks.get(request.ctx, request.params.id),
  )

  api.delete(
    `${prefix}/:id`,
    {
      schema: {
        tags,
        operationId: 'deleteWebhook',
        summary: 'Delete an endpoint (its delivery log is kept until pruned)',
        params: IdParams,
        response: responses({ 204: NoContent }),
      },
      config: { auth, access: 'webhooks:write', module: 'webhooks' },
    },
    async (request, reply) => {
      await webhooks.remove(request.ctx, request.params.id)
      return reply.code(204).send()
    },
  )
}

/** An endpoint disabled, enabled, given a new secret, or sent a test event. */
function registerEndpointActions(app: FastifyInstance, webhooks: WebhookService, on: SurfaceRoutes): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { prefix, tags, IdParams, write } = on
  const action = (
    path: string,
    operationId: string,
    summary: string,
    run: (ctx: RequestContext, id: string, answer: StoredAnswer | undefined) => Promise<unknown>,
    schema: TSchema = WebhookSchema,
  ) =>
    api.post(
      `${prefix}/:id/${path}`,
      {
        schema: { operationId, tags, summary, params: IdParams, response: responses({ 200: schema }, [409, 422]) },
        config: { ...write, successStatus: 200 },
      },
      idempotent((request, _reply, answer) => run(request.ctx, request.params.id, answer)),
    )

  action('disable', 'disableWebhook', 'Stop deliveries to this endpoint', (ctx, id, answer) =>
    webhooks.disable(ctx, id, answer),
  )
  action('enable', 'enableWebhook', 'Resume deliveries to this endpoint', (ctx, id, answer) =>
    webhooks.enable(ctx, id, answer),
  )
  action(
    'rotate-secret',
    'rotateWebhookSecret',
    'New signing secret; for 24 hours X-Service-Signature stays signed with the old one, webhook-signature with both',
    (ctx, id, answer) => webhooks.rotateSecret(ctx, id, answer),
    WebhookWithSecret,
  )
  action(
    'test',
    'testWebhook',
    'Send a webhook.test event to this endpoint only',
    (ctx, id, answer) => webhooks.test(ctx, id, answer),
    DeliverySchema,
  )
}

/** An endpoint's delivery log, and a delivery sent again. */
function registerDeliveryRoutes(app: FastifyInstance, webhooks: WebhookService, on: SurfaceRoutes): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { prefix, tags, IdParams, DeliveryParams, read, write } = on

  api.get(
    `${prefix}/:id/deliveries`,
    {
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'Delivery log: every delivery with every attempt, newest first',
        params: IdParams,
        querystring: DeliveryListQuery,
        response: responses({ 200: DeliveryList }),
      },
      config: read,
    },
    (request) => webhooks.listDeliveries(request.ctx, request.params.id, request.query),
  )

  api.post(
    `${prefix}/:id/deliveries/:deliveryId/redeliver`,
    {
      schema: {
        tags,
        operationId: 'redeliverWebhookDelivery',
        summary: 'Send a delivery again (same delivery id, a new run of the retry schedule)',
        params: DeliveryParams,
        response: responses({ 200: DeliverySchema }, [409, 422]),
      },
      config: { ...write, successStatus: 200 },
    },
    idempotent((request, _reply, answer) =>
      webhooks.redeliver(request.ctx, request.params.id, request.params.deliveryId, answer),
    ),
  )

  api.post(
    `${prefix}/:id/deliveries/redeliver-failed`,
    {
      schema: {
        tags,
        operationId: 'redeliverFailedWebhookDeliveries',
        summary: 'Send again every failed delivery created since a time (oldest first, up to 500 a call)',
        params: IdParams,
        body: RedeliverFailedBody,
        response: responses({ 200: RedeliverFailedResult }, [422]),
      },
      config: { ...write, successStatus: 200 },
    },
    idempotent((request, _reply, answer) =>
      webhooks.redeliverFailed(request.ctx, request.params.id, request.body, answer),
    ),
  )
}
