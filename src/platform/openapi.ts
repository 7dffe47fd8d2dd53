import { ERROR_CODES, errorTypeUri, type ErrorCode } from './errors.js'
import type { RouteEntry } from './http.js'
import { IDEMPOTENCY_KEY_MAX } from './idempotency.js'
import { hoistSchema } from './openapi-components.js'

type Json = Record<string, unknown>
type Ref = { $ref: string }

export interface Media {
  schema?: Json
  example?: unknown
  examples?: unknown
}
export interface Response {
  $ref?: string
  description?: string
  headers?: Record<string, Ref>
  content?: Record<string, Media>
}
export interface Operation {
  operationId?: string
  parameters?: (Json | Ref)[]
  requestBody?: { required?: boolean; description?: string; content?: Record<string, Media> }
  responses?: Record<string, Response>
  security?: Record<string, string[]>[]
  'x-oeuvre-resource'?: string
  'x-oeuvre-method'?: string
}
export interface OpenApiDocument {
  servers?: { url: string }[]
  paths?: Record<string, Record<string, Operation>>
  components?: {
    schemas?: Record<string, Json>
    responses?: Record<string, Response>
    headers?: Record<string, Json>
    parameters?: Record<string, Json>
  }
}

const PROBLEM_MEDIA = 'application/problem+json'
const PROBLEM_REF = '#/components/schemas/Problem'
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete'])

const integer = { type: 'integer', minimum: 0 }
const HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description: 'The request’s id: yours when you sent a sane `X-Request-Id`, else generated. Quote it to support.',
    schema: { type: 'string', maxLength: 128 },
  },
  'X-RateLimit-Limit': { description: 'Requests allowed per minute for the caller’s tier', schema: integer },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: integer },
  'X-RateLimit-Reset': { description: 'When the window resets, as Unix time in seconds', schema: integer },
  'Retry-After': { description: 'Seconds to wait before sending the request again', schema: integer },
  'WWW-Authenticate': {
    description: 'The Bearer challenge (RFC 6750): `error="invalid_token"`, or `"insufficient_scope"` with the scope',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response to an earlier request with the same `Idempotency-Key`',
    schema: { type: 'string', enum: ['true'] },
  },
}
const EVERY_RESPONSE = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']
const RETRY_AFTER = new Set([409, 429, 503])

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes retrying this request safe: the first response is stored for 24 h and replayed to a request with the same key (scoped to caller, method and path).',
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX },
}

/** The shared error response of each status: its name, a typical code for the example, and its extra headers. */
const ERROR_RESPONSES: Record<number, { name: string; example: ErrorCode; headers: string[] }> = {
  400: { name: 'BadRequest', example: 'parameter_invalid', headers: [] },
  401: { name: 'Unauthorized', example: 'invalid_token', headers: ['WWW-Authenticate'] },
  403: { name: 'Forbidden', example: 'insufficient_scope', headers: ['WWW-Authenticate'] },
  404: { name: 'NotFound', example: 'resource_missing', headers: [] },
  405: { name: 'MethodNotAllowed', example: 'method_not_allowed', headers: [] },
  409: { name: 'Conflict', example: 'conflict', headers: ['Retry-After'] },
  413: { name: 'ContentTooLarge', example: 'payload_too_large', headers: [] },
  415: { name: 'UnsupportedMediaType', example: 'unsupported_media_type', headers: [] },
  421: { name: 'MisdirectedRequest', example: 'wrong_region', headers: [] },
  422: { name: 'UnprocessableContent', example: 'unprocessable', headers: [] },
  429: { name: 'TooManyRequests', example: 'rate_limited', headers: ['Retry-After'] },
  500: { name: 'InternalServerError', example: 'internal_error', headers: [] },
  503: { name: 'ServiceUnavailable', example: 'service_unavailable', headers: ['Retry-After'] },
}

const headerRefs = (names: readonly string[]): Record<string, Ref> =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]))

