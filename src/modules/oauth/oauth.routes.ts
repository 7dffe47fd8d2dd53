import type { FastifyInstance } from 'fastify'
import { idempotent } from '../../platform/idempotent-route.js'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { responses } from '../../platform/routes.js'
import type { ClientsService } from './oauth.clients.js'
import type { RequestLog } from './oauth.request-log.js'
import {
  ClientIdParams,
  ClientList,
  ClientQuery,
  ClientRequestList,
  ClientRequestQuery,
  ClientSchema,
  ClientWithSecret,
  CreateClientBody,
} from './oauth.schemas.js'

const SECRET_ONCE =
  'The secret is shown in this response only (just its SHA-256 hash is kept): an idempotent replay returns the client without it.'

/** OAuth client management on the session surface: owners and admins of the active org. */
export function registerClientRoutes(app: FastifyInstance, clients: ClientsService, requestLog: RequestLog): void {
  registerClientRecordRoutes(app, clients)
  registerClientRequestLogRoute(app, requestLog)
  registerClientCredentialRoutes(app, clients)
}

const tags = ['Session surface: OAuth clients']

/** Create, list and read clients. */
function registerClientRecordRoutes(app: FastifyInstance, clients: ClientsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/api/clients',
    {
      schema: {
        tags,
        operationId: 'createOAuthClient',
        summary: 'Create an OAuth client (emits client.created)',
        description: `${SECRET_ONCE} Clients of a sandbox org get cs_test_ secrets and the sandbox rate tier; production orgs need a passed partner onboarding review (403 production_access_pending until then).`,
        body: CreateClientBody,
        response: responses({ 201: ClientWithSecret }),
      },
      config: { auth: 'session', access: 'clients:write', idempotent: true, successStatus: 201 },
    },
    idempotent(async (request, reply, answer) =>
      reply.code(201).send(await clients.create(request.ctx, request.body, answer)),
    ),
  )

  api.get(
    '/api/clients',
    {
      schema: {
        tags,
        operationId: 'listOAuthClients',
        summary: 'OAuth clients of the active org, newest first',
        querystring: ClientQuery,
        response: responses({ 200: ClientList }),
      },
      config: { auth: 'session', access: 'clients:read' },
    },
    (request) => clients.list(request.ctx, request.query),
  )

  api.get(
    '/api/clients/:id',
    {
      schema: {
        operationId: 'getOAuthClient',
        tags,
        summary: 'One OAuth client',
        params: ClientIdParams,
        response: responses({ 200: ClientSchema }),
      },
      config: { auth: 'session', access: 'clients:read' },
    },
    (request) => clients.get(request.ctx, request.params.id),
  )
}

function registerClientRequestLogRoute(app: FastifyInstance, requestLog: RequestLog): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/clients/:id/requests',
    {
      schema: {
        operationId: 'listOAuthClientRequests',
        tags,
        summary: 'The client’s request log: its /oauth/token and /v1 requests of the last 30 days, newest first',
        description:
          'Every request made with the client’s credentials (a token request with a wrong secret included, as 401), ' +
          'recorded when answered and written in batches, so the latest may take about a second to appear. ' +
          'Filter by `status` (a class such as 4xx, or an exact code) and by `path` (a route pattern).',
        params: ClientIdParams,
        querystring: ClientRequestQuery,
        response: responses({ 200: ClientRequestList }),
      },
      config: { auth: 'session', access: 'clients:read' },
    },
    (request) => requestLog.list(request.ctx, request.params.id, request.query),
  )
}

/** A client's secret rotated, or the client revoked. */
function registerClientCredentialRoutes(app: FastifyInstance, clients: ClientsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/api/clients/:id/rotate-secret',
    {
      schema: {
        tags,
        operationId: 'rotateOAuthClientSecret',
        summary:
          'Issue a new secret (emits client.secret_rotated); the previous one keeps working for the grace period (24 h by default)',
        description: SECRET_ONCE,
        params: ClientIdParams,
        response: responses({ 200: ClientWithSecret }, [422]),
      },
      config: { auth: 'session', access: 'clients:write', idempotent: true, successStatus: 200 },
    },
    idempotent((request, _reply, answer) => clients.rotateSecret(request.ctx, request.params.id, answer)),
  )

  api.post(
    '/api/clients/:id/revoke',
    {
      schema: {
        tags,
        operationId: 'revokeOAuthClient',
        summary: 'Revoke a client now (emits client.revoked): its secrets and every access token it holds stop working',
        params: ClientIdParams,
        response: responses({ 200: ClientSchema }, [422]),
      },
      config: { auth: 'session', access: 'clients:write', idempotent: true, successStatus: 200 },
    },
    idempotent((request, _reply, answer) => clients.revoke(request.ctx, request.params.id, answer)),
  )
}
