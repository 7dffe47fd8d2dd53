import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { responses } from '../../platform/routes.js'
import type { AuditLog } from './audit.service.js'
import { AuditLogPage, AuditLogQuery, EventIdParams, OrgEventDetailSchema } from './audit.schemas.js'

export function registerAuditRoutes(app: FastifyInstance, audit: AuditLog): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const tags = ['Session surface: audit log']

  api.get(
    '/api/org-events',
    {
      schema: {
        tags,
        operationId: 'listOrgEvents',
        summary:
          'The active org’s events (the audit log) with who did each: oldest first (the cursor always returned so you can poll) or newest first',
        querystring: AuditLogQuery,
        response: responses({ 200: AuditLogPage }),
      },
      config: { auth: 'session', access: 'events:read' },
    },
    (request) => audit.listForPeople(request.ctx.orgId, request.query),
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
