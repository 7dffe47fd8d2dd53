import { Type, type Static } from 'typebox'
import { component } from './openapi-components.js'

/**
 * The closed set of error codes (served at /docs/errors/{code}; docs/decisions.md, "HTTP"): each with its status, title, what it means
 * and what to do. The problem `type` of each is a page under /docs/errors/ made from this table.
 */
export const ERROR_CODES = {
  invalid_request: {
    status: 400,
    title: 'Invalid request',
    meaning: 'The request is malformed in a way no more specific code covers (a header, the URL, the framing).',
    action: 'Read `detail`, correct the request and send it again.',
  },
  parameter_missing: {
    status: 400,
    title: 'Missing parameter',
    meaning: 'A required body field, query or path parameter is absent; `param` names the first.',
    action: 'Add every parameter listed in `errors`.',
  },
  parameter_invalid: {
    status: 400,
    title: 'Invalid parameter',
    meaning: 'A parameter has the wrong type, format, length or range; `param` names the first.',
    action: 'Correct every parameter listed in `errors` as the API reference describes it.',
  },
  parameter_unknown: {
    status: 400,
    title: 'Unknown parameter',
    meaning: 'The request carries a field or query parameter this operation does not accept.',
    action: 'Remove the parameter named in `param`, or check its spelling.',
  },
  invalid_cursor: {
    status: 400,
    title: 'Invalid cursor',
    meaning: 'The `cursor` was not issued by this service, or was issued for other filters.',
    action: 'Pass the previous page’s cursor unchanged with the same filters, or start again without it.',
  },
  invalid_json: {
    status: 400,
    title: 'Invalid JSON',
    meaning: 'The body is not valid JSON, or is empty where a JSON object is expected.',
    action: 'Send a well-formed JSON object with `Content-Type: application/json`.',
  },
  authentication_required: {
    status: 401,
    title: 'Authentication required',
    meaning: 'The operation needs credentials and the request carried none.',
    action: 'Send `Authorization: Bearer <token>`: a session token on /api, an access token on /v1.',
  },
  invalid_token: {
    status: 401,
    title: 'Invalid token',
    meaning: 'The bearer token is malformed, unknown, expired or revoked, or of the wrong kind for this surface.',
    action: 'Log in again (/api), or request a new access token from /oauth/token (/v1).',
  },
  insufficient_scope: {
    status: 403,
    title: 'Insufficient scope',
    meaning: 'The access token was not granted the scope this operation needs; `scope` names it.',
    action: 'Request a token with that scope (the client must be allowed it).',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    meaning: 'Your role in the org does not allow this action, or the session has no active org.',
    action: 'Ask an owner or admin for a role that allows it, or switch the active org.',
  },
  production_access_pending: {
    status: 403,
    title: 'Production access pending',
    meaning: 'Production credentials are not issued until the partner onboarding review has passed.',
    action: 'Integrate against a sandbox org (create one with `"environment": "sandbox"`) until then.',
  },
  csrf_failed: {
    status: 403,
    title: 'Cross-site request refused',
    meaning:
      'A write authenticated by the web app’s session cookie lacked the `X-Oeuvre-CSRF` header or came from another origin.',
    action: 'Send writes from the app itself, or use `Authorization: Bearer <token>` outside a browser.',
  },
  resource_missing: {
    status: 404,
    title: 'Resource not found',
    meaning: 'No such record or route, or it belongs to an org you cannot see (existence is never revealed).',
    action: 'Check the id, the org in the path and the token’s org.',
  },
  module_disabled: {
    status: 404,
    title: 'Module disabled',
    meaning: 'The feature this route belongs to is turned off for the org.',
    action: 'Ask the org’s owner to enable it.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    meaning: 'The path exists, but not with this HTTP method.',
    action: 'Use one of the methods listed in the `Allow` header.',
  },
  request_timeout: {
    status: 408,
    title: 'Request timeout',
    meaning: 'The request (its line and headers) did not arrive in time; the connection was closed.',
    action: 'Send the whole request promptly; check for a proxy or network that stalls it.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    meaning: 'The request conflicts with the current state: a duplicate, or a record changed meanwhile.',
    action: 'Read `detail`, fetch the record and decide whether to send the request again.',
  },
  idempotency_key_in_use: {
    status: 409,
    title: 'Idempotency key in use',
    meaning: 'A request with the same `Idempotency-Key` is still running.',
    action: 'Retry after `Retry-After` seconds with the same key and the same body.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    meaning: 'The request body is larger than 1 MiB.',
    action: 'Send a smaller body; split a large batch into several requests.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    meaning: 'The body’s `Content-Type` is not one this operation accepts.',
    action: 'Send `application/json` (`application/x-www-form-urlencoded` to /oauth/token only).',
  },
  wrong_region: {
    status: 421,
    title: 'Wrong region',
    meaning: 'The org or request belongs to another region’s deployment.',
    action: 'Send the request to the base URL in `baseUrl`.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused',
    meaning: 'The `Idempotency-Key` was used before with a different request.',
    action: 'Use a new key for a new request; reuse a key only to retry the same request.',
  },
  splits_invalid: {
    status: 422,
    title: 'Splits invalid',
    meaning: 'The splits name creators this org does not have, or their shares do not sum to 10000 basis points.',
    action: 'Correct the splits listed in `errors` so that `shareBps` sums to exactly 10000.',
  },
  balance_below_minimum: {
    status: 422,
    title: 'Balance below minimum',
    meaning: 'The payable amount is below the creator’s minimum payout in that currency.',
    action: 'Wait until more revenue is allocated to the creator, or lower their minimum.',
  },
  nothing_to_pay: {
    status: 422,
    title: 'Nothing to pay',
    meaning: 'The creator has no positive unpaid balance in that currency.',
    action: 'Check the creator and the currency; there is nothing to pay out.',
  },
  unprocessable: {
    status: 422,
    title: 'Business rule violated',
    meaning: 'The request is well-formed but breaks a business rule; `detail` says which.',
    action: 'Read `detail` and `param`, change the request and send it again.',
  },
  invalid_state: {
    status: 422,
    title: 'Invalid state transition',
    meaning: 'The record’s status does not allow this action (for example paying a canceled payout).',
    action: 'Fetch the record and request only the transitions its `status` allows.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    meaning: 'The caller used up its rate limit for the moment.',
    action: 'Wait `Retry-After` seconds; pace requests by `X-RateLimit-Remaining` and `X-RateLimit-Reset`.',
  },
  too_many_streams: {
    status: 429,
    title: 'Too many open streams',
    meaning: 'This client already holds as many open event streams as it may (STREAM_MAX_PER_CLIENT).',
    action: 'Close a stream you no longer read, or share one stream per org among your consumers.',
  },
  headers_too_large: {
    status: 431,
    title: 'Request headers too large',
    meaning: 'The request line and headers together are larger than the server accepts (16 KiB).',
    action: 'Send fewer or shorter headers (cookies, long tokens) and a shorter URL.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    meaning: 'Something failed on our side; the request itself may be fine.',
    action: 'Retry later (with the same `Idempotency-Key` for a write); quote `requestId` to support if it persists.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    meaning: 'The service cannot reach what it depends on (its database) right now.',
    action: 'Retry after `Retry-After` seconds; the service recovers by itself.',
  },
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

/** The page that explains a code, and the problem `type` of its errors. */
export function errorTypeUri(publicUrl: string, code: ErrorCode): string {
  return `${publicUrl}/docs/errors/${code}`
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CODES, value)
}

