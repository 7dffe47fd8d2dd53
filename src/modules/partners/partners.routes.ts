import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { idempotent } from '../../platform/idempotent-route.js'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from '../../config.js'
import { responses } from '../../platform/routes.js'
import { setSessionCookie } from '../../platform/session-cookie.js'
import { SESSION_ABSOLUTE_MS } from '../orgs/index.js'
import type { OperatorCaller, PartnerCaller, PartnersService } from './partners.service.js'
import {
  AgreementSchema,
  ApplicationBody,
  ApproveBody,
  OperatorPartnerList,
  OperatorPartnerQuery,
  OperatorPartnerSchema,
  PartnerApplyBody,
  PartnerApplyResponse,
  PartnerCookieSignupResponse,
  PartnerParams,
  PartnerSchema,
  PartnerSignupBody,
  PartnerSignupResponse,
  ReasonBody,
  ReviewRequestSchema,
  SignAgreementBody,
} from './partners.schemas.js'

function partnerCaller(request: FastifyRequest): PartnerCaller {
  const identity = request.identity
  if (!identity?.session) throw new Error('partner route without a session identity')
  return { userId: identity.userId, activeOrgId: identity.orgId, requestId: String(request.id) }
}

function operatorCaller(request: FastifyRequest): OperatorCaller {
  return { userId: request.identity!.userId, requestId: String(request.id) }
}

/** The partner program: sign-up, the partner's onboarding, and the operators' review (docs/partners.md). */
export function registerPartnerRoutes(
  app: FastifyInstance,
  services: { partners: PartnersService; config: Config },
): void {
  const { partners, config } = services
  registerSignupRoutes(app, partners, config)
  registerApplicationRoutes(app, partners)
  registerAgreementAndReviewRoutes(app, partners)
  registerOperatorReadRoutes(app, partners)
  registerOperatorDecisionRoutes(app, partners)
}

const tags = ['Session surface: partner program']
const operatorTags = ['Session surface: operators']
// Operators: every route answers 404 to anyone else (the guard's `operator` flag).
const operator = { auth: 'session' as const, orgScoped: false, operator: true }

/** Sign-up: with a session token, or with a cookie session (the portal). */
function registerSignupRoutes(app: FastifyInstance, partners: PartnersService, config: Config): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.post(
    '/api/partners/signup',
    {
      schema: {
        tags,
        operationId: 'partnerSignUp',
        summary: 'Sign up as a partner: an account, a sandbox org with demo data and sandbox credentials at once',
        description:
          'One transaction creates the user, the partner, its sandbox org and a sandbox OAuth client holding every read ' +
          'scope and webhooks:write (its secret shown once); the demo records follow through the services. Answers like ' +
          'login, the sandbox org active. `region` defaults to this deployment’s; another region answers 421 wrong_region. ' +
          'A replay for the same Idempotency-Key answers without `token`, `expiresAt` and the client `secret` (neither is ' +
          'stored): log in, or rotate the secret.',
        body: PartnerSignupBody,
        response: responses({ 201: PartnerSignupResponse }, [409, 421]),
      },
      config: { auth: 'none', idempotent: true, successStatus: 201 },
    },
    idempotent(async (request, reply, answer) =>
      reply.code(201).send(await partners.signup(request.body, String(request.id), answer)),
    ),
  )

  api.post(
    '/api/partners/signup/cookie',
    {
      schema: {
        tags,
        operationId: 'partnerSignUpWithCookie',
        summary: 'Partner sign-up with a cookie session (the portal)',
        description:
          'As /api/partners/signup, the session set as an HttpOnly, SameSite=Lax cookie (Secure over HTTPS) and left out ' +
          'of the body. Needs the X-Oeuvre-CSRF header and an Origin equal to PUBLIC_URL (else 403 csrf_failed).',
        body: PartnerSignupBody,
        response: responses({ 201: PartnerCookieSignupResponse }, [403, 409, 421]),
      },
      // Not idempotent: a replayed answer could not set the cookie again.
      config: { auth: 'none', csrf: true },
    },
    async (request, reply) => {
      const { token, ...rest } = await partners.signup(request.body, String(request.id))
      setSessionCookie(reply, config, token, SESSION_ABSOLUTE_MS / 1000)
      return reply.code(201).send(rest)
    },
  )

  api.post(
    '/api/partners/apply',
    {
      schema: {
        tags,
        operationId: 'partnerApply',
        summary: 'Become a partner with the signed-in account: a sandbox org with demo data and sandbox credentials',
        description:
          'As /api/partners/signup without making a user: the account keeps its orgs, and the new sandbox org becomes ' +
          'the session’s active org. 409 conflict when the account is a partner already. A replay for the same ' +
          'Idempotency-Key answers without the client `secret` (never stored): rotate it.',
        body: PartnerApplyBody,
        response: responses({ 201: PartnerApplyResponse }, [409, 421]),
      },
      config: { auth: 'session', orgScoped: false, idempotent: true, successStatus: 201 },
    },
    idempotent(async (request, reply, answer) => {
      const identity = request.identity!
      const applicant = {
        userId: identity.userId,
        requestId: String(request.id),
        sessionTokenHash: identity.session?.tokenHash ?? null,
      }
      return reply.code(201).send(await partners.apply(applicant, request.body, answer))
    }),
  )
}

