import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Type, type TProperties } from 'typebox'
import { idPattern } from '../../platform/ids.js'
import { responses } from '../../platform/routes.js'
import type { EvidenceService } from './evidence.service.js'
import {
  ConsistencyProofSchema,
  ConsistencyQuery,
  InclusionProofSchema,
  JwksSchema,
  ProofQuery,
  SealList,
  SealListQuery,
  SealSchema,
} from './evidence.schemas.js'

interface EvidenceSurface {
  auth: 'session' | 'client'
  /** Where seals live, and where one event lives (its proof hangs below it). */
  seals: string
  event: string
  tag: string
}

const SURFACES: readonly EvidenceSurface[] = [
  { auth: 'session', seals: '/api/seals', event: '/api/org-events/:id', tag: 'Session surface: evidence' },
  {
    auth: 'client',
    seals: '/v1/orgs/:orgId/seals',
    event: '/v1/orgs/:orgId/events/:eventId',
    tag: 'Partner surface: evidence',
  },
]

const Id = Type.String({ maxLength: 64 })

export function registerEvidenceRoutes(app: FastifyInstance, evidence: EvidenceService): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/v1/evidence/keys',
    {
      schema: {
        tags: ['Partner surface: evidence'],
        operationId: 'getEvidenceKeys',
        summary: 'The Ed25519 public keys that sign seals (JWKS)',
        response: responses({ 200: JwksSchema }),
      },
      config: { auth: 'none' },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300')
      return evidence.keys()
    },
  )

  for (const surface of SURFACES) registerSurfaceRoutes(app, evidence, surface)
}

/** Seals and proofs on one surface. */
function registerSurfaceRoutes(app: FastifyInstance, evidence: EvidenceService, surface: EvidenceSurface): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { auth } = surface
  const tags = [surface.tag]
  const org: TProperties = auth === 'client' ? { orgId: Type.String({ pattern: idPattern('org') }) } : {}
  const config = { auth, access: 'events:read' } as const

  api.get(
    surface.seals,
    {
      schema: {
        tags,
        operationId: 'listSeals',
        summary: 'Seals of the org event log, newest first',
        params: Type.Object({ ...org }),
        querystring: SealListQuery,
        response: responses({ 200: SealList }),
      },
      config,
    },
    (request) => evidence.listSeals(request.ctx.orgId, request.query),
  )

  api.get(
    `${surface.seals}/:sealId`,
    {
      schema: {
        tags,
        operationId: 'getSeal',
        summary: 'One seal',
        params: Type.Object({ ...org, sealId: Id }),
        response: responses({ 200: SealSchema }),
      },
      config,
    },
    (request) => evidence.getSeal(request.ctx.orgId, request.params.sealId),
  )

  api.get(
    `${surface.seals}/:sealId/consistency`,
    {
      schema: {
        tags,
        operationId: 'getSealConsistencyProof',
        summary: 'RFC 9162 consistency proof: the seal extends the older seal `from`',
        params: Type.Object({ ...org, sealId: Id }),
        querystring: ConsistencyQuery,
        response: responses({ 200: ConsistencyProofSchema }),
      },
      config,
    },
    (request) => evidence.consistency(request.ctx.orgId, request.params.sealId, request.query.from),
  )

  const eventParam = auth === 'client' ? 'eventId' : 'id'
  api.get(
    `${surface.event}/proof`,
    {
      schema: {
        tags,
        operationId: 'getOrgEventInclusionProof',
        summary: 'RFC 9162 inclusion proof of one event in a seal (default: the newest seal)',
        params: Type.Object({ ...org, [eventParam]: Id }),
        querystring: ProofQuery,
        response: responses({ 200: InclusionProofSchema }, [422]),
      },
      config,
    },
    (request) =>
      evidence.inclusion(
        request.ctx.orgId,
        (request.params as Record<string, string>)[eventParam] ?? '',
        request.query.seal,
      ),
  )
}
