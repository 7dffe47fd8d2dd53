import { Link, useNavigate } from '@tanstack/react-router'
import { useId } from 'react'
import { problemMessage } from '../../api/messages'
import { useSession } from '../../app/session'
import { useSwitchOrg } from './orgs-api'

/** Which org the session acts on: every record page shows that org's data. */
export function OrgSwitcher() {
  const id = useId()
  const { me, active } = useSession()
  const navigate = useNavigate()
  const switchOrg = useSwitchOrg()
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
            onChange={(event) =>
              switchOrg.mutate(event.target.value, { onSuccess: () => void navigate({ to: '/catalog', search: {} }) })
            }
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
          {problemMessage(switchOrg.error)}
        </p>
      ) : null}
    </div>
  )
}
