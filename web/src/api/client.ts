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

/** The typed client's CSRF header, for a request made outside it. */
export const csrfHeader = { [CSRF_HEADER]: '1' } as const

/**
 * For a request made outside the typed client (an upload that reports its progress): call at
 * its start; the function returned takes its answer, which gets the same watch as every other
 * (a 401 shows the login page, a 421 the wrong-region page).
 */
export function watchRequest(request: Request): (response: Response) => Promise<void> {
  const watches = [sessionWatch, regionWatch]
  for (const watch of watches) void watch.onRequest?.({ request } as never)
  return async (response) => {
    for (const watch of watches) await watch.onResponse?.({ request, response } as never)
  }
}

/** The ApiError of a non-2xx answer: its problem+json, or one made up when the body was not one. */
export function apiErrorOf(response: { status: number; statusText: string; requestId: string | null }, body: unknown) {
  return new ApiError(
    isProblem(body)
      ? body
      : {
          type: 'about:blank',
          title: response.statusText || 'Request failed',
          status: response.status,
          detail: `The service answered ${response.status} ${response.statusText}`.trim(),
          code: 'internal_error',
          requestId: response.requestId ?? '',
        },
  )
}

/** The data of a 2xx answer; otherwise throws ApiError with the problem. */
export async function unwrap<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await request
  if (response.ok) return data as T
  throw apiErrorOf(
    { status: response.status, statusText: response.statusText, requestId: response.headers.get('x-request-id') },
    error,
  )
}
