import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { toAppError } from '../../platform/http.js'
import { isUnsafeText } from '../../platform/unsafe-text.js'
import { OAuthErrorSchema, TokenRequest, TokenResponse } from './oauth.schemas.js'
import { OAuthError, type TokensService } from './oauth.tokens.js'

interface ClientCredentials {
  clientId: string | undefined
  clientSecret: string | undefined
  basic: boolean
}

const FORM_ONLY =
  'Send the token request as application/x-www-form-urlencoded with grant_type, scope and the client credentials'
const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="oeuvre", charset="UTF-8"' }

/** RFC 6749 appendix B: Basic credentials are form-urlencoded before base64. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '))
  } catch {
    throw new OAuthError('invalid_client', 'The Basic credentials are not correctly url-encoded', 401, BASIC_CHALLENGE)
  }
}

/** Client credentials from HTTP Basic (RFC 6749 section 2.3.1) or the body; never both. */
export function clientCredentials(authorization: string | undefined, body: TokenRequest): ClientCredentials {
  if (authorization === undefined) return { clientId: body.client_id, clientSecret: body.client_secret, basic: false }
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(authorization)
  if (!match?.[1]) {
    throw new OAuthError(
      'invalid_client',
      'Authenticate with HTTP Basic or with client_id and client_secret in the body',
      401,
      BASIC_CHALLENGE,
    )
  }
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0)
    throw new OAuthError('invalid_client', 'Basic credentials must be client_id:client_secret', 401, BASIC_CHALLENGE)
  const clientId = formDecode(decoded.slice(0, colon))
  const clientSecret = formDecode(decoded.slice(colon + 1))
  // The body's fields are checked with every request's; these come out of a header's base64.
  if (isUnsafeText(clientId) || isUnsafeText(clientSecret)) {
    throw new OAuthError('invalid_request', 'The Basic credentials must not contain a NUL character')
  }
  // RFC 6749 section 2.3: one authentication method per request.
  if (body.client_secret !== undefined || (body.client_id !== undefined && body.client_id !== clientId)) {
    throw new OAuthError(
      'invalid_request',
      'Send the client credentials either with HTTP Basic or in the body, not both',
    )
  }
  return { clientId, clientSecret, basic: true }
}

function noStore(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store')
  reply.header('pragma', 'no-cache')
}

/** Every failure of this route, the guard's and the parser's included, in RFC 6749 section 5.2 form. */
function toOAuthError(error: Error, request: FastifyRequest): OAuthError {
  if (error instanceof OAuthError) return error
  const appError = toAppError(error as FastifyError, request)
  if (appError.code === 'rate_limited')
    return new OAuthError('rate_limited', appError.detail, 429, appError.options.headers ?? {})
  if (appError.code === 'wrong_region')
    return new OAuthError('wrong_region', appError.detail, 421, {}, appError.options.extra ?? {})
  if (appError.code === 'service_unavailable')
    return new OAuthError('temporarily_unavailable', appError.detail, 503, appError.options.headers ?? {})
  if (appError.status >= 500) return new OAuthError('server_error', appError.detail, 500)
  // RFC 6749 section 5.2: 400 unless specified otherwise (a body too large included).
  if (appError.code === 'payload_too_large') return new OAuthError('invalid_request', appError.detail)
  if (
    appError.code === 'unsupported_media_type' ||
    (request.body === undefined && appError.code !== 'parameter_invalid')
  )
    return new OAuthError('invalid_request', FORM_ONLY)
  return new OAuthError('invalid_request', appError.detail)
}

export function registerTokenRoute(app: FastifyInstance, tokens: TokensService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/oauth/token',
    {
      schema: {
        operationId: 'requestAccessToken',
        tags: ['Partner surface: OAuth'],
        summary: 'Exchange client credentials for an access token (OAuth 2.0 client credentials, RFC 6749 section 4.4)',
        description:
          'Form-encoded. Credentials in the body (client_id, client_secret) or with HTTP Basic, not both. `scope` is required. ' +
          'The token is valid for 1 hour; there is no refresh token. Errors follow RFC 6749 section 5.2 ({error, error_description}), ' +
          'not problem+json: invalid_request, invalid_client (401), unsupported_grant_type, invalid_scope, rate_limited (429, with Retry-After), ' +
          'wrong_region (421, with the `baseUrl` of the region the client belongs to). ' +
          'Valid exchanges are limited per client, at the client’s tier (a bucket apart from its API requests), not per address; ' +
          'failed client authentications are throttled per client id and per address.',
        consumes: ['application/x-www-form-urlencoded'],
        body: TokenRequest,
        response: {
          200: TokenResponse,
          400: OAuthErrorSchema,
          401: OAuthErrorSchema,
          421: OAuthErrorSchema,
          429: OAuthErrorSchema,
          500: OAuthErrorSchema,
          503: OAuthErrorSchema,
        },
      },
      // Limited by the route itself: per client once the client is known (oauth.token-limits.ts).
      config: { auth: 'none', rateLimit: 'route' },
      errorHandler: async (error, request, reply) => {
        const oauthError = await tokens.refuse(toOAuthError(error, request), request.ip)
        if (oauthError.status >= 500) request.log.error({ err: error }, 'token request failed')
        else request.log.info({ error: oauthError.error }, 'token request refused')
        noStore(reply)
        request.refusal = { code: oauthError.error, detail: oauthError.description }
        reply.headers(oauthError.headers)
        return reply
          .code(oauthError.status)
          .send({ error: oauthError.error, error_description: oauthError.description, ...oauthError.extra })
      },
    },
    async (request, reply) => {
      noStore(reply)
      if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
        throw new OAuthError('invalid_request', FORM_ONLY)
      }
      const body = request.body ?? {}
      const credentials = clientCredentials(request.headers.authorization, body)
      if (credentials.clientId) request.credentialClient = { id: credentials.clientId }
      const { token, headers } = await tokens.exchange({
        grantType: body.grant_type,
        scope: body.scope,
        address: request.ip,
        ...credentials,
      })
      reply.headers(headers)
      return token
    },
  )
}
