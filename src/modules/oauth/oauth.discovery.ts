import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { SCOPES } from '../../platform/permissions.js'

export const DISCOVERY_PATH = '/.well-known/oauth-authorization-server'

export const AuthorizationServerMetadata = component(
  'AuthorizationServerMetadata',
  Type.Object(
    {
      issuer: Type.String({ format: 'uri', description: 'This deployment’s base address (PUBLIC_URL)' }),
      token_endpoint: Type.String({ format: 'uri' }),
      grant_types_supported: Type.Array(Type.Literal('client_credentials')),
      token_endpoint_auth_methods_supported: Type.Array(
        Type.Union([Type.Literal('client_secret_post'), Type.Literal('client_secret_basic')]),
      ),
      scopes_supported: Type.Array(Type.String()),
      response_types_supported: Type.Array(Type.String(), {
        maxItems: 0,
        description: 'None: there is no authorization endpoint (client credentials only)',
      }),
      service_documentation: Type.String({ format: 'uri' }),
    },
    { description: 'OAuth 2.0 authorization server metadata (RFC 8414)' },
  ),
)
export type AuthorizationServerMetadata = Static<typeof AuthorizationServerMetadata>

/** RFC 8414 metadata of this deployment's token endpoint: what OAuth libraries configure themselves from. */
export function authorizationServerMetadata(publicUrl: string): AuthorizationServerMetadata {
  return {
    issuer: publicUrl,
    token_endpoint: `${publicUrl}/oauth/token`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    scopes_supported: [...SCOPES],
    // REQUIRED by RFC 8414 even without an authorization endpoint: no response type is supported.
    response_types_supported: [],
    service_documentation: `${publicUrl}/docs`,
  }
}

export function registerDiscoveryRoute(app: FastifyInstance, publicUrl: string): void {
  const metadata = authorizationServerMetadata(publicUrl)
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    DISCOVERY_PATH,
    {
      schema: {
        operationId: 'getAuthorizationServerMetadata',
        tags: ['Partner surface: OAuth'],
        summary: 'OAuth 2.0 authorization server metadata (RFC 8414): the token endpoint, grant, auth methods, scopes',
        description:
          'Public and static: no authentication, not rate limited, cacheable for an hour. OAuth libraries ' +
          '(`openid-client`’s `discovery()`, ...) configure the token endpoint from it.',
        response: { 200: AuthorizationServerMetadata },
      },
      // Static and cheaper to serve than to count, like /openapi.json and the health routes.
      config: { auth: 'none', rateLimit: false },
    },
    async (_request, reply) => reply.header('cache-control', 'public, max-age=3600').send(metadata),
  )
}
