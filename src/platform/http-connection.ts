import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { AppError, ERROR_CODES, problemBody } from './errors.js'
import { pooledBytes } from './ids.js'

const requestIdBytes = pooledBytes()

/** A request id of our own: `req_` and 16 random base64url characters. */
export function newRequestId(): string {
  return `req_${requestIdBytes(12).toString('base64url')}`
}

/**
 * How much of a request we still read after refusing it, so the client has sent everything
 * before the connection closes (otherwise it sees EPIPE or a reset instead of our answer).
 * Beyond either bound the connection closes anyway.
 */
export const DRAIN_MAX_BYTES = 8 * 1024 * 1024
export const DRAIN_MAX_MS = 10_000

/**
 * Reads and discards the rest of a request body, up to the bounds; resolves when the client
 * has sent it all, has gone, or a bound is reached.
 */
export function drainBody(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve()
  return new Promise((resolve) => {
    let bytes = 0
    const finish = () => {
      clearTimeout(timer)
      raw.off('data', onData)
      raw.off('end', finish)
      raw.off('close', finish)
      resolve()
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > DRAIN_MAX_BYTES) finish()
    }
    const timer = setTimeout(finish, DRAIN_MAX_MS)
    raw.on('data', onData)
    raw.once('end', finish)
    raw.once('close', finish)
    raw.resume()
  })
}

/** After an answer that ends the connection: read what the client still sends, within the bounds, then close. */
function lingerThenClose(socket: Socket): void {
  const start = socket.bytesRead
  const close = () => socket.destroy()
  const timer = setTimeout(close, DRAIN_MAX_MS)
  timer.unref()
  socket.on('data', () => {
    if (socket.bytesRead - start > DRAIN_MAX_BYTES) close()
  })
  socket.once('end', close)
  socket.once('close', () => clearTimeout(timer))
  socket.end()
}

const answered = new WeakSet<Socket>()

function clientErrorProblem(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('headers_too_large', 'The request line and headers are larger than 16 KiB')
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('request_timeout', 'The request did not arrive in time')
    default:
      return new AppError('invalid_request', `The request is not well-formed HTTP/1.1 (${error.message})`)
  }
}

/**
 * Node's `clientError`: a request it could not parse (malformed framing, headers too large, too
 * slow) never reaches a route. It is answered as problem+json with a request id, like any other
 * error, and the connection lingers within the drain bounds before it closes.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection is gone; a socket already answered is still sending what we discard.
  if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return
  answered.add(socket)
  const problem = clientErrorProblem(error)
  const requestId = newRequestId()
  this.log.info({ reqId: requestId, code: problem.code, reason: error.code }, 'client error')
  // Never write into a response already under way on this connection (a pipelined request).
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent: boolean } | null })._httpMessage
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy()
    return
  }
  const body = JSON.stringify(problemBody(problem, requestId, this.publicUrl))
  socket.write(
    `HTTP/1.1 ${problem.status} ${ERROR_CODES[problem.code].title}\r\n` +
      'Content-Type: application/problem+json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  )
  lingerThenClose(socket)
}
