import { useId, useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, DateTime, FormError, SelectField, TextField } from '../../ui'
import { invitationLink, ROLE_DESCRIPTIONS, roleName, useInvite, type Invitation, type MemberRole } from './members-api'

const LABELS = { email: 'Email', role: 'Role' }

/** The invitation just made: its link, to copy and send (the API shows the token once). */
function InvitationLink({ invitation }: { invitation: Invitation }) {
  const id = useId()
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null)
  if (!invitation.token)
    return (
      <p className="notice" role="status">
        An invitation for {invitation.email} was made already; its link was shown then. Invite again for a new link.
      </p>
    )
  const link = invitationLink(invitation.token)
  const copy = () =>
    navigator.clipboard.writeText(link).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    )
  return (
    <div className="invitation">
      <p role="status">
        <strong>{invitation.email}</strong> is invited as {roleName(invitation.role)} until{' '}
        <DateTime value={invitation.expiresAt} />. Send them this link: it is shown only now.
      </p>
      <div className="field">
        <label htmlFor={id}>Invitation link</label>
        <div className="copy-row">
          <input id={id} value={link} readOnly onFocus={(event) => event.currentTarget.select()} />
          <Button onClick={() => void copy()}>Copy link</Button>
        </div>
        {copied === 'yes' ? <p className="field-hint">Copied.</p> : null}
        {copied === 'failed' ? (
          <p className="field-hint">This browser did not allow copying: select the link and copy it.</p>
        ) : null}
      </div>
    </div>
  )
}

/** Owners and admins invite by email and role (only roles their own role may grant). */
export function InviteForm({ roles }: { roles: readonly MemberRole[] }) {
  // Each invitation made gets a fresh key: inviting the same person again makes a new link, not a replay without one.
  const [sent, setSent] = useState(0)
  const [role, setRole] = useState<MemberRole>(roles.includes('viewer') ? 'viewer' : (roles[0] ?? 'viewer'))
  const invite = useInvite(sent)
  const { fields, general } = formErrors(invite.error, LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    invite.mutate(
      { email: String(new FormData(event.currentTarget).get('email') ?? '').trim(), role },
      { onSuccess: () => setSent((count) => count + 1) },
    )
  }
  return (
    <section aria-labelledby="invite-heading" className="section">
      <h2 id="invite-heading">Invite a member</h2>
      {/* A new form after each invitation: the email typed is cleared. */}
      <form key={sent} onSubmit={submit} noValidate className="form">
        <FormError message={general} />
        <div className="form-row">
          <TextField label={LABELS.email} name="email" type="email" autoComplete="off" required error={fields.email} />
          <SelectField
            label={LABELS.role}
            value={role}
            onChange={(event) => setRole(event.target.value as MemberRole)}
            options={roles.map((option) => ({ value: option, label: roleName(option) }))}
            hint={ROLE_DESCRIPTIONS[role]}
            error={fields.role}
          />
        </div>
        <div>
          <Button type="submit" variant="primary" busy={invite.isPending}>
            Invite member
          </Button>
        </div>
      </form>
      {invite.data && !invite.isPending ? <InvitationLink invitation={invite.data} /> : null}
    </section>
  )
}
