import type { FastifyInstance } from 'fastify'
import Negotiator from 'negotiator'
import { AppError, ERROR_CODES, errorTypeUri, isErrorCode, type ErrorCode } from './errors.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's public base URL: problem `type` URIs and links are made from it. */
    publicUrl: string
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

// `code` spans in the one-line explanations, kept as code in the page.
const inlineCode = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>')

export function errorPage(code: ErrorCode): string {
  const { status, title, meaning, action } = ERROR_CODES[code]
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} (${code}) · Oeuvre API errors</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>Code <code>${code}</code>, HTTP status <strong>${status}</strong>.</p>
<h2>What it means</h2>
<p>${inlineCode(meaning)}</p>
<h2>What to do</h2>
<p>${inlineCode(action)}</p>
<p>Errors are RFC 9457 problem details (<code>application/problem+json</code>) with this <code>code</code>, a <code>detail</code> about your request and its <code>requestId</code>. <a href="/docs">API reference</a>.</p>
</main>
</body>
</html>
`
}

/**
 * One page per error code at `/docs/errors/<code>`, the `type` URI of its problems: HTML for
 * people, JSON when asked for (`Accept: application/json`).
 */
export function registerErrorPages(app: FastifyInstance, publicUrl: string): void {
  app.decorate('publicUrl', publicUrl)
  app.get<{ Params: { code: string } }>(
    '/docs/errors/:code',
    { schema: { hide: true }, config: { rateLimit: false } },
    async (request, reply) => {
      const code = request.params.code
      if (!isErrorCode(code)) throw new AppError('resource_missing', `No error code ${code}; see /docs/errors/`)
      reply.header('cache-control', 'public, max-age=3600')
      reply.header('vary', 'accept')
      if (new Negotiator(request.raw).mediaType(['text/html', 'application/json']) === 'application/json') {
        return { code, type: errorTypeUri(publicUrl, code), ...ERROR_CODES[code] }
      }
      return reply.type('text/html; charset=utf-8').send(errorPage(code))
    },
  )
  app.get('/docs/errors', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    const items = (Object.keys(ERROR_CODES) as ErrorCode[])
      .map(
        (code) =>
          `<li><a href="/docs/errors/${code}"><code>${code}</code></a> ${ERROR_CODES[code].status}: ${escapeHtml(ERROR_CODES[code].title)}</li>`,
      )
      .join('\n')
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Oeuvre API errors</title></head>\n<body><main><h1>Error codes</h1>\n<ul>\n${items}\n</ul></main></body>\n</html>\n`,
      )
  })
}
