import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { responses } from '../../platform/routes.js'
import { kindCatalogue } from './webhooks.kinds.js'

export const WebhookKindList = component(
  'WebhookKindList',
  Type.Object({
    data: Type.Array(
      Type.Object({
        kind: Type.String({ description: 'What an endpoint subscribes to (an org event action, audit.emitted or *)' }),
        group: Type.String({
          description: 'The object it is about: the part before the dot (every event: audit.emitted and *)',
        }),
        description: Type.String(),
      }),
    ),
  }),
)

/** The kinds an endpoint may subscribe to, grouped and described (no authentication: it is the API's vocabulary). */
export function registerWebhookKindsRoute(app: FastifyInstance): void {
  const catalogue = { data: kindCatalogue() }
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/webhook-kinds',
    {
      schema: {
        tags: ['Webhooks'],
        operationId: 'listWebhookKinds',
        summary: 'The event kinds a webhook endpoint may subscribe to, each with its group and what it means',
        response: responses({ 200: WebhookKindList }),
      },
      config: { auth: 'none' },
    },
    async () => catalogue,
  )
}
