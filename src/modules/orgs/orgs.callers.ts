import type { FastifyRequest } from 'fastify'
import type { UserContext } from './orgs.provision.js'

/** The session's user as org-level actions take them (before any org is in scope). */
export function userContext(request: FastifyRequest): UserContext & { email: string | null } {
  const identity = request.identity
  if (!identity?.session) throw new Error('session route without a session identity')
  return {
    userId: identity.userId,
    requestId: String(request.id),
    sessionTokenHash: identity.session.tokenHash,
    email: identity.session.userEmail,
  }
}
