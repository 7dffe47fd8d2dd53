import type { Middleware } from 'openapi-fetch'

/** A 421 `wrong_region` answer: what was asked for belongs to another region's deployment (docs/residency.md). */
export interface WrongRegion {
  /** The region it belongs to, and that deployment's base URL when this deployment knows it. */
  region: string | null
  baseUrl: string | null
  /** The region this deployment serves (its `Oeuvre-Region` header). */
  servedRegion: string | null
  detail: string
  requestId: string | null
  /** The app's page (path and query) whose request was refused. */
  page: string
}

let current: WrongRegion | null = null
const subscribers = new Set<() => void>()

/** The latest 421 the API answered, for `useSyncExternalStore`. */
export const wrongRegionStore = {
  subscribe(subscriber: () => void): () => void {
    subscribers.add(subscriber)
    return () => subscribers.delete(subscriber)
  },
  snapshot: (): WrongRegion | null => current,
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

/** The app's page each request was made from: a late answer belongs to the page that asked, not the one shown now. */
const askedFrom = new WeakMap<Request, string>()

/** Watches every answer: a 421 wrong_region is kept (with the page that asked) for the app to explain. */
export const regionWatch: Middleware = {
  onRequest({ request }) {
    askedFrom.set(request, window.location.pathname + window.location.search)
    return undefined
  },
  async onResponse({ request, response }) {
    if (response.status !== 421) return undefined
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => null)
    if (typeof body !== 'object' || body === null || (body as { code?: unknown }).code !== 'wrong_region')
      return undefined
    const problem = body as Record<string, unknown>
    current = {
      region: stringOrNull(problem.region),
      baseUrl: stringOrNull(problem.baseUrl),
      servedRegion: response.headers.get('oeuvre-region'),
      detail: stringOrNull(problem.detail) ?? 'This belongs to another region.',
      requestId: stringOrNull(problem.requestId),
      page: askedFrom.get(request) ?? window.location.pathname + window.location.search,
    }
    for (const subscriber of subscribers) subscriber()
    return undefined
  },
}

/**
 * The same page at the other region's deployment, or null when its base URL is unknown or not a
 * web address (it comes from the server's configuration; a link is never made to anything else).
 */
export function pageInRegion(baseUrl: string | null, page: string): string | null {
  if (baseUrl === null) return null
  try {
    const base = new URL(baseUrl)
    if (base.protocol !== 'https:' && base.protocol !== 'http:') return null
    return `${base.origin}${base.pathname.replace(/\/+$/, '')}${page}`
  } catch {
    return null
  }
}
