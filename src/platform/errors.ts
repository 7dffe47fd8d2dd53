import { Type, type Static } from 'typebox'

/** The closed set of error codes (DESIGN section 3), each with its status and title. */
export const ERROR_CODES = {
  invalid_request: { status: 400, title: 'Invalid request' },
  parameter_missing: { status: 400, title: 'Missing parameter' },
  parameter_invalid: { status: 400, title: 'Invalid parameter' },
  parameter_unknown: { status: 400, title: 'Unknown parameter' },
  invalid_cursor: { status: 400, title: 'Invalid cursor' },
  invalid_json: { status: 400, title: 'Invalid JSON' },
  authentication_required: { status: 401, title: 'Authentication required' },
  invalid_token: { status: 401, title: 'Invalid token' },
  insufficient_scope: { status: 403, title: 'Insufficient scope' },
  forbidden: { status: 403, title: 'Forbidden' },
  production_access_pending: { status: 403, title: 'Production access pending' },
  resource_missing: { status: 404, title: 'Resource not found' },
  module_disabled: { status: 404, title: 'Module disabled' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'Conflict' },
  idempotency_key_in_use: { status: 409, title: 'Idempotency key in use' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  wrong_region: { status: 421, title: 'Wrong region' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  splits_invalid: { status: 422, title: 'Splits invalid' },
  balance_below_minimum: { status: 422, title: 'Balance below minimum' },
  nothing_to_pay: { status: 422, title: 'Nothing to pay' },
  unprocessable: { status: 422, title: 'Business rule violated' },
  invalid_state: { status: 422, title: 'Invalid state transition' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const

export type ErrorCode = keyof typeof ERROR_CODES

export interface FieldError {
  param: string
  code: string
  message?: string
}

export interface AppErrorOptions {
  param?: string
  errors?: FieldError[]
  headers?: Record<string, string>
  /** Extra members of the problem body (e.g. `scope` for insufficient_scope). */
  extra?: Record<string, unknown>
}

/** Every expected failure is an AppError; the error handler turns it into problem+json. */
export class AppError extends Error {
  readonly status: number

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: AppErrorOptions = {},
  ) {
    super(detail)
    this.status = ERROR_CODES[code].status
  }
}

export const DOCS_ERRORS_BASE = 'https://docs.oeuvre.dev/errors/'

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ enum: Object.keys(ERROR_CODES) }),
    param: Type.Optional(Type.String()),
    requestId: Type.String(),
    errors: Type.Optional(
      Type.Array(Type.Object({ param: Type.String(), code: Type.String(), message: Type.Optional(Type.String()) })),
    ),
    scope: Type.Optional(Type.String()),
    baseUrl: Type.Optional(Type.String()),
  },
  { additionalProperties: true, description: 'RFC 9457 problem details' },
)
export type Problem = Static<typeof ProblemSchema>

export function problemBody(error: AppError, requestId: string): Problem {
  const body: Problem = {
    type: DOCS_ERRORS_BASE + error.code,
    title: ERROR_CODES[error.code].title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    requestId,
  }
  if (error.options.param !== undefined) body.param = error.options.param
  if (error.options.errors !== undefined) body.errors = error.options.errors
  return { ...body, ...(error.options.extra ?? {}) }
}

export function notFound(what = 'resource'): AppError {
  return new AppError('resource_missing', `No such ${what}`)
}

export function forbidden(detail = 'Your role does not allow this action'): AppError {
  return new AppError('forbidden', detail)
}
