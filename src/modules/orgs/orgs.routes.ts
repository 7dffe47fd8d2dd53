import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { responses, NoContent } from '../../platform/routes.js'
import type { AuthService } from './auth.service.js'
import type { OrgsService, UserContext } from './orgs.service.js'
import {
  AcceptBody,
  ActiveOrgBody,
  CreateOrgBody,
  InvitationSchema,
  InviteBody,
  LoginBody,
  LoginResponse,
  MeResponse,
  MemberList,
  MemberQuery,
  MembershipRecord,
  OrgSchema,
  SignupBody,
} from './orgs.schemas.js'
import type { FastifyRequest } from 'fastify'

function userContext(request: FastifyRequest): UserContext & { email: string | null } {
  const identity = request.identity
  if (!identity?.session) throw new Error('session route without a session identity')
  return {
    userId: identity.userId,
    requestId: String(request.id),
    sessionTokenHash: identity.session.tokenHash,
    email: identity.session.userEmail,
    ...(request.ctx.commitWith ? { commitWith: request.ctx.commitWith } : {}),
  }
}

export function registerOrgRoutes(app: FastifyInstance, services: { auth: AuthService; orgs: OrgsService }): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { auth, orgs } = services
  const tags = ['Session surface: account and orgs']

  api.post(
    '/api/auth/signup',
    {
      schema: {
        tags,
        operationId: 'signUp',
        summary: 'Create an account and a session',
        body: SignupBody,
        response: responses({ 201: LoginResponse }, [409]),
      },
      config: { auth: 'none', idempotent: true, successStatus: 201 },
    },
    async (request, reply) => reply.code(201).send(await auth.signup(request.body)),
  )

  api.post(
    '/api/auth/login',
    {
      schema: {
        tags,
        operationId: 'logIn',
        summary: 'Log in: exchange email and password for a session token',
        body: LoginBody,
        response: responses({ 200: LoginResponse }, [401]),
      },
      config: { auth: 'none' },
    },
    (request) => auth.login(request.body, request.ip),
  )

  api.post(
    '/api/auth/logout',
    {
      schema: { operationId: 'logOut', tags, summary: 'End this session', response: responses({ 204: NoContent }) },
      config: { auth: 'session', orgScoped: false },
    },
    async (request, reply) => {
      await auth.logout(request.identity!.session!.tokenHash)
      return reply.code(204).send()
    },
  )

  api.get(
    '/api/me',
    {
      schema: {
        tags,
        operationId: 'getMe',
        summary: 'The user, their memberships and the active org',
        response: responses({ 200: MeResponse }),
      },
      config: { auth: 'session', orgScoped: false },
    },
    (request) => auth.me(request.identity!.userId, request.identity!.orgId),
  )

  api.post(
    '/api/orgs',
    {
      schema: {
        tags,
        operationId: 'createOrg',
        summary: 'Create an org; the caller becomes its owner and it becomes the active org',
        body: CreateOrgBody,
        response: responses({ 201: OrgSchema }, [400, 413, 415, 421]),
      },
      config: { auth: 'session', orgScoped: false, idempotent: true, successStatus: 201 },
    },
    async (request, reply) => reply.code(201).send(await orgs.create(userContext(request), request.body)),
  )

  api.post(
    '/api/session/active-org',
    {
      schema: {
        tags,
        operationId: 'setActiveOrg',
        summary: 'Switch the active org (must be a member)',
        body: ActiveOrgBody,
        response: responses({ 200: MeResponse }, [403, 404]),
      },
      config: { auth: 'session', orgScoped: false },
    },
    async (request) => {
      const user = userContext(request)
      await orgs.switchActive(user, request.body.orgId)
      return auth.me(user.userId, request.body.orgId)
    },
  )

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

  api.post(
    '/api/members/invitations',
    {
      schema: {
        tags,
        operationId: 'inviteMember',
        summary: 'Invite someone to the active org (emits member.invited)',
        body: InviteBody,
        response: responses({ 201: InvitationSchema }, [400, 409, 413, 415]),
      },
      config: { auth: 'session', access: 'members:write', idempotent: true, successStatus: 201 },
    },
    async (request, reply) => reply.code(201).send(await orgs.invite(request.ctx, request.body)),
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
    (request) => orgs.accept(userContext(request), request.body.token),
  )
}
