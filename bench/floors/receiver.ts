import http from 'node:http'

/**
 * The webhook receiver of the webhooks scenario: answers every POST 200 at once, and
 * GET /count with how many POSTs it received. Prints `listening on <url>`.
 */
let received = 0
const server = http.createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/count') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received }))
    return
  }
  request.resume()
  request.once('end', () => {
    received += 1
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
  })
})
server.keepAliveTimeout = 60_000

process.once('SIGTERM', () => server.close(() => process.exit(0)))
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`)
})
