import { createLazyRoute, getRouteApi } from '@tanstack/react-router'
import { grantableRoles } from '../../../../src/platform/permissions.js'
import { useSession } from '../../app/session'
import { DateTime, ListView, PageHeader, useListQuery } from '../../ui'
import { InviteForm } from './invite-form'
import { memberListQuery, ROLE_DESCRIPTIONS, roleName, type Member } from './members-api'

const routeApi = getRouteApi('/app/members')

/** The active org's members and their roles; owners and admins invite more. */
function MembersPage() {
  const { cursor } = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { me, role, can } = useSession()
  const list = useListQuery(memberListQuery(cursor))
  const userId = me.data?.user.id
  return (
    <>
      <PageHeader title="Members">
        {role ? (
          <p>
            Your role here: <strong>{roleName(role)}</strong> ({ROLE_DESCRIPTIONS[role].toLowerCase()}).
          </p>
        ) : null}
      </PageHeader>
      <ListView<Member>
        list={list}
        loading="Loading members…"
        cursor={cursor}
        onCursor={(next) => void navigate({ search: { cursor: next } })}
        empty="No members on this page"
        caption="Members, newest first"
        rowKey={(member) => member.userId}
        columns={[
          { header: 'Name', cell: (member) => (member.userId === userId ? `${member.name} (you)` : member.name) },
          { header: 'Email', cell: (member) => member.email ?? '—' },
          { header: 'Role', cell: (member) => roleName(member.role) },
          { header: 'Joined', cell: (member) => <DateTime value={member.joinedAt} /> },
        ]}
      />
      {role && can('members:write') ? <InviteForm roles={grantableRoles(role)} /> : null}
    </>
  )
}

export const route = createLazyRoute('/app/members')({ component: MembersPage })
