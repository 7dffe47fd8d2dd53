import { useId } from 'react'
import { CopyButton, DateTime } from '../../ui'
import { invitationLink, roleName, type Invitation } from './members-api'

/**
 * An invitation just sent (or sent again): to whom, as what, until when; and its link to copy when
 * the API answered one (an idempotent replay carries none).
 */
export function InvitationLink({ invitation, again = false }: { invitation: Invitation; again?: boolean }) {
  const id = useId()
  const sent = (
    <>
      We {again ? 'sent the invitation again to' : 'emailed an invitation to'} <strong>{invitation.email}</strong>, as{' '}
      {roleName(invitation.role)}. Its link works until <DateTime value={invitation.expiresAt} />.
    </>
  )
  if (!invitation.token)
    return (
      <div className="invitation">
        <p role="status">{sent}</p>
      </div>
    )
  const link = invitationLink(invitation.token)
  return (
    <div className="invitation">
      <p role="status">{sent} You can also send them the link yourself:</p>
      <div className="field">
        <label htmlFor={id}>Invitation link</label>
        <div className="copy-row">
          <input id={id} value={link} readOnly onFocus={(event) => event.currentTarget.select()} />
          <CopyButton text={link} label="Copy link" />
        </div>
      </div>
    </div>
  )
}
