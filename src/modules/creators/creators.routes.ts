import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { idempotent } from '../../platform/idempotent-route.js'
import { responses } from '../../platform/routes.js'
import { idParams, mountTags, orgParams, type RouteMount } from '../../shared/records/records.mount.js'
import { CreateCreatorBody, CreatorList, CreatorQuery, CreatorSchema } from './creators.schemas.js'
import type { CreatorsService } from './creators.service.js'

export function registerCreatorRoutes(app: FastifyInstance, creators: CreatorsService, mount: RouteMount): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const tags = mountTags(mount, 'creators')
  const params = orgParams(mount)
  const common = { auth: mount.auth, module: 'creators' } as const

  api.get(
    mount.prefix,
    {
      schema: {
        tags,
        operationId: 'listCreators',
        summary: 'List creators, newest first',
        ...(params ? { params } : {}),
        querystring: CreatorQuery,
        response: responses({ 200: CreatorList }),
      },
      config: { ...common, access: 'creators:read' },
    },
    (request) => creators.list(request.ctx, request.query),
  )

  api.post(
    mount.prefix,
    {
      schema: {
        tags,
        operationId: 'createCreator',
        summary: 'Create a creator (emits creator.created)',
        ...(params ? { params } : {}),
        body: CreateCreatorBody,
        response: responses({ 201: CreatorSchema }, [409, 422]),
      },
      config: { ...common, access: 'creators:write', idempotent: true, claimWithTransaction: true, successStatus: 201 },
    },
    idempotent(async (request, reply, answer) =>
      reply.code(201).send(await creators.create(request.ctx, request.body, answer)),
    ),
  )

  api.get(
    `${mount.prefix}/:id`,
    {
      schema: {
        tags,
        operationId: 'getCreator',
        summary: 'Fetch one creator',
        params: idParams(mount),
        response: responses({ 200: CreatorSchema }),
      },
      config: { ...common, access: 'creators:read' },
    },
    (request) => creators.get(request.ctx, request.params.id),
  )
}
