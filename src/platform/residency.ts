import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../config.js'
import { requireHomeRegion } from './region.js'

/** Body fields that carry a credential or an id of some region (the token form, invitations, org switch). */
const BODY_FIELDS: Readonly<Record<string, string>> = {
  client_id: 'The client',
  client_secret: 'The client secret',
  token: 'The token',
  orgId: 'The org',
}

function basicClientId(header: string): string | null {
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header)
  if (!match?.[1]) return null
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon < 0 ? null : decoded.slice(0, colon)
}

/**
 * Refuses (421) a request whose Authorization header or path carries a credential or id of another
 * region. Not the session cookie: the browser sends it, not the person (docs/residency.md). The guard runs it before authentication, so the answer is never a 401 or 404 that hides
 * the real one, and the request still counts against its rate limit.
 */
export function checkHeadersAndPath(config: Config, request: FastifyRequest): void {
  const authorization = request.headers.authorization
  if (typeof authorization === 'string') {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1]
    if (bearer !== undefined) requireHomeRegion(config, bearer, 'This token')
    const clientId = basicClientId(authorization)
    if (clientId !== null) requireHomeRegion(config, clientId, `The client ${clientId}`)
  }
  const params = (request.params ?? {}) as Record<string, unknown>
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string') requireHomeRegion(config, value, `The ${name === 'orgId' ? 'org' : name} ${value}`)
  }
}

/**
 * Data residency (docs/residency.md): every answer names this deployment's region, and a request
 * that belongs to another region is refused with 421 wrong_region and that region's base URL:
 * from its headers and path before its body is read (checkHeadersAndPath, in the guard), from the
 * credentials in its body (the token form, an invitation, an org switch) as soon as the body is
 * parsed. Nothing is looked up: ids and secrets carry the region they were issued in
 * (src/platform/region.ts).
 */
export function registerResidency(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('oeuvre-region', config.region)
  })
  app.addHook('preValidation', async (request) => {
    const body = request.body
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return
    for (const [field, what] of Object.entries(BODY_FIELDS)) {
      const value = (body as Record<string, unknown>)[field]
      if (typeof value === 'string') requireHomeRegion(config, value, what)
    }
  })
}
