import { readFileSync } from 'node:fs'
import http from 'node:http'

/**
 * The web benchmark's floor server: the bare minimum that puts a static page and the API on
 * one origin, as the app has them. `GET /catalog-floor` answers catalog-floor.html from memory;
 * any path under `/api/` is piped to Oeuvre (OEUVRE_URL) over kept-alive connections, the
 * session cookie included, so the page reads the same JSON with the same session. Prints
 * `listening on <url>`.
 */
const target = new URL(process.env.OEUVRE_URL ?? 'http://127.0.0.1:3000')
const page = readFileSync(new URL('./catalog-floor.html', import.meta.url))
const agent = new http.Agent({ keepAlive: true })

const server = http.createServer((request, response) => {
  const url = request.url ?? '/'
  if (url.startsWith('/api/')) {
    const headers = { ...request.headers, host: target.host }
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: url, method: request.method, headers, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    upstream.on('error', (error) => response.destroy(error))
    request.pipe(upstream)
    return
  }
  if (request.method === 'GET' && url === '/catalog-floor') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' })
    response.end(page)
    return
  }
  response.writeHead(404).end()
})

const shutdown = () => {
  server.close(() => process.exit(0))
  server.closeAllConnections()
}
process.once('SIGTERM', shutdown)
process.once('SIGINT', shutdown)
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`)
})
