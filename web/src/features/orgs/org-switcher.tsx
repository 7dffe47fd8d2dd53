import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useId } from 'react'
import { api, unwrap } from '../../api/client'
import { meQuery, useSession } from '../../app/session'

/** Which org the session acts on: every record page shows that org's data. */
export function OrgSwitcher() {
  const id = useId()
  const { me, active } = useSession()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const switchOrg = useMutation({
    mutationFn: (orgId: string) => unwrap(api.POST('/api/session/active-org', { body: { orgId } })),
    onSuccess: async (next) => {
      // Everything loaded belonged to the previous org.
      queryClient.clear()
      queryClient.setQueryData(meQuery.queryKey, next)
      await navigate({ to: '/catalog', search: {} })
    },
  })
  const memberships = me.data?.memberships ?? []
  return (
    <div className="org-switcher">
      {memberships.length > 0 ? (
        <>
          <label htmlFor={id}>Organisation</label>
          <select
            id={id}
            value={active?.orgId ?? ''}
            disabled={switchOrg.isPending}
            onChange={(event) => switchOrg.mutate(event.target.value)}
          >
            {active ? null : <option value="">Choose an organisation</option>}
            {memberships.map((membership) => (
              <option key={membership.orgId} value={membership.orgId}>
                {membership.name}
                {membership.environment === 'sandbox' ? ' (sandbox)' : ''} · {membership.role}
              </option>
            ))}
          </select>
        </>
      ) : null}
      <Link to="/orgs/new" className="org-new">
        New organisation
      </Link>
      {switchOrg.error ? (
        <p role="alert" className="field-error">
          {switchOrg.error.message}
        </p>
      ) : null}
    </div>
  )
}
