import net from 'node:net'

/**
 * The webhook receiver of the webhooks scenario: answers every POST `200 ok` at once over
 * keep-alive connections, and GET /count with how many POSTs it received and how many
 * connections it accepted. Prints `listening on <url>`.
 *
 * HTTP/1.1 is read by hand (request head up to the blank line, then Content-Length bytes
 * of body): node's http server costs about 60 µs of CPU a request, which on the two cores
 * both sides share made it the floor's bottleneck; this costs a fraction of that, so each
 * side is measured by what its own client does.
 */
let received = 0
let connections = 0
const OK = Buffer.from(
  'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nkeep-alive: timeout=60\r\n\r\nok',
)
const HEAD_END = Buffer.from('\r\n\r\n')
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i

function counts(): Buffer {
  const body = JSON.stringify({ received, connections })
  return Buffer.from(
    `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

const server = net.createServer((socket) => {
  connections += 1
  socket.setNoDelay(true)
  let unread: Buffer | null = null
  // Body bytes of the current request still to come.
  let bodyLeft = 0
  socket.on('data', (chunk: Buffer) => {
    const data = unread ? Buffer.concat([unread, chunk]) : chunk
    unread = null
    const answers: Buffer[] = []
    let offset = 0
    while (offset < data.length) {
      if (bodyLeft > 0) {
        const taken = Math.min(bodyLeft, data.length - offset)
        bodyLeft -= taken
        offset += taken
        if (bodyLeft === 0) answers.push(OK)
        continue
      }
      const end = data.indexOf(HEAD_END, offset)
      if (end < 0) {
        unread = data.subarray(offset)
        break
      }
      const head = data.toString('latin1', offset, end)
      offset = end + HEAD_END.length
      if (head.startsWith('GET /count ')) {
        answers.push(counts())
        continue
      }
      received += 1
      bodyLeft = Number(CONTENT_LENGTH.exec(head)?.[1] ?? 0)
      if (bodyLeft === 0) answers.push(OK)
    }
    if (answers.length > 0) socket.write(answers.length === 1 ? answers[0]! : Buffer.concat(answers))
  })
  // A client that goes away mid-request is not the receiver's problem.
  socket.on('error', () => undefined)
})

process.once('SIGTERM', () => process.exit(0))
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`)
})
