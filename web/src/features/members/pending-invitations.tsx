import { useState } from 'react'
import { problemMessage } from '../../api/messages'
import { Button, ConfirmDialog, DateTime, FormError, ListView, useListQuery, type Column } from '../../ui'
import { InvitationLink } from './invitation-link'
import {
  invitationListQuery,
  roleName,
  useResendInvitation,
  useRevokeInvitation,
  type Invitation,
  type PendingInvitation,
} from './members-api'

interface PendingInvitationsProps {
  cursor: string | undefined
  onCursor: (cursor: string | undefined) => void
  /** Owners and admins resend and revoke (the API refuses others anyway). */
  canWrite: boolean
  /** The invitation sent again last, while it is the page's latest (one link on the page at a time). */
  resent: Invitation | null
  onResent: (invitation: Invitation) => void
  onRevoked: (id: string) => void
}

/** The invitations sent and not yet accepted or revoked: one per email (inviting again sends the same one). */
export function PendingInvitations({
  cursor,
  onCursor,
  canWrite,
  resent,
  onResent,
  onRevoked,
}: PendingInvitationsProps) {
  const list = useListQuery(invitationListQuery(cursor))
  const [refused, setRefused] = useState<unknown>(null)
  const columns: Column<PendingInvitation>[] = [
    { header: 'Email', cell: (invitation) => invitation.email },
    { header: 'Role', cell: (invitation) => roleName(invitation.role) },
    { header: 'Invited by', cell: (invitation) => invitation.invitedBy.name },
    { header: 'Sent', cell: (invitation) => <DateTime value={invitation.sentAt} /> },
    {
      header: 'Link works until',
      cell: (invitation) =>
        invitation.expired ? (
          <span className="badge badge-expired">Expired: resend it</span>
        ) : (
          <DateTime value={invitation.expiresAt} />
        ),
    },
  ]
  if (canWrite)
    columns.push({
      header: 'Actions',
      cell: (invitation) => (
        <InvitationActions
          invitation={invitation}
          onResent={(answer) => {
            setRefused(null)
            onResent(answer)
          }}
          onRefused={setRefused}
          onRevoked={onRevoked}
        />
      ),
    })
  return (
    <section aria-labelledby="invitations-heading" className="section">
      <h2 id="invitations-heading">Pending invitations</h2>
      <FormError message={problemMessage(refused)} />
      {resent && !refused ? <InvitationLink invitation={resent} again /> : null}
      <ListView<PendingInvitation>
        list={list}
        loading="Loading invitations…"
        cursor={cursor}
        onCursor={onCursor}
        empty="No invitation is waiting to be accepted"
        caption="Pending invitations, newest first"
        rowKey={(invitation) => invitation.id}
        columns={columns}
      />
    </section>
  )
}

/** "Resend" (the same link, 7 more days) and "Revoke", asked first in a dialog naming the address. */
function InvitationActions({
  invitation,
  onResent,
  onRefused,
  onRevoked,
}: {
  invitation: PendingInvitation
  onResent: (invitation: Invitation) => void
  onRefused: (error: unknown) => void
  onRevoked: (id: string) => void
}) {
  const resend = useResendInvitation()
  const revoke = useRevokeInvitation(() => onRevoked(invitation.id))
  const [revoking, setRevoking] = useState(false)
  return (
    <div className="row-actions">
      <Button
        onClick={() =>
          resend.mutate(invitation.id, {
            onSuccess: onResent,
            onError: onRefused,
          })
        }
        busy={resend.isPending}
        aria-label={`Resend the invitation to ${invitation.email}`}
      >
        Resend
      </Button>
      <Button
        variant="danger"
        onClick={() => setRevoking(true)}
        aria-label={`Revoke the invitation to ${invitation.email}`}
      >
        Revoke
      </Button>
      <ConfirmDialog
        open={revoking}
        onOpenChange={(open) => {
          setRevoking(open)
          if (!open) revoke.reset()
        }}
        title={`Revoke the invitation to ${invitation.email}?`}
        description="Its link stops working at once. You can invite the same address again later."
        confirm="Revoke the invitation"
        variant="danger"
        busy={revoke.isPending}
        error={problemMessage(revoke.error)}
        onConfirm={() => revoke.mutate(invitation.id, { onSuccess: () => setRevoking(false) })}
      />
    </div>
  )
}
