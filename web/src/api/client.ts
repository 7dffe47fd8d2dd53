import createClient, { type Middleware } from 'openapi-fetch'
import type { components, paths } from './schema'
import { regionWatch } from './wrong-region'

export type Schemas = components['schemas']
export type Problem = Schemas['Problem']

/** The header the service requires on every write the session cookie authenticates (its CSRF defence). */
const CSRF_HEADER = 'x-oeuvre-csrf'

/** An answer other than 2xx: the API's problem+json, or one made up when the body was not one. */
export class ApiError extends Error {
  readonly problem: Problem

  constructor(problem: Problem) {
    super(problem.detail)
    this.problem = problem
  }

  get status(): number {
    return this.problem.status
  }
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && 'code' in body && 'status' in body && 'detail' in body
}

const sessionListeners = new Set<(path: string) => void>()

/** Called with the request's path when the API says the session is gone (401), so the app can show the login page. */
export function onSessionLost(listener: (path: string) => void): () => void {
  sessionListeners.add(listener)
  return () => sessionListeners.delete(listener)
}

const sessionWatch: Middleware = {
  onResponse({ response, request }) {
    const path = new URL(request.url).pathname
    if (response.status === 401 && !path.startsWith('/api/auth/'))
      for (const listener of sessionListeners) listener(path)
    return undefined
  },
}

/**
 * The typed client. The session is an HttpOnly cookie the browser sends by itself; page scripts
 * never see it. Every request carries the CSRF header (only same-origin scripts can add it).
 */
export const api = createClient<paths>({
  baseUrl: window.location.origin,
  credentials: 'same-origin',
  headers: { [CSRF_HEADER]: '1' },
})
api.use(sessionWatch, regionWatch)

/** The data of a 2xx answer; otherwise throws ApiError with the problem. */
export async function unwrap<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await request
  if (response.ok) return data as T
  throw new ApiError(
    isProblem(error)
      ? error
      : {
          type: 'about:blank',
          title: response.statusText || 'Request failed',
          status: response.status,
          detail: `The service answered ${response.status} ${response.statusText}`.trim(),
          code: 'internal_error',
          requestId: response.headers.get('x-request-id') ?? '',
        },
  )
}

/** A problem's messages by field (`param`), for showing beside the fields; the rest for the form. */
export function fieldErrors(error: unknown): { fields: Record<string, string>; general: string | null } {
  if (!(error instanceof ApiError)) return { fields: {}, general: error ? String(error) : null }
  const { problem } = error
  const fields: Record<string, string> = {}
  for (const item of problem.errors ?? []) fields[item.param] ??= item.message ?? item.code
  if (problem.param && !fields[problem.param]) fields[problem.param] = problem.detail
  return { fields, general: problem.detail }
}
