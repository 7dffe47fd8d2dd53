import { Type, type Static } from 'typebox'
import { component, withExamples } from '../../platform/openapi-components.js'
import { idPattern } from '../../platform/ids.js'
import { ListEnvelope, ListQuery } from '../../platform/pagination.js'
import { SCOPES } from '../../platform/permissions.js'
import { Timestamp } from '../../platform/timestamp.js'

export const CLIENT_TIER_NAMES = ['api_partner_sandbox', 'api_partner_production', 'platform_integrator'] as const
export type ClientTier = (typeof CLIENT_TIER_NAMES)[number]

const ScopeName = Type.Enum(SCOPES, { type: 'string', description: 'An OAuth scope' })
const Tier = Type.Enum(CLIENT_TIER_NAMES, {
  type: 'string',
  description:
    'Rate tier: sandbox orgs get api_partner_sandbox; production orgs api_partner_production or platform_integrator (custom limits)',
})
const RateLimit = Type.Object(
  {
    perMinute: Type.Integer({ minimum: 1, maximum: 100_000, description: 'Requests per minute (the refill rate)' }),
    burst: Type.Integer({ minimum: 1, maximum: 200_000, description: 'Bucket capacity' }),
  },
  {
    additionalProperties: false,
    description: 'Custom limits: platform_integrator clients only, and required for them',
  },
)

const ClientId = Type.String({ pattern: idPattern('cli'), example: 'cli_01JD2YB6X8Q0W3M5N7P9R1T3V5' })

export const CreateClientBody = component(
  'CreateOAuthClientRequest',
  withExamples(
    Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 200 }),
        scopes: Type.Array(ScopeName, {
          minItems: 1,
          maxItems: SCOPES.length,
          uniqueItems: true,
          description: 'The scopes tokens of this client may be granted',
        }),
        tier: Type.Optional(Tier),
        rateLimit: Type.Optional(RateLimit),
      },
      { additionalProperties: false },
    ),
    [{ name: 'Royalty dashboard', scopes: ['events:read', 'members:read'] }],
  ),
)
export type CreateClientBody = Static<typeof CreateClientBody>

const ClientProperties = {
  id: ClientId,
  orgId: Type.String({
    pattern: idPattern('org'),
    description: 'The org the client acts in: the {orgId} of its /v1 paths',
  }),
  name: Type.String(),
  scopes: Type.Array(ScopeName),
  tier: Tier,
  rateLimit: Type.Object({ perMinute: Type.Integer(), burst: Type.Integer() }),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
  status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
  userId: Type.String({
    pattern: idPattern('usr'),
    description: 'The service user this client acts as (the userId of the org events it causes)',
  }),
  secretHint: Type.String({
    description: 'The secret’s prefix and last four characters, to recognise it',
    example: 'cs_test_…x7Qa',
  }),
  secretRotatedAt: Type.Union([Timestamp, Type.Null()]),
  previousSecretExpiresAt: Type.Union([Timestamp, Type.Null()], {
    description: 'Until then the secret before the last rotation still works',
  }),
  lastUsedAt: Type.Union([Timestamp, Type.Null()], {
    description:
      'When the client’s credentials were last used: its latest /oauth/token or /v1 request that authenticated (null until then; written with the request log, within about a second)',
  }),
  lastUsedFrom: Type.Union([Type.String(), Type.Null()], {
    description: 'The address that request came from',
    example: '203.0.113.7',
  }),
  createdAt: Timestamp,
  createdBy: Type.String({ pattern: idPattern('usr') }),
  revokedAt: Type.Union([Timestamp, Type.Null()]),
}

const clientExample = {
  id: 'cli_01JD2YB6X8Q0W3M5N7P9R1T3V5',
  orgId: 'org_01JD2YB6X8Q0W3M5N7P9R1T3V4',
  name: 'Royalty dashboard',
  scopes: ['events:read', 'members:read'],
  tier: 'api_partner_sandbox',
  rateLimit: { perMinute: 60, burst: 120 },
  environment: 'sandbox',
  status: 'active',
  userId: 'usr_01JD2YB6X8Q0W3M5N7P9R1T3V6',
  secretHint: 'cs_test_…x7Qa',
  secretRotatedAt: null,
  previousSecretExpiresAt: null,
  lastUsedAt: null,
  lastUsedFrom: null,
  createdAt: '2026-11-22T10:15:30.123Z',
  createdBy: 'usr_01JD2YB6X8Q0W3M5N7P9R1T3V7',
  revokedAt: null,
}

export const ClientSchema = component(
  'OAuthClient',
  withExamples(Type.Object(ClientProperties, { description: 'An OAuth client (its secret is never shown again)' }), [
    clientExample,
  ]),
)
export type Client = Static<typeof ClientSchema>

export const ClientWithSecret = component(
  'OAuthClientWithSecret',
  withExamples(
    Type.Object(
      {
        ...ClientProperties,
        secret: Type.String({
          pattern: '^cs_(test|live)_',
          description: 'Shown once: store it now; only its hash is kept',
        }),
      },
      { description: 'The client with its secret, shown this once' },
    ),
    [{ ...clientExample, secret: 'cs_test_4fJq0m3Yl2mXo3r8oPqk9Vb7cT1s2Xw5nDh6Gu0Ax7Qa' }],
  ),
)
export type ClientWithSecret = Static<typeof ClientWithSecret>

export const ClientList = ListEnvelope(ClientSchema, 'OAuth clients of the active org, newest first')
export const ClientQuery = ListQuery({})
export type ClientQuery = Static<typeof ClientQuery>
export const ClientIdParams = Type.Object({ id: Type.String({ maxLength: 64 }) })

