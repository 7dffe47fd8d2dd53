import type { TSchema } from 'typebox'
import type { Access, Role, Scope } from './permissions.js'

export interface Actor {
  /** The acting user: a person, an OAuth client's service user, or the org's system user. */
  userId: string
  kind: 'person' | 'client' | 'system'
  role?: Role
  clientId?: string
  scopes?: readonly Scope[]
}

/** What every service method receives first. */
export interface RequestContext {
  orgId: string
  actor: Actor
  requestId: string
}

/** The authenticated caller, before any org is chosen. */
export interface Identity {
  kind: 'session' | 'client'
  userId: string
  /** The bucket this caller's requests draw from. */
  rateKey: string
  rateTier: { perMinute: number; burst: number }
  /** The org the credentials act on (active org of a session, the client's org). */
  orgId: string | null
  role?: Role
  clientId?: string
  scopes?: readonly Scope[]
  session?: { tokenHash: string; userName: string; userEmail: string | null }
  /** When an access token stops being valid (an event stream then closes). */
  expiresAt?: Date
}

export type AuthMode = 'none' | 'session' | 'client'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call: nobody needs to be logged in, a session, or an OAuth access token. */
    auth?: AuthMode
    /** The permission (session) or scope (client) the route needs. */
    access?: Access
    /** The route acts inside an org (the session's active org, or `:orgId`). Default true when auth is set. */
    orgScoped?: boolean
    /** The route sets the web app's session cookie: it needs the CSRF defence although nobody is logged in. */
    csrf?: boolean
    /** POSTs that create or change something accept Idempotency-Key. */
    idempotent?: boolean
    /**
     * The key is stored with the commit of the handler's transaction, not claimed in a round
     * trip of its own ahead of the handler (src/platform/idempotency.ts). Only for handlers that
     * check their input and then write through one transaction with the request's context.
     */
    claimWithTransaction?: boolean
    /** Status of a successful response (stored for idempotent replays). */
    successStatus?: number
    /**
     * false: not rate limited (health, metrics, docs). 'route': the route takes from the
     * buckets itself and sets the headers (the token endpoint: per client once it knows the client).
     * A function decides per request (the web app's files are not limited, unknown service paths are).
     */
    rateLimit?: boolean | 'route' | ((request: FastifyRequest) => boolean)
    /**
     * Operators only (the partner program's review routes): anyone else, unauthenticated
     * included, is answered 404 as if the route did not exist.
     */
    operator?: boolean
    /** Feature module the route belongs to (white-label flags). */
    module?: string
    /** A body the route's own parser hands over as a stream (no body schema): documented as this request body. */
    streamedBody?: { mediaType: string; description: string; schema: TSchema }
  }

  interface FastifyRequest {
    identity: Identity | null
    ctx: RequestContext
  }
}

export function requireCtx(ctx: RequestContext | undefined): RequestContext {
  if (!ctx) throw new Error('route has no request context: is it missing auth in its config?')
  return ctx
}
