import { isUtf8 } from 'node:buffer'
import type { IncomingMessage } from 'node:http'
import type {
  FastifyContextConfig,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
} from 'fastify'
import { isConnectionLoss } from '../db/connection-loss.js'
import { AppError, problemBody, type Problem } from './errors.js'
import { drainBody, newRequestId } from './http-connection.js'
import { registerUnsafeTextCheck } from './unsafe-text.js'
import { validationError } from './validation.js'

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** Fastify's default: a longer path parameter matches no route. */
export const MAX_PARAM_LENGTH = 100

/** Accepts a client's X-Request-Id when it is a sane token; otherwise makes one. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers['x-request-id']
  if (typeof given === 'string' && SANE_REQUEST_ID.test(given)) return given
  return newRequestId()
}

/** Sets an error's status, content type and headers on the reply; returns its problem+json body. */
export function prepareProblem(reply: FastifyReply, error: AppError): Problem {
  reply.request.refusal = { code: error.code, detail: error.detail }
  for (const [name, value] of Object.entries(error.options.headers ?? {})) reply.header(name, value)
  reply.code(error.status).type('application/problem+json')
  return problemBody(error, String(reply.request.id), reply.server.publicUrl)
}

export function sendProblem(reply: FastifyReply, error: AppError): FastifyReply {
  return reply.send(prepareProblem(reply, error))
}

/** Every registered route with its config: the security tests are generated from it. */
export interface RouteEntry {
  method: string
  url: string
  config: FastifyContextConfig
  schema?: FastifySchema
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[]
  }
  interface FastifyRequest {
    /** Why the request was refused, as its answer said (the request log keeps it). */
    refusal?: { code: string; detail: string }
  }
}

/** Seconds a client is told to wait while the database is unreachable: a restart or failover is noticed within them. */
const DATABASE_RETRY_AFTER_S = 2

/** The answer while the database cannot be reached: 503, retry later (nothing was done, or the write rolled back). */
export function databaseUnavailable(): AppError {
  return new AppError('service_unavailable', 'The database is unreachable right now; retry shortly', {
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) },
  })
}

const undecodable = (segment: string) => {
  try {
    decodeURIComponent(segment)
    return false
  } catch {
    return true
  }
}

/** The path parameter of a known route whose raw segment in `path` fails `check`, or null. */
function pathParamFailing(routes: RouteEntry[], path: string, check: (segment: string) => boolean): string | null {
  const segments = path.replace(/(.)\/$/, '$1').split('/')
  for (const route of routes) {
    const parts = route.url.split('/')
    if (parts.length !== segments.length) continue
    let failing: string | null = null
    const matches = parts.every((part, index) => {
      const segment = segments[index] ?? ''
      if (!part.startsWith(':')) return part === segment
      if (failing === null && check(segment)) failing = part.slice(1)
      return true
    })
    if (matches && failing !== null) return failing
  }
  return null
}

/** The router's own refusals (before any route runs): a path parameter that cannot be decoded or is too long. */
function routerError(code: string, request: FastifyRequest): AppError {
  const path = request.url.split('?')[0] ?? '/'
  const routes = request.server.routeTable
  if (code === 'FST_ERR_BAD_URL') {
    const param = pathParamFailing(routes, path, undecodable)
    if (param === null) return new AppError('invalid_request', 'The URL path is not valid percent-encoded UTF-8')
    const message = `${param} is not valid percent-encoded UTF-8`
    return new AppError('parameter_invalid', message, { param, errors: [{ param, code: 'invalid_format', message }] })
  }
  const param = pathParamFailing(routes, path, (segment) => segment.length > MAX_PARAM_LENGTH)
  if (param === null)
    return new AppError('invalid_request', `A path segment is longer than ${MAX_PARAM_LENGTH} characters`)
  const message = `${param} is longer than ${MAX_PARAM_LENGTH} characters`
  return new AppError('parameter_invalid', message, { param, errors: [{ param, code: 'out_of_range', message }] })
}