/** The caller's partner, and its application step. */
function registerApplicationRoutes(app: FastifyInstance, partners: PartnersService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/api/partner',
    {
      schema: {
        tags,
        operationId: 'getPartner',
        summary: 'The caller’s partner: status, onboarding steps, what is due, limits',
        response: responses({ 200: PartnerSchema }),
      },
      config: { auth: 'session', orgScoped: false },
    },
    (request) => partners.get(partnerCaller(request)),
  )

  api.post(
    '/api/partner/application',
    {
      schema: {
        tags,
        operationId: 'submitPartnerApplication',
        summary: 'Submit (or correct) the application step',
        body: ApplicationBody,
        response: responses({ 200: PartnerSchema }, [422]),
      },
      config: { auth: 'session', orgScoped: false, idempotent: true, successStatus: 200 },
    },
    // These answers are stored as they are sent (their transactions return rows, not the answer).
    idempotent((request) => partners.submitApplication(partnerCaller(request), request.body)),
  )
}

/** The agreement step, and the request for the go-live review. */
function registerAgreementAndReviewRoutes(app: FastifyInstance, partners: PartnersService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/api/partner/agreement',
    {
      schema: {
        tags,
        operationId: 'getPartnerAgreement',
        summary: 'The partner agreement in force: text, version and its SHA-256',
        response: responses({ 200: AgreementSchema }),
      },
      config: { auth: 'session', orgScoped: false },
    },
    () => partners.agreement(),
  )

  api.post(
    '/api/partner/agreement',
    {
      schema: {
        tags,
        operationId: 'signPartnerAgreement',
        summary: 'Sign the agreement (org event partner.agreement_signed, in the hash chain)',
        body: SignAgreementBody,
        response: responses({ 200: PartnerSchema }, [409]),
      },
      config: { auth: 'session', orgScoped: false, idempotent: true, successStatus: 200 },
    },
    idempotent((request) => partners.signAgreement(partnerCaller(request), request.body, request.ip)),
  )

  api.post(
    '/api/partner/review-requests',
    {
      schema: {
        tags,
        operationId: 'requestPartnerReview',
        summary: 'Ask for the go-live review (every earlier step done)',
        description: 'One open request at a time: a second answers 409 conflict.',
        response: responses({ 201: ReviewRequestSchema }, [409, 422]),
      },
      config: { auth: 'session', orgScoped: false, idempotent: true, successStatus: 201 },
    },
    idempotent(async (request, reply) => reply.code(201).send(await partners.requestReview(partnerCaller(request)))),
  )
}

function registerOperatorReadRoutes(app: FastifyInstance, partners: PartnersService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()

  api.get(
    '/api/operator/partners',
    {
      schema: {
        tags: operatorTags,
        operationId: 'operatorListPartners',
        summary: 'Partners, newest first (operators only)',
        querystring: OperatorPartnerQuery,
        response: responses({ 200: OperatorPartnerList }),
      },
      config: operator,
    },
    (request) => partners.list(request.query),
  )

  api.get(
    '/api/operator/partners/:id',
    {
      schema: {
        tags: operatorTags,
        operationId: 'operatorGetPartner',
        summary: 'A partner with its application, agreement evidence, steps and review requests (operators only)',
        params: PartnerParams,
        response: responses({ 200: OperatorPartnerSchema }),
      },
      config: operator,
    },
    (request) => partners.show(request.params.id),
  )
}

/** The operators' decisions on a partner, one route each. */
function registerOperatorDecisionRoutes(app: FastifyInstance, partners: PartnersService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const action = (
    name: 'approve' | 'request-changes' | 'reject' | 'suspend' | 'resume',
    summary: string,
    operationId: string,
    body: typeof ApproveBody | typeof ReasonBody | null,
    run: (caller: OperatorCaller, id: string, body: Record<string, unknown>) => Promise<unknown>,
  ) =>
    api.post(
      `/api/operator/partners/:id/${name}`,
      {
        schema: {
          tags: operatorTags,
          operationId,
          summary,
          params: PartnerParams,
          ...(body ? { body } : {}),
          response: responses({ 200: OperatorPartnerSchema }, [422]),
        },
        config: { ...operator, idempotent: true, successStatus: 200 },
      },
      idempotent((request: FastifyRequest, _reply: FastifyReply) =>
        run(
          operatorCaller(request),
          (request.params as { id: string }).id,
          (request.body ?? {}) as Record<string, unknown>,
        ),
      ),
    )

  action(
    'approve',
    'Approve: the partner goes live (operators only)',
    'operatorApprovePartner',
    ApproveBody,
    (c, id, b) => partners.approve(c, id, b),
  )
  action(
    'request-changes',
    'Ask the partner for changes, with a reason (operators only)',
    'operatorRequestPartnerChanges',
    ReasonBody,
    (c, id, b) => partners.requestChanges(c, id, b.reason as string),
  )
  action(
    'reject',
    'Reject the partner, with a reason (operators only)',
    'operatorRejectPartner',
    ReasonBody,
    (c, id, b) => partners.reject(c, id, b.reason as string),
  )
  action(
    'suspend',
    'Suspend a live partner: its production clients get no more tokens (operators only)',
    'operatorSuspendPartner',
    ReasonBody,
    (c, id, b) => partners.suspend(c, id, b.reason as string),
  )
  action('resume', 'Resume a suspended partner (operators only)', 'operatorResumePartner', null, (c, id) =>
    partners.resume(c, id),
  )
}
