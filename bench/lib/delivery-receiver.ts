import { readdir, readFile, readlink } from 'node:fs/promises'
import http from 'node:http'
import type { Socket } from 'node:net'
import { performance } from 'node:perf_hooks'

/**
 * The scale-out drill's webhook receiver (`node --import tsx bench/lib/delivery-receiver.ts <holdMs>`):
 * answers every POST 200 after holding it `holdMs` (a receiver doing some work, and a
 * window wide enough for a concurrent duplicate to be seen overlapping), and records per
 * `X-Service-Delivery` id when each request arrived and when its answer was sent.
 *
 * Which worker process sent a request is observed, not declared: `POST /workers`
 * `{"A": pid, ...}` names the candidates; for each new connection the receiver finds
 * the client socket's inode in /proc/net/tcp and the process holding it in
 * /proc/<pid>/fd. `GET /report` answers every record. Prints `listening on <url>`.
 */

/** One request as the receiver saw it; times are epoch ms with sub-ms precision. */
export interface ReceivedRequest {
  deliveryId: string
  startMs: number
  endMs: number
  /** The worker label whose process held the connection, or "unknown". */
  worker: string
}

const holdMs = Number(process.argv[2] ?? '0')
let workers: [string, number][] = []
let serverPort = 0
const records: { deliveryId: string; startMs: number; endMs: number; worker: Promise<string> }[] = []
const socketWorker = new WeakMap<Socket, Promise<string>>()

const nowMs = () => performance.timeOrigin + performance.now()
const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0')

/** The inode of the client end of a loopback connection from `clientPort` to this server. */
async function clientInode(clientPort: number): Promise<string | null> {
  const local = `:${hexPort(clientPort)}`
  const remote = `:${hexPort(serverPort)}`
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readFile(table, 'utf8').catch(() => '')
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (fields[1]?.endsWith(local) && fields[2]?.endsWith(remote)) return fields[9] ?? null
    }
  }
  return null
}

/** The label of the candidate process holding socket `inode` among its open files. */
async function workerOf(clientPort: number): Promise<string> {
  const inode = await clientInode(clientPort)
  if (!inode) return 'unknown'
  const wanted = `socket:[${inode}]`
  for (const [label, pid] of workers) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[])
    for (const fd of fds) {
      if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) === wanted) return label
    }
  }
  return 'unknown'
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.once('end', () => resolve(body))
    request.once('error', reject)
  })
}

const server = http.createServer((request, response) => {
  const startMs = nowMs()
  if (request.method === 'POST' && request.url === '/workers') {
    void readBody(request).then((body) => {
      workers = Object.entries(JSON.parse(body) as Record<string, number>)
      response.writeHead(204).end()
    })
    return
  }
  if (request.method === 'GET' && request.url === '/report') {
    void Promise.all(records.map(async ({ worker, ...rest }) => ({ ...rest, worker: await worker }))).then(
      (report: ReceivedRequest[]) => {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(report))
      },
    )
    return
  }
  const deliveryId = String(request.headers['x-service-delivery'] ?? '')
  const worker = socketWorker.get(request.socket) ?? Promise.resolve('unknown')
  request.resume()
  request.once('end', () => {
    setTimeout(() => {
      response.once('finish', () => records.push({ deliveryId, startMs, endMs: nowMs(), worker }))
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    }, holdMs)
  })
})
server.keepAliveTimeout = 60_000
// Resolved once per connection, while it is open: its owner cannot change afterwards.
server.on('connection', (socket: Socket) =>
  socketWorker.set(socket, workers.length ? workerOf(socket.remotePort ?? 0) : Promise.resolve('unknown')),
)

process.once('SIGTERM', () => server.close(() => process.exit(0)))
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  serverPort = typeof address === 'object' && address ? address.port : 0
  process.stdout.write(`listening on http://127.0.0.1:${serverPort}\n`)
})
