import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { idempotent } from '../../platform/idempotent-route.js'
import { responses, NoContent } from '../../platform/routes.js'
import { clearSessionCookie, setSessionCookie } from '../../platform/session-cookie.js'
import type { Config } from '../../config.js'
import { SESSION_ABSOLUTE_MS, type AuthService } from './auth.service.js'
import type { OrgsService } from './orgs.service.js'
import { registerInvitationRoutes, registerMemberRoutes } from './orgs.member-routes.js'
import { userContext } from './orgs.callers.js'
import type { PasswordResets } from './orgs.password-reset.js'
import { registerPasswordResetRoutes } from './orgs.password-routes.js'
import {
  ActiveOrgBody,
  CookieSessionResponse,
  CreateOrgBody,
  CreatedOrgSchema,
  LoginBody,
  LoginResponse,
  MeResponse,
  SignupBody,
} from './orgs.schemas.js'
import type { FastifyReply } from 'fastify'

/** The web app's sign-in: the token goes into the HttpOnly cookie and is left out of the body. */
function cookieSession(reply: FastifyReply, config: Config, session: LoginResponse): CookieSessionResponse {
  setSessionCookie(reply, config, session.token, SESSION_ABSOLUTE_MS / 1000)
  return { expiresAt: session.expiresAt, user: session.user, activeOrgId: session.activeOrgId }
}

export function registerOrgRoutes(
  app: FastifyInstance,
  services: { auth: AuthService; orgs: OrgsService; passwordResets: PasswordResets; config: Config },
): void {
  const { auth, orgs, config } = services
  registerTokenSignInRoutes(app, auth)
  registerCookieSignInRoutes(app, auth, config)
  registerSessionRoutes(app, auth, config)
  registerActiveOrgRoutes(app, auth, orgs)
  registerMemberRoutes(app, orgs)
  registerInvitationRoutes(app, orgs)
  registerPasswordResetRoutes(app, services.passwordResets)
}

const tags = ['Session surface: account and orgs']
const cookieDescription =
  'For the web app: the session is set as an HttpOnly, SameSite=Lax cookie (Secure over HTTPS). Requests need the X-Oeuvre-CSRF header and an Origin equal to PUBLIC_URL (else 403 csrf_failed), as does every write the cookie authenticates later.'

/** Sign-up and login answering with a session token. */
function registerTokenSignInRoutes(app: FastifyInstance, auth: AuthService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

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
    // No transaction to commit the answer with: it is stored as the response is sent.
    idempotent(async (request, reply) => reply.code(201).send(await auth.signup(request.body))),
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
}

/** The web app's sign-up and login: the session in a cookie. */
function registerCookieSignInRoutes(app: FastifyInstance, auth: AuthService, config: Config): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/api/auth/signup/cookie',
    {
      schema: {
        tags,
        operationId: 'signUpWithCookie',
        summary: 'Create an account and a cookie session (the web app)',
        description: cookieDescription,
        body: SignupBody,
        response: responses({ 201: CookieSessionResponse }, [403, 409]),
      },
      // Not idempotent: a replayed answer could not set the cookie again.
      config: { auth: 'none', csrf: true },
    },
    async (request, reply) => reply.code(201).send(cookieSession(reply, config, await auth.signup(request.body))),
  )

  api.post(
    '/api/auth/login/cookie',
    {
      schema: {
        tags,
        operationId: 'logInWithCookie',
        summary: 'Log in with a cookie session (the web app)',
        description: cookieDescription,
        body: LoginBody,
        response: responses({ 200: CookieSessionResponse }, [401, 403]),
      },
      config: { auth: 'none', csrf: true },
    },
    async (request, reply) => cookieSession(reply, config, await auth.login(request.body, request.ip)),
  )
}

/** The session itself: ending it, and who it is. */
function registerSessionRoutes(app: FastifyInstance, auth: AuthService, config: Config): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/api/auth/logout',
    {
      schema: { operationId: 'logOut', tags, summary: 'End this session', response: responses({ 204: NoContent }) },
      config: { auth: 'session', orgScoped: false },
    },
    async (request, reply) => {
      await auth.logout(request.identity!.session!.tokenHash)
      if (request.viaSessionCookie) clearSessionCookie(reply, config)
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
}

/** A new org, and switching the org the session acts on. */
function registerActiveOrgRoutes(app: FastifyInstance, auth: AuthService, orgs: OrgsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/api/orgs',
    {
      schema: {
        tags,
        operationId: 'createOrg',
        summary: 'Create an org; the caller becomes its owner and it becomes the session’s active org',
        description:
          '`environment` is `production` unless the body asks for `sandbox` (fixed at creation); production orgs get ' +
          'OAuth clients only once the partner onboarding review has passed. The answer’s `activeOrgId` is the new org: ' +
          'the session’s /api routes act on it from now on.',
        body: CreateOrgBody,
        response: responses({ 201: CreatedOrgSchema }, [400, 413, 415, 421]),
      },
      config: { auth: 'session', orgScoped: false, idempotent: true, successStatus: 201 },
    },
    idempotent(async (request, reply, answer) =>
      reply.code(201).send(await orgs.create(userContext(request), request.body, answer)),
    ),
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
}
