import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config.js'

/** The headers a deprecated major version answers with, or null when it is not deprecated. */
export function deprecationHeaders(deprecation: Config['deprecation']): Record<string, string> | null {
  if (!deprecation) return null
  return {
    // RFC 9745: a structured-field date, Unix seconds.
    deprecation: `@${Math.floor(Date.parse(deprecation.date) / 1000)}`,
    // RFC 8594: an HTTP-date.
    sunset: new Date(deprecation.sunset).toUTCString(),
    link: `<${deprecation.link}>; rel="deprecation"; type="text/html"`,
  }
}

export function isV1Path(url: string): boolean {
  return url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?')
}

/** Every /v1 response, errors and 429s included, carries the deprecation headers once configured. */
export function registerV1Deprecation(app: FastifyInstance, deprecation: Config['deprecation']): void {
  const headers = deprecationHeaders(deprecation)
  if (!headers) return
  app.addHook('onSend', async (request, reply, payload) => {
    if (isV1Path(request.url)) reply.headers(headers)
    return payload
  })
}
