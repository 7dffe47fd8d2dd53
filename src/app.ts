import Fastify, { type FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import cookie from '@fastify/cookie'
import type { Registry } from 'prom-client'
import type { Config } from './config.js'
import { migrationsCurrent } from './db/migrate.js'
import { registerGuard } from './platform/guard.js'
import { registerIdempotency } from './platform/idempotent-route.js'
import { checkHeadersAndPath, registerResidency } from './platform/residency.js'
import {
  answerFrameworkError,
  databaseUnavailable,
  MAX_PARAM_LENGTH,
  registerErrorHandler,
  registerFormParser,
  registerHttpBasics,
  requestIdFor,
  sendProblem,
} from './platform/http.js'
import { answerClientError } from './platform/http-connection.js'
import { AppError } from './platform/errors.js'
import { LOG_REDACT } from './platform/logger.js'
import { rateLimitStatus, registerMetrics } from './platform/metrics.js'
import { compileValidator } from './platform/validation.js'
import { registerAuditRoutes } from './modules/audit/index.js'
import { registerOrgRoutes } from './modules/orgs/index.js'
import { registerEmailRoutes } from './modules/email/index.js'
import { registerDeploymentRoutes } from './modules/deployment/index.js'
import { registerClientRoutes } from './modules/oauth/index.js'
import { registerRequestLog } from './modules/oauth/index.js'
import { registerTokenRoute } from './modules/oauth/index.js'
import { registerDiscoveryRoute } from './modules/oauth/index.js'
import { registerV1Deprecation } from './modules/v1/index.js'
import { addPartnerExamples } from './modules/v1/index.js'
import { finishDocument, type OpenApiDocument } from './platform/openapi.js'
import { registerErrorPages } from './platform/error-pages.js'
import { registerV1Routes } from './modules/v1/index.js'
import { SCOPES } from './platform/permissions.js'
import { registerCreatorRoutes } from './modules/creators/index.js'
import { registerCatalogRoutes } from './modules/catalog/index.js'
import { registerTicketingRoutes } from './modules/ticketing/index.js'
import { registerRevenueImportRoute } from './modules/revenue/index.js'
import { registerRevenueRoutes } from './modules/revenue/index.js'
import { registerPayoutRoutes } from './modules/payouts/index.js'
import {
  registerWebhookKindsRoute,
  registerWebhookRoutes,
  PARTNER_SURFACE,
  SESSION_SURFACE,
} from './modules/webhooks/index.js'
import { registerEvidenceRoutes } from './modules/evidence/index.js'
import { registerPartnerRoutes } from './modules/partners/index.js'
import { createServices, type ServiceDeps, type Services } from './services.js'
import { publicOrigin, sessionCookieName } from './platform/session-cookie.js'
import { registerWebApp } from './platform/web-app.js'

export type { Services }

export interface AppDeps extends ServiceDeps {
  /** false silences logs (tests); otherwise pino at config.logLevel. */
  logger?: boolean
  /** Where log lines go (default stdout); tests read them from here. */
  logStream?: NodeJS.WritableStream
  /** The built web app served at `/` (default web/dist); tests pass a directory of their own. */
  webRoot?: string
}

/** The composition root: platform plugins, then every module's routes. Does not listen. */
export async function buildApp(deps: AppDeps): Promise<{ app: FastifyInstance; services: Services }> {
  const services = createServices(deps)
  const app = createFastify(deps, services.config)
  await registerOpenApi(app, services.config)
  const metrics = await registerPlatform(app, services)
  registerOperationalRoutes(app, services, metrics)
  await registerModuleRoutes(app, services)
  await registerWebApp(app, deps.webRoot)
  return { app, services }
}

function createFastify(deps: AppDeps, config: Config): FastifyInstance {
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : { level: config.logLevel, redact: LOG_REDACT, ...(deps.logStream ? { stream: deps.logStream } : {}) },
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // What the router and Node's HTTP parser refuse is problem+json too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  })
  app.setValidatorCompiler(({ schema, httpPart }) => compileValidator(schema as object, httpPart))
  registerErrorHandler(app)
  return app
}

/** The OpenAPI document at /openapi.json and its reference at /docs. */
async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Oeuvre API',
        version: '1.0.0',
        description:
          'Rights catalog, revenue, payouts and ticketed events. Two surfaces: the session surface under /api and the partner surface under /v1 (OAuth 2.0 client credentials). Errors are RFC 9457 problem details with a stable `code`; each code is explained at its `type` URI, under /docs/errors/.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          session: { type: 'http', scheme: 'bearer', description: 'Session token (sess_...) from /api/auth/login' },
          oauth: {
            type: 'oauth2',
            flows: {
              clientCredentials: {
                tokenUrl: '/oauth/token',
                scopes: Object.fromEntries(SCOPES.map((scope) => [scope, scope])),
              },
            },
          },
        },
      },
    },
    // The route table is complete by the time the document is first asked for.
    transformObject: (document) =>
      'openapiObject' in document
        ? addPartnerExamples(
            finishDocument(document.openapiObject as OpenApiDocument, {
              routes: app.routeTable,
              publicUrl: config.publicUrl,
            }),
          )
        : document.swaggerObject,
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })
}

