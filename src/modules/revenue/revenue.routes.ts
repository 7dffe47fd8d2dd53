import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { idempotent } from '../../platform/idempotent-route.js'
import { responses } from '../../platform/routes.js'
import { mountTags, orgParams, type RouteMount } from '../../shared/records/records.mount.js'
import {
  CreateRevenueBody,
  RevenueList,
  RevenueProofParams,
  RevenueProofSchema,
  RevenueQuery,
  RevenueSchema,
} from './revenue.schemas.js'
import type { RevenueService } from './revenue.service.js'

/** Revenue has no fetch by id (SPEC 4.1): entries are listed and filtered. */
export function registerRevenueRoutes(app: FastifyInstance, revenue: RevenueService, mount: RouteMount): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const tags = mountTags(mount, 'revenue')
  const params = orgParams(mount)
  const common = { auth: mount.auth, module: 'revenue' } as const

  api.get(
    mount.prefix,
    {
      schema: {
        tags,
        operationId: 'listRevenueEntries',
        summary:
          'List revenue entries, newest first (filters: catalogId, creatorId, periodFrom, periodTo, currency, batchId)',
        ...(params ? { params } : {}),
        querystring: RevenueQuery,
        response: responses({ 200: RevenueList }),
      },
      config: { ...common, access: 'revenue:read' },
    },
    (request) => revenue.list(request.ctx, request.query),
  )

  api.post(
    mount.prefix,
    {
      schema: {
        tags,
        operationId: 'createRevenueEntry',
        summary: 'Record a revenue entry, allocated to the creators by the entry’s splits (emits revenue.created)',
        ...(params ? { params } : {}),
        body: CreateRevenueBody,
        response: responses({ 201: RevenueSchema }, [409, 422]),
      },
      config: { ...common, access: 'revenue:write', idempotent: true, claimWithTransaction: true, successStatus: 201 },
    },
    idempotent(async (request, reply, answer) =>
      reply.code(201).send(await revenue.create(request.ctx, request.body, answer)),
    ),
  )

  api.get(
    `${mount.prefix}/:revenueId/proof`,
    {
      schema: {
        tags,
        operationId: 'getRevenueEntryProof',
        summary:
          'An imported line’s RFC 6962 inclusion proof in its batch’s revenue.imported event (data.root), from the stored line',
        params: Type.Object({ ...(params?.properties ?? {}), ...RevenueProofParams.properties }),
        response: responses({ 200: RevenueProofSchema }, [422]),
      },
      config: { ...common, access: 'revenue:read' },
    },
    (request) => revenue.proof(request.ctx, request.params.revenueId),
  )
}