// ---------------------------------------------------------------------------
// GET /api/clients/{id}/requests (the request log)

export const ClientRequestSchema = component(
  'OAuthClientRequest',
  withExamples(
    Type.Object(
      {
        at: Timestamp,
        method: Type.String({ example: 'GET' }),
        path: Type.String({
          description: 'The route pattern, never the path as sent',
          example: '/v1/orgs/{orgId}/events',
        }),
        status: Type.Integer({ example: 200 }),
        latencyMs: Type.Integer({ description: 'Time to answer, in whole milliseconds', example: 4 }),
        requestId: Type.String({ description: 'The X-Request-Id of the answer' }),
        address: Type.String({ description: 'The address the request came from', example: '203.0.113.7' }),
        errorCode: Type.Union([Type.String(), Type.Null()], {
          description: 'A refused request: the stable code its answer gave (problem+json code, or the OAuth error)',
          example: null,
        }),
        errorDetail: Type.Union([Type.String(), Type.Null()], {
          description: 'A refused request: the detail its answer gave (first 500 characters)',
          example: null,
        }),
      },
      { description: 'A request made with the client’s credentials (no bodies, headers or secrets are kept)' },
    ),
    [
      {
        at: '2026-11-22T10:15:30.123Z',
        method: 'GET',
        path: '/v1/orgs/{orgId}/events',
        status: 200,
        latencyMs: 4,
        requestId: 'req_01JD2YB6X8Q0W3M5N7P9R1T3V8',
        address: '203.0.113.7',
        errorCode: null,
        errorDetail: null,
      },
    ],
  ),
)
export type ClientRequest = Static<typeof ClientRequestSchema>

export const ClientRequestList = ListEnvelope(
  ClientRequestSchema,
  'Requests made with the client’s credentials in the last 30 days, newest first',
)
export const ClientRequestQuery = ListQuery({
  status: Type.Optional(
    Type.String({
      pattern: '^([1-5]xx|[1-5][0-9][0-9])$',
      description: 'A status class (2xx, 4xx, 5xx) or an exact status code (429)',
      example: '4xx',
    }),
  ),
  path: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'A route pattern, exactly as listed (e.g. /v1/orgs/{orgId}/events)',
    }),
  ),
})
export type ClientRequestQuery = Static<typeof ClientRequestQuery>

// ---------------------------------------------------------------------------
// POST /oauth/token (RFC 6749 section 4.4)

export const TokenRequest = component(
  'AccessTokenRequest',
  withExamples(
    Type.Object(
      {
        grant_type: Type.Optional(Type.String({ maxLength: 100, description: 'Required: client_credentials' })),
        client_id: Type.Optional(Type.String({ maxLength: 200, description: 'Required unless sent with HTTP Basic' })),
        client_secret: Type.Optional(
          Type.String({ maxLength: 200, description: 'Required unless sent with HTTP Basic' }),
        ),
        scope: Type.Optional(
          Type.String({
            maxLength: 1000,
            description: 'Required: space-separated scopes, each allowed for the client',
          }),
        ),
      },
      // RFC 6749 section 3.2: unrecognised parameters are ignored.
      {
        additionalProperties: true,
        description: 'application/x-www-form-urlencoded; credentials in the body or in HTTP Basic, not both',
      },
    ),
    [
      {
        grant_type: 'client_credentials',
        client_id: 'cli_01JD2YB6X8Q0W3M5N7P9R1T3V5',
        client_secret: 'cs_test_4fJq0m3Yl2mXo3r8oPqk9Vb7cT1s2Xw5nDh6Gu0Ax7Qa',
        scope: 'events:read members:read',
      },
    ],
  ),
)
export type TokenRequest = Static<typeof TokenRequest>

export const TokenResponse = component(
  'AccessToken',
  withExamples(
    Type.Object(
      {
        access_token: Type.String({ pattern: '^oat_' }),
        token_type: Type.Literal('Bearer'),
        expires_in: Type.Integer({ description: 'Seconds: 3600' }),
        scope: Type.String({ description: 'The granted scopes, space-separated' }),
        org_id: Type.String({
          pattern: idPattern('org'),
          description: 'The org the token acts in: the {orgId} of every /v1/orgs/{orgId}/... route',
        }),
      },
      { description: 'An access token (no refresh token: ask again when it expires)' },
    ),
    [
      {
        access_token: 'oat_Zk3w9Jt0bq1Q7c5VYxM2uJrA6nL8pE4sH0dG2fK1iOw',
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'events:read members:read',
        org_id: 'org_01JD2YB6X8Q0W3M5N7P9R1T3V5',
      },
    ],
  ),
)
export type TokenResponse = Static<typeof TokenResponse>

export const OAUTH_ERRORS = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'rate_limited',
  'server_error',
  'temporarily_unavailable',
  'wrong_region',
] as const
export type OAuthErrorCode = (typeof OAUTH_ERRORS)[number]

export const OAuthErrorSchema = component(
  'OAuthError',
  withExamples(
    Type.Object(
      {
        error: Type.Enum(OAUTH_ERRORS, { type: 'string' }),
        error_description: Type.String(),
        region: Type.Optional(Type.String({ description: 'wrong_region: the region the client belongs to' })),
        baseUrl: Type.Optional(Type.String({ description: 'wrong_region: the base URL of that region' })),
      },
      { description: 'RFC 6749 section 5.2 error (this route only; every other route answers problem+json)' },
    ),
    [{ error: 'invalid_scope', error_description: 'scope webhooks:write is not allowed for this client' }],
  ),
)
export type OAuthErrorBody = Static<typeof OAuthErrorSchema>
