import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { REGIONS, type Config } from '../../config.js'
import { responses } from '../../platform/routes.js'
import { DeploymentSchema, type Deployment } from './deployment.schemas.js'

export function describeDeployment(config: Config): Deployment {
  return {
    name: 'Oeuvre',
    region: config.region,
    regions: REGIONS.map((region) => ({
      region,
      baseUrl: region === config.region ? config.publicUrl : (config.regionUrls[region] ?? null),
    })),
    modules: { catalog: true, creators: true, revenue: true, payouts: true, events: true, webhooks: true },
    links: { docs: `${config.publicUrl}/docs`, support: null, privacy: null, terms: null },
  }
}

export function registerDeploymentRoutes(app: FastifyInstance, config: Config): void {
  const deployment = describeDeployment(config)
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/deployment',
    {
      schema: {
        tags: ['Deployment'],
        operationId: 'getDeployment',
        summary: 'This deployment: its name, region (and the other regions’ base URLs), modules and links',
        response: responses({ 200: DeploymentSchema }),
      },
      config: { auth: 'none' },
    },
    async () => deployment,
  )
}