/** Every request's platform hooks: error pages, residency, cookies, idempotency, the guard, the request log, metrics. */
async function registerPlatform(app: FastifyInstance, services: Services): Promise<Registry> {
  const { config, db, clock, limiter, auth } = services
  app.addHook('onClose', async () => {
    services.email.close()
    await services.credentials.close()
  })
  // Before the server waits for its connections: an open stream would hold it forever.
  app.addHook('preClose', async () => services.eventStreams.hub.close())
  registerErrorPages(app, config.publicUrl)
  registerHttpBasics(app)
  registerResidency(app, config)
  await app.register(cookie)
  const origin = publicOrigin(config)
  registerIdempotency(app, { db, clock })
  registerGuard(app, {
    screen: (request) => checkHeadersAndPath(config, request),
    clock,
    config,
    limiter,
    authenticators: { session: auth.authenticate, client: services.oauthTokens.authenticate },
    isOperator: services.partners.isOperator,
    sessionCookie: { name: sessionCookieName(config), origin },
  })
  registerV1Deprecation(app, config.deprecation)
  registerRequestLog(app, services.requestLog, clock)
  return registerMetrics(app, limiter, services.requestLog, services.email.counts)
}

/** Health, readiness, metrics and the document: no auth, no rate limit, not in the document. */
function registerOperationalRoutes(app: FastifyInstance, { db, limiter }: Services, metrics: Registry): void {
  app.get('/healthz', { schema: { hide: true }, config: { rateLimit: false } }, async () => ({ status: 'ok' }))
  app.get('/readyz', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    try {
      // Rate limits on this node's buckets alone (Redis away) still serve: ready, and the body says so.
      if (await migrationsCurrent(db.backend, db.migrations))
        return { status: 'ready', rateLimit: rateLimitStatus(limiter) }
      return sendProblem(reply, new AppError('service_unavailable', 'Database migrations are pending'))
    } catch {
      return sendProblem(reply, databaseUnavailable())
    }
  })
  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    reply.type(metrics.contentType)
    return metrics.metrics()
  })
  app.get('/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () => app.swagger())
}

/** Every module's routes, on the session surface (/api) and the partner surface (/v1). */
async function registerModuleRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { config, auth, orgs, audit } = services
  registerDeploymentRoutes(app, config)
  registerOrgRoutes(app, { auth, orgs, passwordResets: services.passwordResets, config })
  registerEmailRoutes(app, services)
  registerWebhookKindsRoute(app)
  registerAuditRoutes(app, audit, services.eventStreams)
  registerClientRoutes(app, services.oauthClients, services.requestLog)
  // The only route that takes a form body: the parser exists in its plugin context alone, so every other route answers 415.
  await app.register(async (formScope) => {
    registerFormParser(formScope)
    registerTokenRoute(formScope, services.oauthTokens)
  })
  registerDiscoveryRoute(app, config.publicUrl)
  registerV1Routes(app, { audit, orgs, partners: services.partners, eventStreams: services.eventStreams })
  registerCreatorRoutes(app, services.creators, { prefix: '/api/creators', auth: 'session' })
  registerCatalogRoutes(app, services.catalog, { prefix: '/api/catalog', auth: 'session' })
  registerTicketingRoutes(app, services.ticketing, { prefix: '/api/events', auth: 'session' })
  registerRevenueRoutes(app, services.revenue, { prefix: '/api/revenue', auth: 'session' })
  await registerRevenueImportRoute(app, services.revenue)
  registerPayoutRoutes(app, services.payouts, { prefix: '/api/payouts', auth: 'session' })
  // The partner surface: the same record routes and services, behind OAuth scopes.
  const partner = (family: string) => ({ prefix: `/v1/orgs/:orgId/${family}`, auth: 'client' as const })
  registerCreatorRoutes(app, services.creators, partner('creators'))
  registerCatalogRoutes(app, services.catalog, partner('catalog'))
  registerTicketingRoutes(app, services.ticketing, partner('ticketed-events'))
  registerRevenueRoutes(app, services.revenue, partner('revenue'))
  registerPayoutRoutes(app, services.payouts, partner('payouts'))

  registerWebhookRoutes(app, services.webhooks, SESSION_SURFACE)
  registerWebhookRoutes(app, services.webhooks, PARTNER_SURFACE)
  registerEvidenceRoutes(app, services.evidence)
  registerPartnerRoutes(app, { partners: services.partners, config })
}
