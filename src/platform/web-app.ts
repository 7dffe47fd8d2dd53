import { stat } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fastifyStatic from '@fastify/static'
import { MAX_PARAM_LENGTH } from './http.js'

/** Where `npm run web:build` writes the app: web/dist at the repository root (from src/ and from dist/). */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url))

/** Paths that belong to the service, never to the app: they keep their problem+json 404s and 405s. */
const SERVICE_PREFIXES = [
  '/api',
  '/v1',
  '/oauth',
  '/.well-known',
  '/docs',
  '/openapi.json',
  '/healthz',
  '/readyz',
  '/metrics',
]

export function isServicePath(pathname: string): boolean {
  return SERVICE_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
}

/**
 * The page's own policy: scripts and connections to this origin only, no framing. Inline styles
 * stay allowed because the dialog primitive injects a <style> element while it locks scrolling.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ')

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Oeuvre</title></head>
<body><main><h1>The web app is not built</h1>
<p>Run <code>npm run web:build</code> (or start the service with <code>npm start</code>, which builds it), then reload.
The API is served under <a href="/docs">/docs</a>.</p></main></body></html>
`

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile()
  } catch {
    return false
  }
}

/**
 * Serves the built web app at `/`: hashed files under /assets/ are cached for a year, every other
 * file is revalidated, and any other GET outside the service's paths answers the app's index.html,
 * whose router draws the page (so /catalog/cat_... can be reloaded and shared).
 */
export async function registerWebApp(app: FastifyInstance, root: string = WEB_DIST_DIR): Promise<void> {
  const absoluteRoot = path.resolve(root)
  // The build writes .br and .gz beside each file; they are sent to clients that accept them.
  await app.register(fastifyStatic, { root: absoluteRoot, serve: false, preCompressed: true })

  const sendIndex = async (reply: FastifyReply) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY)
    reply.header('x-content-type-options', 'nosniff')
    reply.header('referrer-policy', 'same-origin')
    if (!(await isFile(path.join(absoluteRoot, 'index.html')))) {
      return reply.code(503).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_BUILT_PAGE)
    }
    reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding')
    return reply.sendFile('index.html', { cacheControl: false })
  }

  app.get(
    '/*',
    {
      schema: { hide: true },
      // The app's files are not rate limited; an unknown service path is, as every service request.
      config: { auth: 'none', rateLimit: (request) => isServicePath(request.url.split('?')[0] ?? '/') },
    },
    async (request, reply) => {
      const raw = request.url.split('?')[0] ?? '/'
      if (isServicePath(raw)) {
        // This wildcard also takes a service path the router refuses (a parameter over its length): refuse it alike.
        if (raw.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH))
          throw Object.assign(new Error('path parameter too long'), {
            code: 'FST_ERR_MAX_PARAM_LENGTH',
            statusCode: 400,
          })
        return reply.callNotFound()
      }
      let pathname: string
      try {
        pathname = decodeURIComponent(raw)
      } catch {
        // Not a path any file or page has (a malformed %-escape): the app's router shows its not-found.
        return sendIndex(reply)
      }
      if (isServicePath(pathname)) return reply.callNotFound()
      const segments = pathname.split('/').filter((segment) => segment !== '')
      // No dot-files, no climbing out of the root.
      const servable = segments.every((segment) => !segment.startsWith('.') && !segment.includes('\\'))
      const file = path.join(absoluteRoot, ...segments)
      if (servable && segments.length > 0 && file.startsWith(absoluteRoot + path.sep) && (await isFile(file))) {
        const relative = segments.join('/')
        if (relative === 'index.html') return sendIndex(reply)
        reply.header('x-content-type-options', 'nosniff').header('vary', 'accept-encoding')
        // Vite names what it puts in assets/ by content hash: a changed file is a new name.
        if (segments[0] === 'assets') return reply.sendFile(relative, { maxAge: '365d', immutable: true })
        reply.header('cache-control', 'no-cache')
        return reply.sendFile(relative, { cacheControl: false })
      }
      // A missing script or stylesheet must not be answered with HTML.
      if (segments[0] === 'assets') return reply.callNotFound()
      return sendIndex(reply)
    },
  )
}
