import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyInstance } from 'fastify'
import { idempotent } from '../../platform/idempotent-route.js'
import { NoContent, responses } from '../../platform/routes.js'
import {
  ChangeRoleBody,
  InvitationParams,
  InvitationPreviewSchema,
  MemberParams,
  PendingInvitationList,
  PendingInvitationQuery,
  PendingInvitationSchema,
  PreviewBody,
} from './orgs.invitation-schemas.js'
import { userContext } from './orgs.callers.js'
import {
  AcceptBody,
  InvitationSchema,
  InviteBody,
  MemberList,
  MemberQuery,
  MemberSchema,
  MembershipRecord,
} from './orgs.schemas.js'
import type { OrgsService } from './orgs.service.js'

const tags = ['Session surface: account and orgs']

/** The active org's members: listed, their role changed, removed. */
export function registerMemberRoutes(app: FastifyInstance, orgs: OrgsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  api.get(
    '/api/members',
    {
      schema: {
        tags,
        operationId: 'listMembers',
        summary: 'Members of the active org',
        querystring: MemberQuery,
        response: responses({ 200: MemberList }, [400]),
      },
      config: { auth: 'session', access: 'members:read' },
    },
    (request) => orgs.listMembers(request.ctx, request.query),
  )
  api.patch(
    '/api/members/:userId',
    {
      schema: {
        tags,
        operationId: 'changeMemberRole',
        summary: 'Change a member’s role (emits member.role_changed); an org keeps at least one owner',
        description: 'Admins manage every role but owner; only an owner makes or unmakes owners.',
        params: MemberParams,
        body: ChangeRoleBody,
        response: responses({ 200: MemberSchema }, [400, 409]),
      },
      config: { auth: 'session', access: 'members:write' },
    },
    (request) => orgs.changeRole(request.ctx, request.params.userId, request.body.role),
  )
  api.delete(
    '/api/members/:userId',
    {
      schema: {
        tags,
        operationId: 'removeMember',
        summary: 'Remove a member (emits member.removed); never the last owner',
        params: MemberParams,
        response: responses({ 204: NoContent }, [409]),
      },
      config: { auth: 'session', access: 'members:write' },
    },
    async (request, reply) => {
      await orgs.removeMember(request.ctx, request.params.userId)
      return reply.code(204).send()
    },
  )
}

/** Invitations: made (and sent by email), listed, revoked, sent again, previewed, accepted. */
export function registerInvitationRoutes(app: FastifyInstance, orgs: OrgsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  api.post(
    '/api/members/invitations',
    {
      schema: {
        tags,
        operationId: 'inviteMember',
        summary: 'Invite someone to the active org and email them the link (emits member.invited)',
        description:
          'Inviting an email that has an open invitation sends that invitation again: the same link, valid 7 days from now, in the role asked now.',
        body: InviteBody,
        response: responses({ 201: InvitationSchema }, [400, 409, 413, 415]),
      },
      config: { auth: 'session', access: 'members:write', idempotent: true, successStatus: 201 },
    },
    idempotent(async (request, reply, answer) =>
      reply.code(201).send(await orgs.invite(request.ctx, request.body, answer)),
    ),
  )
  api.get(
    '/api/members/invitations',
    {
      schema: {
        tags,
        operationId: 'listInvitations',
        summary: 'Invitations not accepted or revoked, with who invited and when',
        querystring: PendingInvitationQuery,
        response: responses({ 200: PendingInvitationList }, [400]),
      },
      config: { auth: 'session', access: 'members:read' },
    },
    (request) => orgs.listInvitations(request.ctx, request.query),
  )
  registerInvitationActions(app, orgs)
}

function registerInvitationActions(app: FastifyInstance, orgs: OrgsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  api.post(
    '/api/members/invitations/:id/revoke',
    {
      schema: {
        tags,
        operationId: 'revokeInvitation',
        summary: 'Revoke an invitation: its link stops working (emits member.invitation_revoked)',
        params: InvitationParams,
        response: responses({ 200: PendingInvitationSchema }, [403, 422]),
      },
      config: { auth: 'session', access: 'members:write', idempotent: true, successStatus: 200 },
    },
    idempotent((request) => orgs.revokeInvitation(request.ctx, request.params.id)),
  )
  api.post(
    '/api/members/invitations/:id/resend',
    {
      schema: {
        tags,
        operationId: 'resendInvitation',
        summary: 'Email an open invitation again: the same link, valid 7 days from now (emits member.invited)',
        params: InvitationParams,
        response: responses({ 200: InvitationSchema }, [403, 422]),
      },
      config: { auth: 'session', access: 'members:write', idempotent: true, successStatus: 200 },
    },
    idempotent((request, _reply, answer) => orgs.resendInvitation(request.ctx, request.params.id, answer)),
  )
  api.post(
    '/api/invitations/preview',
    {
      schema: {
        tags,
        operationId: 'previewInvitation',
        summary: 'What an invitation link leads to, before signing in: the org, who invited, the role, its status',
        body: PreviewBody,
        response: responses({ 200: InvitationPreviewSchema }, [404]),
      },
      config: { auth: 'none' },
    },
    (request) => orgs.previewInvitation(request.body.token),
  )
  api.post(
    '/api/invitations/accept',
    {
      schema: {
        tags,
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation sent to your email (emits member.joined)',
        body: AcceptBody,
        response: responses({ 200: MembershipRecord }, [403, 404, 409, 422]),
      },
      config: { auth: 'session', orgScoped: false, idempotent: true, successStatus: 200 },
    },
    idempotent((request, _reply, answer) => orgs.accept(userContext(request), request.body.token, answer)),
  )
}