function errorResponse(status: number, publicUrl: string): Response {
  const { example, headers } = ERROR_RESPONSES[status]!
  const codes = (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].status === status)
  const { title } = ERROR_CODES[example]
  return {
    description: `${codes.map((code) => `\`${code}\``).join(', ')} (problem details; the codes are explained under /docs/errors/)`,
    headers: headerRefs([...EVERY_RESPONSE, ...headers]),
    content: {
      [PROBLEM_MEDIA]: {
        schema: { $ref: PROBLEM_REF },
        example: {
          type: errorTypeUri(publicUrl, example),
          title,
          status,
          detail: ERROR_CODES[example].meaning,
          code: example,
          requestId: 'req_3kT9bV2pQ7xZ1mN8',
        },
      },
    },
  }
}

/** The errors every route of its kind can answer, from its config and its shape. */
function commonErrors(method: string, path: string, operation: Operation, config: RouteEntry['config']): number[] {
  const statuses = [500, 503]
  if (config.rateLimit !== false) statuses.push(429)
  if ((operation.parameters?.length ?? 0) > 0 || operation.requestBody !== undefined || config.idempotent)
    statuses.push(400)
  // The body parsers run for these methods whatever the route reads.
  if (BODY_METHODS.has(method)) statuses.push(413, 415)
  if (config.auth === 'session' || config.auth === 'client') {
    statuses.push(401)
    if (config.access !== undefined || (config.auth === 'session' && config.orgScoped !== false)) statuses.push(403)
  }
  if (path.includes('{')) statuses.push(404)
  if (config.idempotent) statuses.push(409, 422)
  return statuses
}

const pascal = (words: string) =>
  words.replace(/(^|[-_])([a-z0-9])/g, (_, _dash, letter: string) => letter.toUpperCase())
const camel = (words: string) => pascal(words).replace(/^./, (letter) => letter.toLowerCase())

function isList(operation: Operation): boolean {
  const schema = operation.responses?.['200']?.content?.['application/json']?.schema
  return (schema?.properties as Json | undefined)?.pagination !== undefined
}

/**
 * How an SDK groups a /v1 operation: the resource is the path's first segment after the org
 * (`catalog`, `ticketedEvents`), the method follows from the HTTP method and the rest of the path.
 */
export function partnerGrouping(
  path: string,
  method: string,
  operation: Operation,
): { resource: string; method: string } | null {
  const match = /^\/v1\/(?:orgs\/\{orgId\}\/)?([a-z][a-z0-9-]*)((?:\/[^/]+)*)$/.exec(path)
  if (!match) return null
  const segments = (match[2] ?? '').split('/').filter(Boolean)
  const literals = segments.filter((segment) => !segment.startsWith('{'))
  const last = segments[segments.length - 1]
  let verb: string
  const success = operation.responses?.['200'] as { content?: Record<string, unknown> } | undefined
  if (method === 'get' && success?.content?.['text/event-stream']) verb = 'stream'
  else if (method === 'get') {
    if (literals.length === 0) verb = last === undefined ? 'list' : 'get'
    else verb = (isList(operation) ? 'list' : 'get') + pascal(literals.join('-'))
  } else if (method === 'post') verb = literals.length === 0 ? 'create' : camel(literals[literals.length - 1]!)
  else verb = { delete: 'delete', patch: 'update', put: 'replace' }[method] ?? method
  return { resource: camel(match[1]!), method: verb }
}

function securityOf(config: RouteEntry['config']): Record<string, string[]>[] {
  if (config.auth === 'session') return [{ session: [] }]
  if (config.auth === 'client') return [{ oauth: config.access ? [config.access] : [] }]
  return []
}

const isProblem = (response: Response) =>
  Object.values(response.content ?? {}).some((media) => media.schema?.$ref === PROBLEM_REF)

function finishOperation(
  path: string,
  method: string,
  operation: Operation,
  route: RouteEntry,
  schemas: Record<string, Json>,
): void {
  const grouping = partnerGrouping(path, method, operation)
  if (grouping) {
    operation['x-oeuvre-resource'] = grouping.resource
    operation['x-oeuvre-method'] = grouping.method
    // Named apart from the /api twin that most /v1 operations have.
    if (operation.operationId) operation.operationId = `v1${pascal(operation.operationId)}`
  }
  operation.security = securityOf(route.config)
  const streamed = route.config.streamedBody
  if (streamed)
    operation.requestBody = {
      required: true,
      description: streamed.description,
      content: { [streamed.mediaType]: { schema: streamed.schema as unknown as Json } },
    }

  const hoist = <T extends { schema?: Json }>(holder: T) => {
    if (holder.schema) holder.schema = hoistSchema(holder.schema, schemas) as Json
  }
  for (const parameter of operation.parameters ?? []) hoist(parameter as { schema?: Json })
  for (const media of Object.values(operation.requestBody?.content ?? {})) hoist(media)
  const responses = operation.responses ?? {}
  for (const response of Object.values(responses))
    for (const media of Object.values(response.content ?? {})) hoist(media)

  if (route.config.idempotent)
    operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }]

  // The token endpoint answers RFC 6749 errors, not problem details: it documents its own.
  const ownErrorForm = Object.entries(responses).some(
    ([status, response]) => Number(status) >= 400 && !isProblem(response),
  )
  const statuses = new Set(Object.keys(responses).map(Number))
  if (!ownErrorForm) for (const status of commonErrors(method, path, operation, route.config)) statuses.add(status)

  const finished: Record<string, Response> = {}
  for (const status of [...statuses].sort((a, b) => a - b)) {
    const response = responses[String(status)]
    if (status >= 400 && (response === undefined || isProblem(response))) {
      finished[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status]!.name}` }
      continue
    }
    const extra = status < 300 && route.config.idempotent ? ['Idempotent-Replayed'] : []
    const own = status === 401 || status === 403 ? ['WWW-Authenticate'] : RETRY_AFTER.has(status) ? ['Retry-After'] : []
    // A route that is not rate limited (OAuth discovery) has no X-RateLimit-* headers to document.
    const every = route.config.rateLimit === false ? ['X-Request-Id'] : EVERY_RESPONSE
    finished[status] = {
      ...response,
      headers: { ...response?.headers, ...headerRefs([...every, ...own, ...extra]) },
    }
  }
  operation.responses = finished
}

/**
 * Completes the generated document from the route table, in one place: operation names and
 * /v1 grouping, security, the errors and headers every operation has, and shared components
 * (schemas, error responses, headers, the Idempotency-Key parameter) referred to by `$ref`.
 */
export function finishDocument<T extends OpenApiDocument>(
  document: T,
  options: { routes: readonly RouteEntry[]; publicUrl: string },
): T {
  const routes = new Map(
    options.routes.map((route) => [`${route.method.toLowerCase()} ${route.url.replace(/:(\w+)/g, '{$1}')}`, route]),
  )
  const schemas: Record<string, Json> = { ...document.components?.schemas }
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const route = routes.get(`${method} ${path}`)
      if (!route) throw new Error(`${method.toUpperCase()} ${path} is documented but not in the route table`)
      finishOperation(path, method, operation, route, schemas)
    }
  }
  document.components = {
    ...document.components,
    schemas,
    responses: Object.fromEntries(
      Object.entries(ERROR_RESPONSES).map(([status, { name }]) => [
        name,
        errorResponse(Number(status), options.publicUrl),
      ]),
    ),
    headers: HEADERS,
    parameters: { IdempotencyKey: IDEMPOTENCY_KEY },
  }
  return document
}