/** Every failure, expected or not, leaves as problem+json with a stable code. */
export function toAppError(error: FastifyError | AppError | Error, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error
  const fastifyError = error as FastifyError
  if (fastifyError.validation)
    return validationError(fastifyError.validation as never, fastifyError.validationContext ?? 'body')
  switch (fastifyError.code) {
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return routerError(fastifyError.code, request)
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'Request bodies are limited to 1 MiB')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'unsupported_media_type',
        `Content-Type ${request.headers['content-type'] ?? '(none)'} is not supported; send application/json`,
      )
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json', 'The body is empty; send a JSON object')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('invalid_request', 'Content-Length does not match the body')
  }
  if (fastifyError.statusCode === 400 && error instanceof SyntaxError) {
    return new AppError('invalid_json', 'The body is not valid JSON')
  }
  if (fastifyError.statusCode === 413) return new AppError('payload_too_large', 'Request bodies are limited to 1 MiB')
  if (fastifyError.statusCode === 415) return new AppError('unsupported_media_type', 'Unsupported Content-Type')
  if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new AppError('invalid_request', fastifyError.message)
  }
  if (isConnectionLoss(error)) return databaseUnavailable()
  return new AppError('internal_error', 'Something went wrong on our side; quote the request id to support')
}

/** Fastify's `frameworkErrors`: what the router refuses before any hook runs, as problem+json with a request id. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id)
  const appError = toAppError(error, request)
  request.log.info({ code: appError.code }, 'request refused')
  sendProblem(reply, appError)
}

/**
 * Every error as problem+json. Set before any plugin registers, so the plugins' own routes
 * (the API reference's files under /docs) inherit it too.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error as FastifyError, request)
    // The database being away is an outage to watch, not a bug: one line per request, without the stack.
    if (appError.code === 'service_unavailable')
      request.log.warn({ reason: (error as Error).message }, 'service unavailable')
    else if (appError.status >= 500) request.log.error({ err: error }, 'request failed')
    else request.log.info({ code: appError.code }, 'request refused')
    return sendProblem(reply, appError)
  })
}

/** A body whose bytes are not UTF-8 (JSON text and form bodies must be: RFC 8259, WHATWG URL). */
function notUtf8(code: 'invalid_json' | 'invalid_request', what: string): AppError {
  return new AppError(code, `The ${what} is not valid UTF-8: send text encoded as UTF-8`)
}

/** Form bodies, for the one route that takes them (/oauth/token), registered in its own plugin context. */
export function registerFormParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer
    if (!isUtf8(bytes)) return done(notUtf8('invalid_request', 'form body'), undefined)
    done(null, Object.fromEntries(new URLSearchParams(bytes.toString('utf8'))))
  })
}

/** Request ids, JSON parsing with clear errors, unsafe text refused, problem+json errors, 404 and 405. */
export function registerHttpBasics(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    done()
  })
  registerUnsafeTextCheck(app)
  // A body refused before it was read (too large) is drained first, so the client reads the answer.
  app.addHook('onError', async (request, reply, error) => {
    if (!request.raw.complete && toAppError(error, request).code === 'payload_too_large') await drainBody(request.raw)
  })

  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer
    if (bytes.length === 0) return done(null, undefined)
    // Decoding would turn invalid bytes into U+FFFD: what the hash chain keeps would not be what was sent.
    if (!isUtf8(bytes)) return done(notUtf8('invalid_json', 'body'), undefined)
    try {
      done(null, JSON.parse(bytes.toString('utf8')))
    } catch {
      done(new AppError('invalid_json', 'The body is not valid JSON'), undefined)
    }
  })

  const patterns: { method: string; regex: RegExp }[] = []
  const table: RouteEntry[] = []
  app.decorate('routeTable', table)
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const method of methods) {
      if (method !== 'HEAD')
        table.push({
          method: String(method),
          url: route.url,
          config: (route.config ?? {}) as FastifyContextConfig,
          ...(route.schema ? { schema: route.schema } : {}),
        })
    }
    const regex = new RegExp(
      '^' + route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+/g, '[^/]+') + '/?$',
    )
    // An operator route's path never answers 405: that would tell anyone it exists (guard.ts).
    if ((route.config as FastifyContextConfig | undefined)?.operator) return
    for (const method of methods) patterns.push({ method: String(method), regex })
  })

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    const allowed = [...new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method))].filter(
      (method) => method !== 'HEAD',
    )
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '))
      return sendProblem(
        reply,
        new AppError('method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(' or ')}`),
      )
    }
    return sendProblem(reply, new AppError('resource_missing', `No route ${request.method} ${path}`))
  })
}
