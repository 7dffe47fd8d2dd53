import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { responses } from '../../platform/routes.js'
import {
  serveStream,
  StreamHeaders,
  StreamQuery,
  StreamResponse,
  type AuditLog,
  type StreamDeps,
} from '../audit/index.js'
import type { OrgsService } from '../orgs/index.js'
import type { PartnersService } from '../partners/index.js'
import {
  EventParams,
  OrgParams,
  V1Event,
  V1EventList,
  V1EventQuery,
  V1MemberList,
  V1MemberQuery,
  V1OrgList,
} from './v1.schemas.js'

/** The partner surface's own routes: the org event feed and the members, over the same services as /api. */
export function registerV1Routes(
  app: FastifyInstance,
  services: {
    audit: AuditLog
    orgs: OrgsService
    partners: Pick<PartnersService, 'markFeedRead'>
    eventStreams: StreamDeps
  },
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { audit, orgs, partners, eventStreams } = services

  registerOrgsRoute(app, orgs)

  api.get(
    '/v1/orgs/:orgId/events',
    {
      schema: {
        tags: ['Partner surface: org events'],
        operationId: 'listOrgEvents',
        summary: 'The org event feed, oldest first',
        description:
          'Filters `action`, `since`, `until`. The cursor is always returned, also on the last page and on an empty one: ' +
          'store it and poll later with `?cursor=` to get exactly the events appended since, none twice and none missed.',
        params: OrgParams,
        querystring: V1EventQuery,
        response: responses({ 200: V1EventList }),
      },
      config: { auth: 'client', access: 'events:read' },
    },
    // Written straight from the stored rows; the schema above documents it.
    async (request, reply) => {
      const page = await audit.listJson(request.ctx.orgId, request.query)
      // A partner's sandbox client reading its feed, for real: the integration_testing step's marker.
      await partners.markFeedRead(request.identity!.clientId!)
      return reply.type('application/json').send(page)
    },
  )

  registerStreamRoute(app, partners, eventStreams)

  api.get(
    '/v1/orgs/:orgId/events/:eventId',
    {
      schema: {
        tags: ['Partner surface: org events'],
        operationId: 'getOrgEvent',
        summary: 'One org event',
        params: EventParams,
        response: responses({ 200: V1Event }),
      },
      config: { auth: 'client', access: 'events:read' },
    },
    (request) => audit.get(request.ctx.orgId, request.params.eventId),
  )

  api.get(
    '/v1/orgs/:orgId/members',
    {
      schema: {
        tags: ['Partner surface: members'],
        operationId: 'listMembers',
        summary: 'Members of the org, newest first',
        params: OrgParams,
        querystring: V1MemberQuery,
        response: responses({ 200: V1MemberList }),
      },
      config: { auth: 'client', access: 'members:read' },
    },
    (request) => orgs.listMembers(request.ctx, request.query),
  )
}

/** The feed as it commits: server-sent events over the same reads as the poll. */
function registerStreamRoute(
  app: FastifyInstance,
  partners: Pick<PartnersService, 'markFeedRead'>,
  eventStreams: StreamDeps,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  api.get(
    '/v1/orgs/:orgId/events/stream',
    {
      schema: {
        tags: ['Partner surface: org events'],
        operationId: 'streamOrgEvents',
        summary: 'The org event feed as it commits: server-sent events, resumable with Last-Event-ID',
        description:
          'Each event’s `id:` is the feed cursor after it: reconnect with `Last-Event-ID` (or `?cursor=`) and the stream ' +
          'resumes exactly where a poll with that cursor would, none twice and none missed, on any node. Heartbeat ' +
          'comments keep it open; when the access token expires a `token_expired` event ends it. Opening one counts as ' +
          'a request against the client’s rate limit, and a client holds at most STREAM_MAX_PER_CLIENT at once (429 too_many_streams).',
        params: OrgParams,
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: { ...responses({}, [400, 429]), 200: StreamResponse } as never,
      },
      config: { auth: 'client', access: 'events:read' },
    },
    async (request, reply) => {
      await partners.markFeedRead(request.identity!.clientId!)
      await serveStream(eventStreams, request, reply, {
        orgId: request.ctx.orgId,
        cursor: request.headers['last-event-id'] ?? request.query.cursor,
        clientKey: request.identity!.rateKey,
        expiresAt: request.identity!.expiresAt ?? null,
      })
    },
  )
}

/** The org a token acts in: the {orgId} of every other path. */
function registerOrgsRoute(app: FastifyInstance, orgs: OrgsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  api.get(
    '/v1/orgs',
    {
      schema: {
        tags: ['Partner surface: orgs'],
        operationId: 'listOrgs',
        summary: 'The orgs this token may act in (a client acts in its own org): the orgId of every other route',
        response: responses({ 200: V1OrgList }),
      },
      config: { auth: 'client', orgScoped: false },
    },
    async (request) => ({ data: [await orgs.get(request.ctx.orgId)] }),
  )
}
