export const ROLES = ['owner', 'admin', 'finance', 'editor', 'viewer'] as const
export type Role = (typeof ROLES)[number]

/**
 * What a route needs. On `/api` it is checked against the member's role; on `/v1`
 * the same name is the OAuth scope the token must carry (where one exists).
 */
export const ACCESS = [
  'events:read',
  'members:read',
  'members:write',
  'orgs:write',
  'catalog:read',
  'catalog:write',
  'creators:read',
  'creators:write',
  'revenue:read',
  'revenue:write',
  'payouts:read',
  'payouts:write',
  'ticketing:read',
  'ticketing:write',
  'webhooks:read',
  'webhooks:write',
  'clients:read',
  'clients:write',
] as const
export type Access = (typeof ACCESS)[number]

/** OAuth scopes a client may be granted (docs/partner-quickstart.md, "Errors, scopes and limits"). */
export const SCOPES = [
  'events:read',
  'members:read',
  'catalog:read',
  'catalog:write',
  'creators:read',
  'creators:write',
  'revenue:read',
  'revenue:write',
  'payouts:read',
  'payouts:write',
  'ticketing:read',
  'ticketing:write',
  'webhooks:read',
  'webhooks:write',
] as const satisfies readonly Access[]
export type Scope = (typeof SCOPES)[number]

const everyone: readonly Role[] = ROLES
const managers: readonly Role[] = ['owner', 'admin']

/** The one permission table every route consults. */
export const PERMISSIONS: Readonly<Record<Access, readonly Role[]>> = {
  'events:read': everyone,
  'members:read': everyone,
  'members:write': managers,
  'orgs:write': managers,
  'catalog:read': everyone,
  'catalog:write': ['owner', 'admin', 'editor'],
  'creators:read': everyone,
  'creators:write': ['owner', 'admin', 'editor'],
  'revenue:read': everyone,
  'revenue:write': ['owner', 'admin', 'finance'],
  'payouts:read': everyone,
  'payouts:write': ['owner', 'admin', 'finance'],
  'ticketing:read': everyone,
  'ticketing:write': ['owner', 'admin', 'editor'],
  'webhooks:read': everyone,
  'webhooks:write': managers,
  'clients:read': managers,
  'clients:write': managers,
}

export function roleAllows(role: Role, access: Access): boolean {
  return PERMISSIONS[access].includes(role)
}

/** Roles a member with `role` may grant through an invitation: admins manage all but ownership. */
export function grantableRoles(role: Role): readonly Role[] {
  if (role === 'owner') return ROLES
  if (role === 'admin') return ['admin', 'finance', 'editor', 'viewer']
  return []
}