export const ProblemSchema = component(
  'Problem',
  Type.Object(
    {
      type: Type.String({ format: 'uri', description: 'A page about the code: {PUBLIC_URL}/docs/errors/{code}' }),
      title: Type.String({ description: 'The code’s title' }),
      status: Type.Integer({ description: 'The HTTP status' }),
      detail: Type.String({ description: 'What was wrong with this request, for people' }),
      code: Type.String({ enum: Object.keys(ERROR_CODES), description: 'Stable and machine-readable' }),
      param: Type.Optional(Type.String({ description: 'The parameter at fault (the first, when several are)' })),
      requestId: Type.String({ description: 'The request’s id, as in X-Request-Id; quote it to support' }),
      errors: Type.Optional(
        Type.Array(Type.Object({ param: Type.String(), code: Type.String(), message: Type.Optional(Type.String()) }), {
          description: 'Every parameter at fault',
        }),
      ),
      scope: Type.Optional(Type.String({ description: 'insufficient_scope: the scope the operation needs' })),
      baseUrl: Type.Optional(Type.String({ description: 'wrong_region: the base URL of the org’s region' })),
    },
    { additionalProperties: true, description: 'RFC 9457 problem details' },
  ),
)
export type Problem = Static<typeof ProblemSchema>

/** The problem+json body of an error; `publicUrl` is the base of its `type` page. */
export function problemBody(error: AppError, requestId: string, publicUrl: string): Problem {
  const body: Problem = {
    type: errorTypeUri(publicUrl, error.code),
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
