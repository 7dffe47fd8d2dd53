import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { idempotent } from '../../platform/idempotent-route.js'
import { responses } from '../../platform/routes.js'
import { idParams, mountTags, orgParams, type RouteMount } from '../../shared/records/records.mount.js'
import { CatalogEntrySchema, CatalogList, CatalogQuery, CreateCatalogBody } from './catalog.schemas.js'
import type { CatalogService } from './catalog.service.js'

export function registerCatalogRoutes(app: FastifyInstance, catalog: CatalogService, mount: RouteMount): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const tags = mountTags(mount, 'catalog')
  const params = orgParams(mount)
  const common = { auth: mount.auth, module: 'catalog' } as const

  api.get(
    mount.prefix,
    {
      schema: {
        tags,
        operationId: 'listCatalogEntries',
        summary: 'List catalog entries, newest first (filters: kind, isrc, creatorId, q)',
        ...(params ? { params } : {}),
        querystring: CatalogQuery,
        response: responses({ 200: CatalogList }),
      },
      config: { ...common, access: 'catalog:read' },
    },
    (request) => catalog.list(request.ctx, request.query),
  )

  api.post(
    mount.prefix,
    {
      schema: {
        tags,
        operationId: 'createCatalogEntry',
        summary:
          'Create a catalog entry, or a correction that supersedes one (emits catalog.created, and catalog.superseded)',
        ...(params ? { params } : {}),
        body: CreateCatalogBody,
        response: responses({ 201: CatalogEntrySchema }, [409, 422]),
      },
      config: { ...common, access: 'catalog:write', idempotent: true, claimWithTransaction: true, successStatus: 201 },
    },
    idempotent(async (request, reply, answer) =>
      reply.code(201).send(await catalog.create(request.ctx, request.body, answer)),
    ),
  )

  api.get(
    `${mount.prefix}/:id`,
    {
      schema: {
        tags,
        operationId: 'getCatalogEntry',
        summary: 'Fetch one catalog entry',
        params: idParams(mount),
        response: responses({ 200: CatalogEntrySchema }),
      },
      config: { ...common, access: 'catalog:read' },
    },
    (request) => catalog.get(request.ctx, request.params.id),
  )
}
