import { createLazyRoute, getRouteApi } from '@tanstack/react-router'
import { useState } from 'react'
import { grantableRoles } from '../../../../src/platform/permissions.js'
import { useSession } from '../../app/session'
import { DateTime, FormError, ListView, PageHeader, useListQuery, type Column } from '../../ui'
import { InviteForm } from './invite-form'
import { RemoveMember, RoleSelect, type MemberOutcome } from './member-actions'
import { memberListQuery, ROLE_DESCRIPTIONS, roleName, type Invitation, type Member } from './members-api'
import { PendingInvitations } from './pending-invitations'

const routeApi = getRouteApi('/app/members')

/**
 * The active org's members and their roles, and the invitations waiting; owners and admins change
 * roles, remove members, invite, resend and revoke.
 */
function MembersPage() {
  const search = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { me, active, role, can } = useSession()
  const list = useListQuery(memberListQuery(search.cursor))
  const [outcome, setOutcome] = useState<MemberOutcome>(null)
  // The invitation sent last, by the form or by "Resend": its notice (and link) shows once, where it was sent.
  const [sent, setSent] = useState<{ invitation: Invitation; again: boolean } | null>(null)
  const canWrite = role !== null && can('members:write')
  const grantable = role ? grantableRoles(role) : []
  const columns = memberColumns({
    userId: me.data?.user.id,
    orgName: active?.name,
    grantable: canWrite ? grantable : [],
    onOutcome: setOutcome,
  })
  return (
    <>
      <PageHeader title="Members">
        {role ? (
          <p>
            Your role here: <strong>{roleName(role)}</strong> ({ROLE_DESCRIPTIONS[role].toLowerCase()}).
          </p>
        ) : null}
      </PageHeader>
      {outcome?.kind === 'done' ? (
        <p role="status" className="done">
          {outcome.text}
        </p>
      ) : null}
      <FormError message={outcome?.kind === 'refused' ? outcome.text : null} />
      <ListView<Member>
        list={list}
        loading="Loading members…"
        cursor={search.cursor}
        onCursor={(cursor) => void navigate({ search: { ...search, cursor } })}
        empty="No members on this page"
        caption="Members, newest first"
        rowKey={(member) => member.userId}
        columns={columns}
      />
      <PendingInvitations
        cursor={search.invitations}
        onCursor={(invitations) => void navigate({ search: { ...search, invitations } })}
        canWrite={canWrite}
        resent={sent?.again ? sent.invitation : null}
        onResent={(invitation) => setSent({ invitation, again: true })}
        onRevoked={(id) => setSent((last) => (last?.invitation.id === id ? null : last))}
      />
      {role && canWrite ? (
        <InviteForm
          roles={grantable}
          sent={sent && !sent.again ? sent.invitation : null}
          onSent={(invitation) => setSent({ invitation, again: false })}
        />
      ) : null}
    </>
  )
}

/** The members table's columns: the role as a select and "Remove" where the person may manage the member. */
function memberColumns({
  userId,
  orgName,
  grantable,
  onOutcome,
}: {
  userId: string | undefined
  orgName: string | undefined
  grantable: readonly Member['role'][]
  onOutcome: (outcome: MemberOutcome) => void
}): Column<Member>[] {
  const manages = (member: Member) => grantable.includes(member.role)
  const columns: Column<Member>[] = [
    { header: 'Name', cell: (member) => (member.userId === userId ? `${member.name} (you)` : member.name) },
    { header: 'Email', cell: (member) => member.email ?? '—' },
    {
      header: 'Role',
      cell: (member) =>
        manages(member) ? (
          <RoleSelect member={member} grantable={grantable} orgName={orgName} onOutcome={onOutcome} />
        ) : (
          roleName(member.role)
        ),
    },
    { header: 'Joined', cell: (member) => <DateTime value={member.joinedAt} /> },
  ]
  if (grantable.length === 0) return columns
  return [
    ...columns,
    {
      header: 'Actions',
      cell: (member) =>
        manages(member) ? (
          <RemoveMember member={member} orgName={orgName} onOutcome={onOutcome} you={member.userId === userId} />
        ) : null,
    },
  ]
}

export const route = createLazyRoute('/app/members')({ component: MembersPage })
