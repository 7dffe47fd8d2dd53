import { useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, FormError, SelectField, TextField } from '../../ui'
import { InvitationLink } from './invitation-link'
import { ROLE_DESCRIPTIONS, roleName, useInvite, type Invitation, type MemberRole } from './members-api'

const LABELS = { email: 'Email', role: 'Invite as' }

/**
 * Owners and admins invite by email and role (only roles their own role may grant). The API emails
 * the invitation; inviting an address with an open invitation sends that one again.
 */
export function InviteForm({
  roles,
  sent: shown,
  onSent,
}: {
  roles: readonly MemberRole[]
  /** The invitation this form sent last, while it is the page's latest (one link on the page at a time). */
  sent: Invitation | null
  onSent: (invitation: Invitation) => void
}) {
  // Each invitation made gets a fresh key: inviting the same person again sends it again, not a replay.
  const [sent, setSent] = useState(0)
  const [role, setRole] = useState<MemberRole>(roles.includes('viewer') ? 'viewer' : (roles[0] ?? 'viewer'))
  const invite = useInvite(sent)
  const { fields, general } = formErrors(invite.error, LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    invite.mutate(
      { email: String(new FormData(event.currentTarget).get('email') ?? '').trim(), role },
      {
        onSuccess: (invitation) => {
          setSent((count) => count + 1)
          onSent(invitation)
        },
      },
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
      {shown && !invite.isPending ? <InvitationLink invitation={shown} /> : null}
    </section>
  )
}
