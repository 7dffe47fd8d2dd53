import { queryOptions, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../../api/client'
import { useWrite } from '../../app/write'

export type Member = Schemas['Member']
export type Invitation = Schemas['Invitation']
export type MemberRole = Member['role']

export const memberKeys = {
  all: ['members'] as const,
  list: (cursor: string | undefined) => ['members', 'list', { cursor }] as const,
}

export const memberListQuery = (cursor: string | undefined) =>
  queryOptions({
    queryKey: memberKeys.list(cursor),
    queryFn: () => unwrap(api.GET('/api/members', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } })),
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
 * key, so inviting the same person again makes a new link rather than replaying the first.
 */
export function useInvite(sent: number) {
  return useWrite({
    request: (body: { email: string; role: MemberRole }, headers) =>
      unwrap(api.POST('/api/members/invitations', { body, headers })),
    sameAs: (body) => ({ ...body, sent }),
    invalidates: [memberKeys.all],
  })
}

/** Accepts an invitation: the org joined becomes the session's active org, so everything loaded is asked again. */
export function useAcceptInvitation() {
  const queryClient = useQueryClient()
  return useWrite({
    request: (token: string, headers) => unwrap(api.POST('/api/invitations/accept', { body: { token }, headers })),
    onSuccess: () => queryClient.resetQueries(),
  })
}
