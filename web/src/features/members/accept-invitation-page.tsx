import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { ApiError } from '../../api/client'
import { problemMessage } from '../../api/messages'
import { meQuery, type Me } from '../../app/session'
import { Button, DateTime, ErrorState, FormError, Loading } from '../../ui'
import { logOut } from '../auth/auth-api'
import { AuthLayout } from '../auth/auth-layout'
import {
  invitationPreviewQuery,
  ROLE_DESCRIPTIONS,
  roleName,
  useAcceptInvitation,
  type InvitationPreview,
  type MemberRole,
} from './members-api'

const routeApi = getRouteApi('/invitations/accept')
const TITLE = 'Accept an invitation'

/**
 * The invitation link. First what it leads to (the org, who invited, the role: the API's preview,
 * before anyone signs in). Signed in: accept (the API checks the email, the expiry and that it is
 * still open). Not signed in: log in or sign up first, then come back here to accept.
 */
function AcceptInvitationPage() {
  const { token } = routeApi.useSearch()
  const preview = useQuery({ ...invitationPreviewQuery(token ?? ''), enabled: Boolean(token) })
  const me = useQuery({ ...meQuery, retry: false })
  // Kept here: accepting asks everything again (the org joined is the active one), the preview included.
  const [joined, setJoined] = useState<{ orgName: string; role: MemberRole } | null>(null)
  if (joined)
    return (
      <AuthLayout title="Invitation accepted">
        <InvitationAccepted {...joined} />
      </AuthLayout>
    )
  if (!token)
    return (
      <AuthLayout title={TITLE}>
        <p>This link carries no invitation. Open the whole link from the email you were sent.</p>
      </AuthLayout>
    )
  if (preview.isPending || me.isPending) return <Loading label="Loading the invitation…" />
  if (preview.error instanceof ApiError && preview.error.status === 404)
    return (
      <AuthLayout title={TITLE}>
        <p role="alert">
          This link leads to no invitation. Open the whole link from the email, or ask whoever invited you to send it
          again.
        </p>
      </AuthLayout>
    )
  if (preview.error) return <ErrorState error={preview.error} onRetry={() => void preview.refetch()} />
  const here = `/invitations/accept?${new URLSearchParams({ token })}`
  return (
    <AuthLayout title={TITLE}>
      <InvitationSummary preview={preview.data} />
      {preview.data.status !== 'pending' ? (
        <p>
          <Link to="/">Go to the app</Link>
        </p>
      ) : me.error instanceof ApiError && me.error.status === 401 ? (
        <SignInToAccept here={here} email={preview.data.email} />
      ) : me.error ? (
        <ErrorState error={me.error} onRetry={() => void me.refetch()} />
      ) : (
        <AcceptAs
          me={me.data}
          token={token}
          preview={preview.data}
          onJoined={(role) => setJoined({ orgName: preview.data.orgName, role })}
        />
      )}
    </AuthLayout>
  )
}

const CLOSED: Record<Exclude<InvitationPreview['status'], 'pending'>, string> = {
  accepted: 'This invitation has been accepted already.',
  expired: 'This invitation has expired: ask whoever invited you to send it again.',
  revoked: 'This invitation was revoked: ask whoever invited you for a new one.',
}

/** Who invited whom, to which org, as what, until when; or why the link no longer works. */
function InvitationSummary({ preview }: { preview: InvitationPreview }) {
  const inviter = preview.inviter.email ? `${preview.inviter.name} (${preview.inviter.email})` : preview.inviter.name
  return (
    <>
      <p>
        {inviter} invited <strong>{preview.email}</strong> to join <strong>{preview.orgName}</strong> as{' '}
        <strong>{roleName(preview.role)}</strong>: {ROLE_DESCRIPTIONS[preview.role].toLowerCase()}.
      </p>
      {preview.status === 'pending' ? (
        <p className="muted">
          The link works until <DateTime value={preview.expiresAt} />.
        </p>
      ) : (
        <p role="alert" className="notice">
          {CLOSED[preview.status]}
        </p>
      )}
    </>
  )
}

/** Signed in: accept as this account (it must be the invited address), or log out to use another. */
function AcceptAs({
  me,
  token,
  preview,
  onJoined,
}: {
  me: Me
  token: string
  preview: InvitationPreview
  onJoined: (role: MemberRole) => void
}) {
  const queryClient = useQueryClient()
  // The org joined is the session's active org now: whatever was loaded belonged to another.
  const accept = useAcceptInvitation((joined) => onJoined(joined.role))
  const logout = useMutation({
    mutationFn: logOut,
    onSettled: () => queryClient.resetQueries({ queryKey: meQuery.queryKey }),
  })
  const refused = accept.error instanceof ApiError ? accept.error.problem : null
  const otherAddress = me.user.email !== null && me.user.email.toLowerCase() !== preview.email.toLowerCase()
  return (
    <>
      <FormError message={problemMessage(accept.error)} />
      <p>
        Signed in as <strong>{me.user.name}</strong>
        {me.user.email ? ` (${me.user.email})` : ''}.
        {otherAddress ? ` The invitation is for ${preview.email}: log out and use that account to accept it.` : ''}
      </p>
      <Button variant="primary" busy={accept.isPending} onClick={() => accept.mutate(token)}>
        Accept invitation
      </Button>
      {otherAddress || refused?.status === 403 ? (
        <p>
          <Button onClick={() => logout.mutate()} busy={logout.isPending}>
            Log out and use another account
          </Button>
        </p>
      ) : null}
      {refused && refused.status !== 403 ? (
        <p>
          <Link to="/">Go to the app</Link>
        </p>
      ) : null}
    </>
  )
}

/** Not signed in: log in or sign up with the invited address, then come back to this link. */
function SignInToAccept({ here, email }: { here: string; email: string }) {
  return (
    <>
      <p>Log in as {email}, or sign up with that address, to accept it.</p>
      <div className="page-actions">
        <Link to="/login" search={{ redirect: here }} className="button button-primary">
          Log in to accept
        </Link>
        <Link to="/signup" search={{ redirect: here }} className="button button-secondary">
          Sign up to accept
        </Link>
      </div>
    </>
  )
}

/** Joined: the org and the role, and the way into it. */
function InvitationAccepted({ orgName, role }: { orgName: string; role: MemberRole }) {
  const navigate = useNavigate()
  return (
    <>
      <p role="status">
        You joined <strong>{orgName}</strong> as <strong>{roleName(role)}</strong>.
      </p>
      <Button variant="primary" onClick={() => void navigate({ to: '/catalog', search: {} })}>
        Open {orgName}
      </Button>
    </>
  )
}

export const route = createLazyRoute('/invitations/accept')({ component: AcceptInvitationPage })
