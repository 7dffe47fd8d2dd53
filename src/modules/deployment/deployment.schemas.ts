import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'

const RegionName = Type.Union([Type.Literal('us-east'), Type.Literal('eu-west'), Type.Literal('au-east')], {
  description: 'A data-residency region',
})

const ModuleSwitch = Type.Boolean({ description: 'Whether the module’s routes and pages are on' })

export const DeploymentSchema = component(
  'Deployment',
  Type.Object(
    {
      name: Type.String({ description: 'The product name this deployment shows' }),
      region: RegionName,
      regions: Type.Array(
        Type.Object({
          region: RegionName,
          baseUrl: Type.Union([Type.String(), Type.Null()], {
            description: 'That region’s deployment, where this one knows it (null when not configured)',
          }),
        }),
        { description: 'Every region, with the deployment that serves it: a region’s data is only ever there' },
      ),
      modules: Type.Object({
        catalog: ModuleSwitch,
        creators: ModuleSwitch,
        revenue: ModuleSwitch,
        payouts: ModuleSwitch,
        events: ModuleSwitch,
        webhooks: ModuleSwitch,
      }),
      links: Type.Object({
        docs: Type.String({ description: 'The API reference' }),
        support: Type.Union([Type.String(), Type.Null()]),
        privacy: Type.Union([Type.String(), Type.Null()]),
        terms: Type.Union([Type.String(), Type.Null()]),
      }),
    },
    { description: 'What a client needs to know of this deployment before signing in' },
  ),
)
export type Deployment = Static<typeof DeploymentSchema>
