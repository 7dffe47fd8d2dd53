import Fastify, { type FastifyInstance } from 'fastify'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { migrationsCurrent } from './db/migrate.js'
import { registerGuard } from './platform/guard.js'
import { registerHttpBasics, requestIdFor, sendProblem } from './platform/http.js'
import { AppError } from './platform/errors.js'
import { registerMetrics } from './platform/metrics.js'
import { compileValidator } from './platform/validation.js'
import { registerAuditRoutes } from './modules/audit/audit.routes.js'
import { registerOrgRoutes } from './modules/orgs/orgs.routes.js'
import { createServices, type ServiceDeps, type Services } from './services.js'

export type { Services }

export interface AppDeps extends ServiceDeps {
  /** false silences logs (tests); otherwise pino at config.logLevel. */
  logger?: boolean
}

const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.client_secret',
  '*.signingSecret',
]

/** The composition root: platform plugins, then every module's routes. Does not listen. */
export async function buildApp(deps: AppDeps): Promise<{ app: FastifyInstance; services: Services }> {
  const services = createServices(deps)
  const { config, db, clock, limiter, auth, orgs, audit } = services

  const app = Fastify({
    logger: deps.logger === false ? false : { level: config.logLevel, redact: REDACT },
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: true },
  })
  app.setValidatorCompiler(({ schema, httpPart }) => compileValidator(schema as object, httpPart))

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Oeuvre API',
        version: '1.0.0',
        description:
          'Rights catalog, revenue, payouts and ticketed events. Two surfaces: the session surface under /api and the partner surface under /v1 (OAuth 2.0 client credentials). Errors are RFC 9457 problem details with a stable `code`.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          session: { type: 'http', scheme: 'bearer', description: 'Session token (sess_...) from /api/auth/login' },
          oauth: {
            type: 'oauth2',
            flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: {} } },
          },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const auth = route.config && (route.config as { auth?: string }).auth
      const security = auth === 'session' ? [{ session: [] }] : auth === 'client' ? [{ oauth: [] }] : []
      return { schema: { ...(schema ?? {}), security } as typeof schema, url }
    },
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })

  registerHttpBasics(app)
  registerGuard(app, { db, clock, config, limiter, authenticators: { session: auth.authenticate } })
  const metrics = registerMetrics(app)

  app.get('/healthz', { schema: { hide: true }, config: { rateLimit: false } }, async () => ({ status: 'ok' }))
  app.get('/readyz', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    try {
      if (await migrationsCurrent(db.backend, db.migrations)) return { status: 'ready' }
      return sendProblem(reply, new AppError('service_unavailable', 'Database migrations are pending'))
    } catch {
      return sendProblem(reply, new AppError('service_unavailable', 'The database is unreachable'))
    }
  })
  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    reply.type(metrics.contentType)
    return metrics.metrics()
  })
  app.get('/openapi.json', { schema: { hide: true }, config: { rateLimit: false } }, async () => app.swagger())

  registerOrgRoutes(app, { auth, orgs })
  registerAuditRoutes(app, audit)

  return { app, services }
}
