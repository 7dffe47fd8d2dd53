import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { responses } from '../../platform/routes.js'
import type { AuditLog } from './audit.service.js'
import { EventIdParams, OrgEventDetailSchema, OrgEventList, OrgEventQuery } from './audit.schemas.js'

export function registerAuditRoutes(app: FastifyInstance, audit: AuditLog): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const tags = ['Session surface: audit log']

  api.get(
    '/api/org-events',
    {
      schema: {
        tags,
        operationId: 'listOrgEvents',
        summary: 'The active org’s events (the audit log), oldest first; the cursor is always returned so you can poll',
        querystring: OrgEventQuery,
        response: responses({ 200: OrgEventList }),
      },
      config: { auth: 'session', access: 'events:read' },
    },
    // Written straight from the stored rows; the schema above documents it.
    async (request, reply) =>
      reply.type('application/json').send(await audit.listJson(request.ctx.orgId, request.query)),
  )

  api.get(
    '/api/org-events/:id',
    {
      schema: {
        operationId: 'getOrgEvent',
        tags,
        summary: 'One org event, with the hash of the event before it',
        params: EventIdParams,
        response: responses({ 200: OrgEventDetailSchema }),
      },
      config: { auth: 'session', access: 'events:read' },
    },
    (request) => audit.getWithPrevious(request.ctx.orgId, request.params.id),
  )
}
