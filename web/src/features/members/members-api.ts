import { queryOptions, useQueryClient } from '@tanstack/react-query'
import { api, ApiError, unwrap, type Schemas } from '../../api/client'
import { problemMessage } from '../../api/messages'
import { meQuery } from '../../app/session'
import { useWrite } from '../../app/write'

export type Member = Schemas['Member']
export type Invitation = Schemas['Invitation']
export type PendingInvitation = Schemas['PendingInvitation']
export type InvitationPreview = Schemas['InvitationPreview']
export type MemberRole = Member['role']

export const memberKeys = {
  all: ['members'] as const,
  list: (cursor: string | undefined) => ['members', 'list', { cursor }] as const,
  invitations: (cursor: string | undefined) => ['members', 'invitations', { cursor }] as const,
}

export const memberListQuery = (cursor: string | undefined) =>
  queryOptions({
    queryKey: memberKeys.list(cursor),
    queryFn: () => unwrap(api.GET('/api/members', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } })),
  })

/** The invitations not accepted or revoked (one per email: inviting again sends the same one). */
export const invitationListQuery = (cursor: string | undefined) =>
  queryOptions({
    queryKey: memberKeys.invitations(cursor),
    queryFn: () =>
      unwrap(api.GET('/api/members/invitations', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } })),
  })

/** What an invitation link leads to (the org, who invited, the role, whether it is still open), before signing in. */
export const invitationPreviewQuery = (token: string) =>
  queryOptions({
    queryKey: ['invitation-preview', token] as const,
    queryFn: () => unwrap(api.POST('/api/invitations/preview', { body: { token } })),
    retry: false,
    staleTime: 60_000,
  })

/** What each role may do (the API's permission table, in words). */
export const ROLE_DESCRIPTIONS: Record<MemberRole, string> = {
  owner: 'Everything, ownership included',
  admin: 'Everything but ownership: members, webhooks, credentials',
  finance: 'Revenue and payouts; reads everything',
  editor: 'Catalog, creators and events; reads everything',
  viewer: 'Reads everything, changes nothing',
}

export const roleName = (role: MemberRole) => role.charAt(0).toUpperCase() + role.slice(1)

/** The link an invitation is accepted at: this app's accept page, carrying the token the API answered once. */
export function invitationLink(token: string): string {
  return `${window.location.origin}/invitations/accept?${new URLSearchParams({ token })}`
}

/**
 * Invites by email and role. `sent` counts the invitations made on the page: each gets a fresh
 * key, so inviting the same person again sends the invitation again rather than replaying the first.
 */
export function useInvite(sent: number) {
  return useWrite({
    request: (body: { email: string; role: MemberRole }, headers) =>
      unwrap(api.POST('/api/members/invitations', { body, headers })),
    sameAs: (body) => ({ ...body, sent }),
    invalidates: [memberKeys.all],
  })
}

/** Emails an open invitation again (the same link, 7 more days); every press is a new sending. */
export function useResendInvitation() {
  return useWrite({
    request: (id: string, headers) =>
      unwrap(api.POST('/api/members/invitations/{id}/resend', { params: { path: { id } }, headers })),
    sameAs: (id) => ({ id, at: Date.now() }),
    invalidates: [memberKeys.all],
  })
}

/** Revokes an invitation: its link stops working (`onRevoked` is told even though its row is gone). */
export function useRevokeInvitation(onRevoked: () => void) {
  return useWrite({
    request: (id: string, headers) =>
      unwrap(api.POST('/api/members/invitations/{id}/revoke', { params: { path: { id } }, headers })),
    sameAs: (id) => ({ revoke: id }),
    invalidates: [memberKeys.all],
    onSuccess: onRevoked,
  })
}

/** A member's new role. One's own role changes what the session may do: the user is asked again too. */
export function useChangeRole() {
  return useWrite({
    request: ({ userId, role }: { userId: string; role: MemberRole }, headers) =>
      unwrap(api.PATCH('/api/members/{userId}', { params: { path: { userId } }, body: { role }, headers })),
    invalidates: [memberKeys.all, meQuery.queryKey],
  })
}

/** Removes a member from the org (their sessions leave it); `onRemoved` is told even though their row is gone. */
export function useRemoveMember(onRemoved: () => void) {
  return useWrite({
    request: (userId: string, headers) =>
      unwrap(api.DELETE('/api/members/{userId}', { params: { path: { userId } }, headers })),
    sameAs: (userId) => ({ remove: userId }),
    invalidates: [memberKeys.all, meQuery.queryKey],
    onSuccess: onRemoved,
  })
}

/**
 * A refused role change or removal in people's words. The API keeps an org with at least one owner
 * and says so with a 409 `conflict` (the only conflict these two routes answer): named here for the
 * person and the org concerned.
 */
export function memberChangeMessage(error: unknown, member: Member, orgName: string | undefined): string | null {
  if (error instanceof ApiError && error.status === 409 && error.problem.code === 'conflict' && member.role === 'owner')
    return `${member.name} is the only owner of ${orgName ?? 'this organisation'}, which must keep one. Make another member owner first.`
  return problemMessage(error)
}

/**
 * Accepts an invitation: the org joined becomes the session's active org, so everything loaded is
 * asked again (`onJoined` is told first: the page asking may be replaced while that loads).
 */
export function useAcceptInvitation(onJoined: (joined: Schemas['MembershipRecord']) => void) {
  const queryClient = useQueryClient()
  return useWrite({
    request: (token: string, headers) => unwrap(api.POST('/api/invitations/accept', { body: { token }, headers })),
    onSuccess: (joined) => {
      onJoined(joined)
      return queryClient.resetQueries()
    },
  })
}
