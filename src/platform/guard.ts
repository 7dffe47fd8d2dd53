import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.js'
import type { Clock } from './clock.js'
import type { Identity } from './context.js'
import { AppError, forbidden, notFound } from './errors.js'
import { roleAllows, type Scope } from './permissions.js'
import { rateHeaders, TIERS, type RateLimiter } from './rate-limit.js'
import { sendProblem } from './http.js'
import { checkCsrf } from './session-cookie.js'

/** Resolves a bearer token of one kind to the caller, or throws 401 invalid_token. */
export type Authenticator = (token: string, request: FastifyRequest) => Promise<Identity>

export interface GuardDeps {
  clock: Clock
  config: Config
  limiter: RateLimiter
  authenticators: { session?: Authenticator; client?: Authenticator }
  /** Refuses a request before authentication (residency: a credential or id of another region). */
  screen?: (request: FastifyRequest) => void
  /** Whether a user is an operator (routes with `operator: true`). */
  isOperator?: (userId: string) => Promise<boolean>
  /** The web app's session cookie, and the origin its writes must come from. */
  sessionCookie: { name: string; origin: string }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The session came from the web app's cookie, not from an Authorization header. */
    viaSessionCookie?: boolean
    /**
     * The OAuth client whose credentials the request carried: set once an access token resolved
     * (whatever the answer after that: 403, 404, 429) or, on /oauth/token, once the credentials
     * were read (the request log keeps it only if such a client exists).
     */
    credentialClient?: { id: string; orgId?: string }
  }
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (header === undefined) return null
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match)
    throw new AppError('invalid_token', 'Authorization must be "Bearer <token>"', {
      headers: wwwAuthenticate('invalid_token'),
    })
  return match[1] ?? null
}

export function wwwAuthenticate(
  error: 'invalid_token' | 'insufficient_scope' | null,
  scope?: string,
): Record<string, string> {
  let value = 'Bearer realm="oeuvre"'
  if (error) value += `, error="${error}"`
  if (scope) value += `, scope="${scope}"`
  return { 'www-authenticate': value }
}

async function authenticate(deps: GuardDeps, request: FastifyRequest): Promise<Identity | null> {
  const mode = request.routeOptions.config?.auth ?? 'none'
  if (mode === 'none') return null
  let token = bearer(request)
  const cookie = request.cookies[deps.sessionCookie.name]
  if (token === null && mode === 'session' && cookie) {
    checkCsrf(request, deps.sessionCookie.origin)
    token = cookie
    request.viaSessionCookie = true
  }
  if (token === null) {
    // The partner surface answers every missing, malformed or expired token alike (docs/decisions.md, "Partner surface").
    if (mode === 'client') {
      throw new AppError('invalid_token', 'Send Authorization: Bearer <access token> (oat_... from /oauth/token)', {
        headers: wwwAuthenticate('invalid_token'),
      })
    }
    throw new AppError('authentication_required', 'Send Authorization: Bearer <token>', {
      headers: wwwAuthenticate(null),
    })
  }
  const authenticator = deps.authenticators[mode]
  const expectedPrefix = mode === 'session' ? 'sess_' : 'oat_'
  if (!authenticator || !token.startsWith(expectedPrefix)) {
    throw new AppError(
      'invalid_token',
      mode === 'session'
        ? 'This route takes a session token (sess_...)'
        : 'This route takes an OAuth access token (oat_...)',
      { headers: wwwAuthenticate('invalid_token') },
    )
  }
  return authenticator(token, request)
}

