import { createServer, connect, type Server, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'

/** What the proxy does to the request a rule matches (once). */
export type Fault =
  /** Close the connection before the request reaches the service. */
  | 'drop-before'
  /** Let the service take the request, then close the connection before its answer gets back. */
  | 'drop-after'
  /** Hold the request: nothing is forwarded, nothing answered. */
  | 'hang'
  /** Answer as a load balancer whose upstream failed: 502, connection closed. */
  | 'bad-gateway'

interface Rule {
  matches: (head: string) => boolean
  fault: Fault
}

/** A request as the proxy saw it go by. */
export interface SeenRequest {
  method: string
  path: string
  headers: Record<string, string>
  fault: Fault | null
}

/**
 * A TCP proxy in front of the service that breaks chosen requests the way networks do. It reads
 * each request's head to match rules (one fault per rule), and logs every request and answer head.
 */
export class FaultyProxy {
  readonly requests: SeenRequest[] = []
  /** The status line and headers of every answer that got through, in order. */
  readonly answers: string[] = []
  private readonly rules: Rule[] = []
  private readonly sockets = new Set<Socket>()

  private readonly server: Server = createServer((client) => this.handle(client))

  private constructor(private readonly target: { host: string; port: number }) {}

  static async start(targetUrl: string): Promise<FaultyProxy> {
    const target = new URL(targetUrl)
    const proxy = new FaultyProxy({ host: target.hostname, port: Number(target.port) })
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve))
    return proxy
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  /** The next request whose head matches `pattern` (`POST /v1/orgs/.../catalog`) suffers `fault`. */
  inject(fault: Fault, pattern: RegExp): void {
    this.rules.push({ fault, matches: (head) => pattern.test(head) })
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  private handle(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host)
    this.sockets.add(client).add(upstream)
    let dropOnAnswer = false
    let hanging = false
    const end = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
    upstream.on('data', (chunk: Buffer) => {
      if (dropOnAnswer) return end()
      const text = chunk.toString('latin1')
      if (/^HTTP\/1\.1 \d{3}/.test(text)) this.answers.push(text.slice(0, text.indexOf('\r\n\r\n')))
      client.write(chunk)
    })
    client.on('data', (chunk: Buffer) => {
      if (hanging) return
      const text = chunk.toString('latin1')
      const line = /^([A-Z]+) (\S+) HTTP\/1\.1\r\n/.exec(text)
      if (line) {
        const head = `${line[1]} ${line[2]}`
        const index = this.rules.findIndex((rule) => rule.matches(head))
        const fault = index >= 0 ? this.rules.splice(index, 1)[0]!.fault : null
        this.requests.push({ method: line[1]!, path: line[2]!, headers: headersOf(text), fault })
        if (fault === 'drop-before') return end()
        if (fault === 'hang') {
          hanging = true
          return
        }
        if (fault === 'bad-gateway') {
          const body = 'upstream connect error'
          client.end(
            `HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
          )
          upstream.destroy()
          return
        }
        if (fault === 'drop-after') dropOnAnswer = true
      }
      upstream.write(chunk)
    })
  }
}

function headersOf(text: string): Record<string, string> {
  const blank = text.indexOf('\r\n\r\n')
  const head = blank >= 0 ? text.slice(0, blank) : text
  const headers: Record<string, string> = {}
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  return headers
}

/** A server that accepts connections and never answers: for timeouts. */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

/** An address where nothing listens (a port just released). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}
