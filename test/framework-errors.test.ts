import { execFile } from 'node:child_process'
import http from 'node:http'
import net from 'node:net'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DRAIN_MAX_BYTES } from '../src/platform/http-connection.js'
import { buildTestApp, eventCount, ownerWithOrg, type OrgAccount, type TestApp } from './helpers.js'

/**
 * What the router and Node's HTTP parser refuse before any route runs, over real sockets:
 * every answer is problem+json with X-Request-Id, and a body too large is answered, not reset.
 */
let t: TestApp
let owner: OrgAccount
let baseUrl: string
let port: number

beforeAll(async () => {
  t = await buildTestApp()
  owner = await ownerWithOrg(t.app)
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 })
  port = Number(new URL(baseUrl).port)
})
afterAll(() => t.close())

interface Answer {
  status: number
  headers: Record<string, string>
  body: string
}

/** Sends raw bytes and reads until the server closes the connection. */
function rawExchange(request: string | Buffer, onConnect?: (socket: net.Socket) => void): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      onConnect?.(socket)
      socket.write(request)
    })
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', body = ''] = text.split('\r\n\r\n', 2)
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      )
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body })
    })
  })
}

/** An ordinary Node client: http.request, the body written in one go, no special handling. */
function nodeRequest(
  path: string,
  body: Buffer | null,
  headers: Record<string, string | number> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path, method: body ? 'POST' : 'GET', headers, agent: false },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers as Record<string, string>,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body ?? undefined)
  })
}

function expectProblemAnswer(answer: Answer, status: number, code: string): Record<string, unknown> {
  expect(answer.status, answer.body).toBe(status)
  expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/)
  expect(answer.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9_-]{16}$/)
  const body = JSON.parse(answer.body) as Record<string, unknown>
  expect(body).toMatchObject({ status, code, requestId: answer.headers['x-request-id'] })
  expect(body.type).toBe(`${t.config.publicUrl}/docs/errors/${code}`)
  return body
}

const session = () => ({ authorization: `Bearer ${owner.token}` })

describe('errors the router raises', () => {
  it('answers an over-long path parameter with 400 parameter_invalid naming it', async () => {
    const answer = await nodeRequest(`/api/catalog/${'c'.repeat(300)}`, null, session())
    expect(expectProblemAnswer(answer, 400, 'parameter_invalid').param).toBe('id')
    const partner = await nodeRequest(`/v1/orgs/${'o'.repeat(101)}/catalog`, null)
    expect(expectProblemAnswer(partner, 400, 'parameter_invalid').param).toBe('orgId')
  })

  it('answers bad percent-encoding with 400: naming the parameter, or the path when no route has one there', async () => {
    // A lone surrogate can only travel as its (invalid) UTF-8 bytes: %ED%A0%80.
    for (const segment of ['%ED%A0%80', 'x%E0%A4%A', '%C0%AF', '%FF']) {
      const answer = await nodeRequest(`/api/catalog/${segment}`, null, session())
      expect(expectProblemAnswer(answer, 400, 'parameter_invalid').param).toBe('id')
    }
    const staticPart = await nodeRequest('/api/cat%E0%A4%Alog', null, session())
    expectProblemAnswer(staticPart, 400, 'invalid_request')
  })
})

describe("errors Node's HTTP parser raises", () => {
  it('answers headers too large with 431 headers_too_large', async () => {
    const answer = await nodeRequest('/api/me', null, { ...session(), 'x-padding': 'p'.repeat(32 * 1024) })
    expectProblemAnswer(answer, 431, 'headers_too_large')
    expect(answer.headers.connection).toBe('close')
  })

  it('answers malformed framing with 400 invalid_request', async () => {
    const malformed = [
      'GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: twelve\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
      'G\u0001T /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n',
      'GET /healthz HTTP/9\r\n\r\n',
    ]
    for (const request of malformed) {
      expectProblemAnswer(await rawExchange(request), 400, 'invalid_request')
    }
  })

  it('answers a request that did not arrive in time with 408 request_timeout', async () => {
    // Node raises this after its headers timeout (60 s); the handler is driven with the error it would raise.
    const serverSocket = new Promise<net.Socket>((resolve) => t.app.server.once('connection', resolve))
    const answer = rawExchange('GET /healthz HTTP/1.1\r\nHost: x\r\n', () => {
      void serverSocket.then((socket) => {
        const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' })
        setTimeout(() => t.app.server.emit('clientError', timeout, socket), 20)
      })
    })
    expectProblemAnswer(await answer, 408, 'request_timeout')
  })
})

