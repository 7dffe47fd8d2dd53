import type { LookupFunction } from 'node:net'
import { performance } from 'node:perf_hooks'
import { Agent, request } from 'undici'

export const RESPONSE_READ_LIMIT = 64 * 1024

export interface AttemptOutcome {
  kind: 'success' | 'failure' | 'gone'
  httpStatus: number | null
  latencyMs: number
  /** At most RESPONSE_READ_LIMIT bytes of the response, as text. */
  responseBody: string | null
  error: string | null
  /** The raw Retry-After header, when the receiver sent one. */
  retryAfter: string | null
}

/** A lookup that answers every name with the one address the SSRF guard checked. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }])
    else callback(null, address, family)
  }
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    const room = RESPONSE_READ_LIMIT - size
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk)
    size += Math.min(chunk.length, room)
    if (size >= RESPONSE_READ_LIMIT) {
      body.destroy()
      break
    }
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * One POST to the receiver, connected to exactly `address`: no redirects followed,
 * `timeoutMs` for the whole exchange, the response read up to 64 KiB.
 */
export async function sendAttempt(input: {
  url: URL
  address: string
  family: 4 | 6
  headers: Record<string, string>
  body: string
  timeoutMs: number
}): Promise<AttemptOutcome> {
  const agent = new Agent({
    connect: { lookup: pinnedLookup(input.address, input.family), timeout: input.timeoutMs },
    headersTimeout: input.timeoutMs,
    bodyTimeout: input.timeoutMs,
    // One connection per attempt: nothing is reused across different checked addresses.
    pipelining: 0,
  })
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  try {
    const response = await request(input.url, {
      method: 'POST',
      headers: input.headers,
      body: input.body,
      dispatcher: agent,
      signal: AbortSignal.timeout(input.timeoutMs),
    })
    const responseBody = await readLimited(response.body)
    const status = response.statusCode
    const retryAfter = response.headers['retry-after']
    const common = {
      httpStatus: status,
      latencyMs: elapsed(),
      responseBody,
      retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
    }
    if (status >= 200 && status < 300) return { kind: 'success', error: null, ...common }
    if (status === 410) return { kind: 'gone', error: 'the receiver answered 410 Gone', ...common }
    if (status >= 300 && status < 400) {
      const location = response.headers.location
      return { kind: 'failure', error: `redirects are not followed (Location: ${typeof location === 'string' ? location : 'none'})`, ...common }
    }
    return { kind: 'failure', error: `the receiver answered ${status}`, ...common }
  } catch (error) {
    const failure = error as Error & { code?: string }
    const timedOut = failure.name === 'TimeoutError' || failure.code === 'UND_ERR_HEADERS_TIMEOUT' || failure.code === 'UND_ERR_BODY_TIMEOUT' || failure.code === 'UND_ERR_CONNECT_TIMEOUT'
    return {
      kind: 'failure',
      httpStatus: null,
      latencyMs: elapsed(),
      responseBody: null,
      error: timedOut ? `no response within ${input.timeoutMs} ms` : `${failure.code ?? failure.name}: ${failure.message}`,
      retryAfter: null,
    }
  } finally {
    void agent.destroy().catch(() => undefined)
  }
}
