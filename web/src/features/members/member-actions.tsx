import { useState } from 'react'
import { Button, ConfirmDialog } from '../../ui'
import {
  memberChangeMessage,
  roleName,
  useChangeRole,
  useRemoveMember,
  type Member,
  type MemberRole,
} from './members-api'

/** What a role change or removal answered, for the page's one status line. */
export type MemberOutcome = { kind: 'done'; text: string } | { kind: 'refused'; text: string } | null

interface MemberActionProps {
  member: Member
  /** The roles the signed-in person may grant (their role's `grantableRoles`). */
  grantable: readonly MemberRole[]
  orgName: string | undefined
  onOutcome: (outcome: MemberOutcome) => void
}

/**
 * A member's role as a select, for owners and admins who may manage it; "Save role" sends it (a select
 * that saved on every change would save each role the arrow keys pass through).
 */
export function RoleSelect({ member, grantable, orgName, onOutcome }: MemberActionProps) {
  // The role picked and not saved yet; otherwise the member's, as the API last answered it.
  const [picked, setPicked] = useState<MemberRole | null>(null)
  const role = picked ?? member.role
  const change = useChangeRole()
  const id = `role-${member.userId}`
  const save = () =>
    change.mutate(
      { userId: member.userId, role },
      {
        onSuccess: (saved) => {
          setPicked(null)
          onOutcome({ kind: 'done', text: `${member.name} is now ${roleName(saved.role)}.` })
        },
        onError: (error) => {
          setPicked(null)
          onOutcome({ kind: 'refused', text: memberChangeMessage(error, member, orgName) ?? '' })
        },
      },
    )
  return (
    <div className="role-select">
      <label htmlFor={id} className="visually-hidden">
        Role of {member.name}
      </label>
      <select id={id} value={role} onChange={(event) => setPicked(event.target.value as MemberRole)}>
        {grantable.map((option) => (
          <option key={option} value={option}>
            {roleName(option)}
          </option>
        ))}
      </select>
      {role !== member.role ? (
        <Button variant="primary" busy={change.isPending} onClick={save} aria-label={`Save role of ${member.name}`}>
          Save role
        </Button>
      ) : null}
    </div>
  )
}

/** "Remove", asked first in a dialog naming the person and the org; the last owner's refusal is said there. */
export function RemoveMember({
  member,
  orgName,
  onOutcome,
  you,
}: Omit<MemberActionProps, 'grantable'> & { you: boolean }) {
  const [open, setOpen] = useState(false)
  const org = orgName ?? 'this organisation'
  const remove = useRemoveMember(() => onOutcome({ kind: 'done', text: `${member.name} was removed from ${org}.` }))
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)} aria-label={`Remove ${member.name}`}>
        Remove
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next)
          if (!next) remove.reset()
        }}
        title={you ? `Leave ${org}?` : `Remove ${member.name} from ${org}?`}
        description={
          you
            ? 'You lose access to its records at once. Someone must invite you again to come back.'
            : `${member.name} loses access to its records at once. Invite them again to bring them back.`
        }
        confirm={you ? `Leave ${org}` : `Remove ${member.name}`}
        variant="danger"
        busy={remove.isPending}
        error={remove.error ? memberChangeMessage(remove.error, member, orgName) : null}
        onConfirm={() => remove.mutate(member.userId, { onSuccess: () => setOpen(false) })}
      />
    </>
  )
}