/**
 * An ordinary client in a process of its own (in this process, the client reads the answer
 * between the server's steps and the race never shows): `http.request` or `fetch` posts a body
 * of `size` bytes `times` times; each outcome is printed as one JSON line.
 */
const LARGE_BODY_CLIENT = `
import http from 'node:http'
const [url, size, times, token] = process.argv.slice(1)
const body = Buffer.alloc(Number(size), 'a')
const headers = { 'content-type': 'application/json', authorization: 'Bearer ' + token }
const answer = (status, get, text) => ({ status, type: get('content-type'), requestId: get('x-request-id'), body: JSON.parse(text) })
const viaHttp = () => new Promise((resolve) => {
  const request = http.request(url, { method: 'POST', headers: { ...headers, 'content-length': body.length } }, (response) => {
    let text = ''
    response.on('data', (chunk) => (text += chunk))
    response.on('end', () => resolve(answer(response.statusCode, (name) => response.headers[name], text)))
    response.on('error', (error) => resolve({ error: error.code ?? error.message }))
  })
  request.on('error', (error) => resolve({ error: error.code ?? error.message }))
  request.end(body)
})
const viaFetch = async () => {
  try {
    const response = await fetch(url, { method: 'POST', headers, body })
    return answer(response.status, (name) => response.headers.get(name), await response.text())
  } catch (error) {
    return { error: error.cause?.code ?? error.message }
  }
}
for (let attempt = 0; attempt < Number(times); attempt += 1) {
  console.log(JSON.stringify({ client: 'http.request', ...(await viaHttp()) }))
  console.log(JSON.stringify({ client: 'fetch', ...(await viaFetch()) }))
}
`

async function postLargeBodies(path: string, size: number, times: number): Promise<Record<string, unknown>[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', LARGE_BODY_CLIENT, `${baseUrl}${path}`, String(size), String(times), owner.token],
    { maxBuffer: 1024 * 1024 },
  )
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe('a body larger than 1 MiB from an ordinary client', () => {
  // 2 MiB, and a size past what the sockets' buffers absorb here (where the reset showed without draining).
  it.each([2, 6])(
    'is answered 413 five times out of five at %i MiB, by http.request and fetch, writing nothing',
    async (mib) => {
      const before = await eventCount(t.db, owner.orgId)
      const outcomes = await postLargeBodies('/api/catalog', mib * 1024 * 1024, 5)
      expect(outcomes).toHaveLength(10)
      for (const outcome of outcomes) {
        expect(outcome).toMatchObject({ status: 413, type: expect.stringMatching(/^application\/problem\+json/) })
        expect(outcome.body).toMatchObject({ code: 'payload_too_large', requestId: outcome.requestId })
      }
      expect(await eventCount(t.db, owner.orgId)).toBe(before)
    },
  )

  it('is answered in RFC 6749 form at the token endpoint (400 invalid_request, as section 5.2 has it)', async () => {
    for (const outcome of await postLargeBodies('/oauth/token', 6 * 1024 * 1024, 2)) {
      expect(outcome).toMatchObject({
        status: 400,
        body: { error: 'invalid_request', error_description: 'Request bodies are limited to 1 MiB' },
      })
    }
  })

  it('is answered 413 when sent chunked, without a length', async () => {
    const twoMiB = Buffer.alloc(2 * 1024 * 1024, 'a')
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const chunks = [twoMiB.subarray(0, 1024 * 1024), twoMiB.subarray(1024 * 1024)]
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift()
          if (next) controller.enqueue(next)
          else controller.close()
        },
      })
      const response = await fetch(`${baseUrl}/api/catalog`, {
        method: 'POST',
        headers: { ...session(), 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit)
      expectProblemAnswer(
        { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() },
        413,
        'payload_too_large',
      )
    }
  })

  it('is not read without bound: past the drain bound the connection closes', async () => {
    const started = Date.now()
    const closed = await new Promise<{ written: number }>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          `POST /api/catalog HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${owner.token}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${64 * DRAIN_MAX_BYTES}\r\n\r\n`,
        )
        const chunk = Buffer.alloc(64 * 1024, 'a')
        const pump = () => {
          while (!socket.destroyed && written < 64 * DRAIN_MAX_BYTES) {
            written += chunk.length
            if (!socket.write(chunk)) return void socket.once('drain', pump)
          }
        }
        pump()
      })
      let written = 0
      socket.on('error', () => socket.destroy())
      socket.on('close', () => resolve({ written }))
    })
    expect(closed.written).toBeLessThan(64 * DRAIN_MAX_BYTES)
    expect(Date.now() - started).toBeLessThan(15_000)
  })
})
