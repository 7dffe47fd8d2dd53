import { useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../api/client'
import { roleAllows, type Access, type Role } from '../../../src/platform/permissions.js'

export type Me = Schemas['Me']
export type Membership = Me['memberships'][number]

export const meQuery = {
  queryKey: ['me'] as const,
  queryFn: () => unwrap(api.GET('/api/me')),
  staleTime: 30_000,
}

/** The signed-in user, their orgs, the active one and what its role may do (the API's own permission table). */
export function useSession() {
  const me = useQuery(meQuery)
  const active = me.data?.memberships.find((membership) => membership.orgId === me.data?.activeOrgId) ?? null
  const role = (active?.role ?? null) as Role | null
  return {
    me,
    active,
    role,
    /** Whether to show a write button: the API refuses the others all the same. */
    can: (access: Access) => role !== null && roleAllows(role, access),
  }
}
