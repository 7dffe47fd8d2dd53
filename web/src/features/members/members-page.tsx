import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { grantableRoles } from '../../../../src/platform/permissions.js'
import { membersRoute } from '../../app/routes'
import { useSession } from '../../app/session'
import { EmptyState, ErrorState, Loading, PageHeader, Pagination, Table } from '../../ui'
import { InviteForm } from './invite-form'
import { memberListQuery, ROLE_DESCRIPTIONS, roleName, type Member } from './members-api'

/** The active org's members and their roles; owners and admins invite more. */
function MembersPage() {
  const { cursor } = membersRoute.useSearch()
  const navigate = useNavigate({ from: '/members' })
  const { me, role, can } = useSession()
  const list = useQuery({ ...memberListQuery(cursor), placeholderData: keepPreviousData })
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
      {list.isPending ? (
        <Loading label="Loading members…" />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState title="No members on this page" />
      ) : (
        <>
          <Table<Member>
            caption="Members, newest first"
            rows={list.data.data}
            rowKey={(member) => member.userId}
            columns={[
              { header: 'Name', cell: (member) => (member.userId === userId ? `${member.name} (you)` : member.name) },
              { header: 'Email', cell: (member) => member.email ?? '—' },
              { header: 'Role', cell: (member) => roleName(member.role) },
              { header: 'Joined', cell: (member) => member.joinedAt.slice(0, 10) },
            ]}
          />
          <Pagination
            nextCursor={list.data.pagination.cursor}
            hasMore={list.data.pagination.hasMore}
            paged={cursor !== undefined}
            onNext={(next) => void navigate({ search: { cursor: next } })}
            onFirst={() => void navigate({ search: {} })}
          />
        </>
      )}
      {role && can('members:write') ? <InviteForm roles={grantableRoles(role)} /> : null}
    </>
  )
}

export const route = createLazyRoute('/app/members')({ component: MembersPage })
