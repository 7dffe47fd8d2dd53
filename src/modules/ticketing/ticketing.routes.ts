import type { FastifyInstance } from 'fastify'
import { idempotent } from '../../platform/idempotent-route.js'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { TObject } from 'typebox'
import { responses } from '../../platform/routes.js'
import { idParams, mountTags, orgParams, type RouteMount } from '../../shared/records/records.mount.js'
import { CreateEventBody, EventList, EventQuery, TicketedEventSchema } from './ticketing.schemas.js'
import type { TicketingService } from './ticketing.service.js'

export function registerTicketingRoutes(app: FastifyInstance, ticketing: TicketingService, mount: RouteMount): void {
  const on: EventMount = {
    mount,
    tags: mountTags(mount, 'ticketed events'),
    params: orgParams(mount),
    common: { auth: mount.auth, module: 'events' },
  }
  registerEventRecordRoutes(app, ticketing, on)
  registerEventStatusRoutes(app, ticketing, on)
}

/** What the event routes of one mount share: its tags, its org parameter, its auth. */
interface EventMount {
  mount: RouteMount
  tags: string[]
  params: TObject | undefined
  common: { readonly auth: RouteMount['auth']; readonly module: 'events' }
}

/** List, create and read events. */
function registerEventRecordRoutes(app: FastifyInstance, ticketing: TicketingService, on: EventMount): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { mount, tags, params, common } = on

  api.get(
    mount.prefix,
    {
      schema: {
        tags,
        operationId: 'listTicketedEvents',
        summary: 'List ticketed events, newest first',
        ...(params ? { params } : {}),
        querystring: EventQuery,
        response: responses({ 200: EventList }),
      },
      config: { ...common, access: 'ticketing:read' },
    },
    (request) => ticketing.list(request.ctx, request.query),
  )

  api.post(
    mount.prefix,
    {
      schema: {
        tags,
        operationId: 'createTicketedEvent',
        summary: 'Create a ticketed event (emits ticketed_event.created)',
        ...(params ? { params } : {}),
        body: CreateEventBody,
        response: responses({ 201: TicketedEventSchema }, [409, 422]),
      },
      config: { ...common, access: 'ticketing:write', idempotent: true, successStatus: 201 },
    },
    idempotent(async (request, reply, answer) =>
      reply.code(201).send(await ticketing.create(request.ctx, request.body, answer)),
    ),
  )

  api.get(
    `${mount.prefix}/:id`,
    {
      schema: {
        tags,
        operationId: 'getTicketedEvent',
        summary: 'Fetch one ticketed event',
        params: idParams(mount),
        response: responses({ 200: TicketedEventSchema }),
      },
      config: { ...common, access: 'ticketing:read' },
    },
    (request) => ticketing.get(request.ctx, request.params.id),
  )
}

/** An event published, or cancelled. */
function registerEventStatusRoutes(app: FastifyInstance, ticketing: TicketingService, on: EventMount): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { mount, tags, common } = on

  api.post(
    `${mount.prefix}/:id/publish`,
    {
      schema: {
        tags,
        operationId: 'publishTicketedEvent',
        summary: 'Publish a draft event (emits ticketed_event.published)',
        params: idParams(mount),
        response: responses({ 200: TicketedEventSchema }, [409, 422]),
      },
      config: { ...common, access: 'ticketing:write', idempotent: true, successStatus: 200 },
    },
    idempotent((request, _reply, answer) => ticketing.publish(request.ctx, request.params.id, answer)),
  )

  api.post(
    `${mount.prefix}/:id/cancel`,
    {
      schema: {
        tags,
        operationId: 'cancelTicketedEvent',
        summary: 'Cancel an event that has not ended (emits ticketed_event.cancelled)',
        params: idParams(mount),
        response: responses({ 200: TicketedEventSchema }, [409, 422]),
      },
      config: { ...common, access: 'ticketing:write', idempotent: true, successStatus: 200 },
    },
    idempotent((request, _reply, answer) => ticketing.cancel(request.ctx, request.params.id, answer)),
  )
}