/** Checks that the caller may act in the org the route addresses, with the access it needs. */
function authorize(request: FastifyRequest, identity: Identity): string {
  const config = request.routeOptions.config
  const params = request.params as Record<string, string | undefined>
  let orgId = identity.orgId
  if (identity.kind === 'client') {
    // Another org's path: not found, never forbidden, so existence is not revealed.
    if (params.orgId !== undefined && params.orgId !== identity.orgId) throw notFound('org')
  }
  const access = config.access
  if (identity.kind === 'client') {
    if (access && !(identity.scopes ?? []).includes(access as Scope)) {
      throw new AppError('insufficient_scope', `This route needs the ${access} scope`, {
        headers: wwwAuthenticate('insufficient_scope', access),
        extra: { scope: access },
      })
    }
  } else if (config.orgScoped !== false) {
    if (orgId === null || identity.role === undefined) {
      throw forbidden('No active org: create one with POST /api/orgs or switch with POST /api/session/active-org')
    }
    if (access && !roleAllows(identity.role, access)) throw forbidden(`The ${identity.role} role cannot do this`)
  }
  if (orgId === null) orgId = ''
  return orgId
}

export function registerGuard(app: FastifyInstance, deps: GuardDeps): void {
  /** Takes the request's token: the caller's bucket, or the address's for an unknown caller. */
  async function limit(request: FastifyRequest, reply: FastifyReply, identity: Identity | null): Promise<void> {
    const key = identity ? identity.rateKey : `ip:${request.ip}`
    const tier = identity ? identity.rateTier : TIERS.anonymous
    const verdict = await deps.limiter.take(key, tier)
    reply.headers(rateHeaders(verdict))
    if (!verdict.allowed) {
      throw new AppError('rate_limited', `Rate limit of ${verdict.limit} requests per minute exceeded`, {
        headers: { 'retry-after': String(verdict.retryAfter) },
      })
    }
  }

  app.decorateRequest('identity', null)
  app.decorateRequest('ctx', undefined as never)
  app.decorateRequest('credentialClient', undefined)

  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config ?? {}
    let identity: Identity | null = null
    let failure: unknown = null
    try {
      deps.screen?.(request)
      identity = await authenticate(deps, request)
      if (identity?.clientId) request.credentialClient = { id: identity.clientId, orgId: identity.orgId ?? undefined }
    } catch (error) {
      failure = error
    }
    if (config.operator) {
      const operator =
        failure === null && identity !== null && identity.kind === 'session' && deps.isOperator
          ? await deps.isOperator(identity.userId)
          : false
      // Nobody but an operator learns that the route exists: answered exactly as an unknown path
      // is (limited by address, then the router's own 404 word for word, or 421 for another region).
      if (!operator) {
        await limit(request, reply, null)
        if (failure instanceof AppError && failure.code === 'wrong_region') throw failure
        throw new AppError('resource_missing', `No route ${request.method} ${request.url.split('?')[0] ?? '/'}`)
      }
    }
    const limited =
      typeof config.rateLimit === 'function'
        ? config.rateLimit(request)
        : config.rateLimit !== false && config.rateLimit !== 'route'
    if (limited && !request.url.startsWith('/docs')) await limit(request, reply, identity)
    if (failure) throw failure
    if (!identity) return
    request.identity = identity
    const orgId = authorize(request, identity)
    request.ctx = {
      orgId,
      requestId: String(request.id),
      actor: {
        userId: identity.userId,
        kind: identity.kind === 'client' ? 'client' : 'person',
        ...(identity.role ? { role: identity.role } : {}),
        ...(identity.clientId ? { clientId: identity.clientId, scopes: identity.scopes ?? [] } : {}),
      },
    }
  })

  const asList = <T>(hooks: T | T[] | undefined): T[] =>
    hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]
  // A route that issues the cookie (the web app's sign-in) takes the same defence as one the cookie
  // authenticates; checked once the body is valid, so a bad body still answers 400 first.
  const csrfBeforeHandler = async (request: FastifyRequest) => checkCsrf(request, deps.sessionCookie.origin)

  app.addHook('onRoute', (route) => {
    const config = route.config as FastifyContextConfig | undefined
    if (config?.csrf) route.preHandler = [csrfBeforeHandler, ...asList(route.preHandler)]
  })
}

export { sendProblem }
