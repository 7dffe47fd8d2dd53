import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import { ApiError } from '../../api/client'
import { problemMessage } from '../../api/messages'
import { meQuery } from '../../app/session'
import { Button, ErrorState, FormError, Loading } from '../../ui'
import { logOut } from '../auth/auth-api'
import { AuthLayout } from '../auth/auth-layout'
import { roleName, useAcceptInvitation, type MemberRole } from './members-api'

const routeApi = getRouteApi('/invitations/accept')

/**
 * The invitation link. Signed in: accept (the API checks the email, the expiry and that it is still
 * open). Not signed in: log in or sign up first, then come back here to accept.
 */
function AcceptInvitationPage() {
  const { token } = routeApi.useSearch()
  const here = `/invitations/accept?${new URLSearchParams({ token: token ?? '' })}`
  const me = useQuery({ ...meQuery, retry: false })
  const queryClient = useQueryClient()
  // The org joined is the session's active org now: whatever was loaded belonged to another.
  const accept = useAcceptInvitation()
  const logout = useMutation({
    mutationFn: logOut,
    onSettled: () => queryClient.resetQueries({ queryKey: meQuery.queryKey }),
  })

  if (!token)
    return (
      <AuthLayout title="Accept an invitation">
        <p>This link carries no invitation. Open the whole link you were sent.</p>
      </AuthLayout>
    )
  if (me.isPending) return <Loading label="Loading your account…" />
  if (me.error instanceof ApiError && me.error.status === 401) return <SignInToAccept here={here} />
  if (me.error) return <ErrorState error={me.error} onRetry={() => void me.refetch()} />

  if (accept.data) {
    const joined = accept.data
    const org = me.data.memberships.find((membership) => membership.orgId === joined.orgId)
    return <InvitationAccepted orgName={org?.name} orgId={joined.orgId} role={joined.role} />
  }

  const refused = accept.error instanceof ApiError ? accept.error.problem : null
  return (
    <AuthLayout title="Accept an invitation">
      <FormError message={problemMessage(accept.error)} />
      <p>
        Signed in as <strong>{me.data.user.name}</strong>
        {me.data.user.email ? ` (${me.data.user.email})` : ''}. The invitation must have been sent to this email
        address.
      </p>
      <Button variant="primary" busy={accept.isPending} onClick={() => accept.mutate(token)}>
        Accept invitation
      </Button>
      {refused?.status === 403 ? (
        <p>
          Sent to another address?{' '}
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
    </AuthLayout>
  )
}

/** Not signed in: log in or sign up with the invited address, then come back to this link. */
function SignInToAccept({ here }: { here: string }) {
  return (
    <AuthLayout title="Accept an invitation">
      <p>
        You have been invited to an organisation on Oeuvre. Log in, or sign up with the email address the invitation was
        sent to, to accept it.
      </p>
      <div className="page-actions">
        <Link to="/login" search={{ redirect: here }} className="button button-primary">
          Log in to accept
        </Link>
        <Link to="/signup" search={{ redirect: here }} className="button button-secondary">
          Sign up to accept
        </Link>
      </div>
    </AuthLayout>
  )
}

/** Joined: the org (by name once the session lists it) and the role, and the way into it. */
function InvitationAccepted({
  orgName,
  orgId,
  role,
}: {
  orgName: string | undefined
  orgId: string
  role: MemberRole
}) {
  const navigate = useNavigate()
  return (
    <AuthLayout title="Invitation accepted">
      <p role="status">
        You joined <strong>{orgName ?? orgId}</strong> as <strong>{roleName(role)}</strong>.
      </p>
      <Button variant="primary" onClick={() => void navigate({ to: '/catalog', search: {} })}>
        Open {orgName ?? 'the organisation'}
      </Button>
    </AuthLayout>
  )
}

export const route = createLazyRoute('/invitations/accept')({ component: AcceptInvitationPage })
