import { Link, useMatches, useNavigate } from '@tanstack/react-router'
import { useId } from 'react'
import { problemMessage } from '../../api/messages'
import { useSession } from '../../app/session'
import { CopyableId } from '../../ui'
import { useSwitchOrg } from './orgs-api'

/**
 * The same kind of page in another org: a record's page becomes its list (`/payouts/$id` →
 * `/payouts`, `/portal/credentials/$id` → `/portal/credentials`), a list stays, without its
 * filters and cursor (they belonged to the other org's records).
 */
export function samePageKind(routePath: string): string {
  const at = routePath.indexOf('/$')
  const path = at === -1 ? routePath : routePath.slice(0, at)
  return path === '' || path === '/' ? '/catalog' : path
}

/** Which org the session acts on: every record page shows that org's data. */
export function OrgSwitcher() {
  const id = useId()
  const { me, active } = useSession()
  const navigate = useNavigate()
  const matches = useMatches()
  const here = matches[matches.length - 1]?.fullPath ?? '/'
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
              switchOrg.mutate(event.target.value, { onSuccess: () => void navigate({ href: samePageKind(here) }) })
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
      {active ? (
        <span className="org-id">
          <span className="muted">Org id</span> <CopyableId label="org id" value={active.orgId} />
        </span>
      ) : null}
      {switchOrg.error ? (
        <p role="alert" className="field-error">
          {problemMessage(switchOrg.error)}
        </p>
      ) : null}
    </div>
  )
}
