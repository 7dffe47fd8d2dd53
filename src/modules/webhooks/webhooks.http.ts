import type { LookupFunction } from 'node:net'
import { performance } from 'node:perf_hooks'
import type { IncomingHttpHeaders } from 'node:http'
import { Agent, type Dispatcher } from 'undici'
import type { SignedHeaders } from './webhooks.signing.js'

export const RESPONSE_READ_LIMIT = 64 * 1024
/** Pinned agents kept open at once; the least recently used is closed beyond this. */
export const DEFAULT_MAX_AGENTS = 256
/** How long an idle connection to a receiver stays open for the next attempt. */
const KEEP_ALIVE_MS = 4_000

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
    if (options.all)
      (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }])
    else callback(null, address, family)
  }
}

/**
 * Keep-alive agents, one per (URL origin, checked address), each able to connect to that
 * one address only. An attempt whose check gave another address gets another agent, so
 * a reused connection always goes where this attempt's check said it may.
 */
export interface AgentPool {
  agentFor(url: URL, address: string, family: 4 | 6): Agent
  readonly size: number
  close(): Promise<void>
}

export function createAgentPool(options: { timeoutMs: number; maxAgents?: number }): AgentPool {
  const maxAgents = options.maxAgents ?? DEFAULT_MAX_AGENTS
  // Map order is use order: the first key is the least recently used.
  const agents = new Map<string, Agent>()
  return {
    agentFor(url, address, family) {
      const key = `${url.origin} ${address}`
      let agent = agents.get(key)
      if (agent) {
        agents.delete(key)
      } else {
        agent = new Agent({
          connect: { lookup: pinnedLookup(address, family), timeout: options.timeoutMs },
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
          keepAliveTimeout: KEEP_ALIVE_MS,
          keepAliveMaxTimeout: KEEP_ALIVE_MS,
        })
        if (agents.size >= maxAgents) {
          const [oldestKey, oldest] = agents.entries().next().value as [string, Agent]
          agents.delete(oldestKey)
          // Graceful: an attempt still running on it finishes, then its connections close.
          void oldest.close().catch(() => undefined)
        }
      }
      agents.set(key, agent)
      return agent
    },
    get size() {
      return agents.size
    },
    async close() {
      const open = [...agents.values()]
      agents.clear()
      await Promise.allSettled(open.map((agent) => agent.close()))
    },
  }
}

/** PostgreSQL text cannot hold NUL; a receiver's answer may. */
function storable(text: string): string {
  return text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text
}

/** What came back: the status, the two headers the worker uses, and at most RESPONSE_READ_LIMIT bytes of the body. */
interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/** The outcome an answer makes: 2xx succeeds, 410 is gone, a redirect is a failure (never followed), anything else fails. */
function classify(answer: Answer, latencyMs: number): AttemptOutcome {
  const { status, headers } = answer
  const retryAfter = headers['retry-after']
  const common = {
    httpStatus: status,
    latencyMs,
    responseBody: answer.body,
    retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
  }
  if (status >= 200 && status < 300) return { kind: 'success', error: null, ...common }
  if (status === 410) return { kind: 'gone', error: 'the receiver answered 410 Gone', ...common }
  if (status >= 300 && status < 400) {
    const location = headers.location
    return {
      kind: 'failure',
      error: storable(`redirects are not followed (Location: ${typeof location === 'string' ? location : 'none'})`),
      ...common,
    }
  }
  return { kind: 'failure', error: `the receiver answered ${status}`, ...common }
}

/** Stops reading a response at the limit (the connection is dropped, as a receiver that never stops would hold it). */
class ReadLimitReached extends Error {}

/** Sent for the whole exchange's timeout (undici's own timeouts are per phase). */
class AttemptTimedOut extends Error {}

/** What `sendAttempt` is given: the request, the checked address it goes to, and how long it may take. */
export interface AttemptInput {
  url: URL
  address: string
  family: 4 | 6
  headers: SignedHeaders | Record<string, string>
  body: string
  timeoutMs: number
  agents?: AgentPool
}

/**
 * One POST to the receiver, connected to exactly `address`: no redirects followed,
 * `timeoutMs` for the whole exchange, the response read up to 64 KiB. With `agents`,
 * the connection is a kept-alive one to that same origin and address when there is one;
 * without, a connection of its own, closed after. Dispatched with callbacks rather than
 * through `request()`: no response stream, no promise per chunk (about half the CPU).
 */
export function sendAttempt(input: AttemptInput): Promise<AttemptOutcome> {
  const own = input.agents ? null : createAgentPool({ timeoutMs: input.timeoutMs, maxAgents: 1 })
  const agent = (input.agents ?? own!).agentFor(input.url, input.address, input.family)
  const started = performance.now()
  return new Promise((resolve) => {
    const exchange = new AttemptExchange(input.timeoutMs, started, (outcome) => {
      if (own) void own.close()
      resolve(outcome)
    })
    try {
      agent.dispatch(
        {
          origin: input.url.origin,
          path: `${input.url.pathname}${input.url.search}`,
          method: 'POST',
          // Every value of SignedHeaders is a string: no copy needed to pass it as a header record.
          headers: input.headers as Record<string, string>,
          body: input.body,
        },
        exchange.handler(),
      )
    } catch (error) {
      // An agent that cannot take the request (closed) says so by throwing.
      exchange.failed(error as Error)
    }
  })
}

/** One attempt's exchange as it goes: what the receiver answered so far, and the outcome once settled. */
class AttemptExchange {
  private controller: Dispatcher.DispatchController | null = null
  private status = 0
  private headers: IncomingHttpHeaders = {}
  private readonly chunks: Buffer[] = []
  private size = 0
  private settled = false
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly timeoutMs: number,
    private readonly started: number,
    private readonly done: (outcome: AttemptOutcome) => void,
  ) {
    // One plain timer for the whole exchange (AbortSignal.timeout costs several times more, and lives on for the full timeout).
    this.timer = setTimeout(() => {
      const timedOut = new AttemptTimedOut(`no response within ${timeoutMs} ms`)
      this.failed(timedOut)
      this.controller?.abort(timedOut)
    }, timeoutMs)
  }

  private settle(outcome: AttemptOutcome): void {
    if (this.settled) return
    this.settled = true
    clearTimeout(this.timer)
    this.done(outcome)
  }

  private answered(): void {
    const chunks = this.chunks
    const body = storable(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'))
    this.settle(
      classify({ status: this.status, headers: this.headers, body }, Math.round(performance.now() - this.started)),
    )
  }

  failed(error: Error & { code?: string }): void {
    const late =
      error instanceof AttemptTimedOut ||
      error.code === 'UND_ERR_HEADERS_TIMEOUT' ||
      error.code === 'UND_ERR_BODY_TIMEOUT' ||
      error.code === 'UND_ERR_CONNECT_TIMEOUT'
    this.settle({
      kind: 'failure',
      httpStatus: null,
      latencyMs: Math.round(performance.now() - this.started),
      responseBody: null,
      error: late
        ? `no response within ${this.timeoutMs} ms`
        : storable(`${error.code ?? error.name}: ${error.message}`),
      retryAfter: null,
    })
  }

  /** The callbacks undici calls as the exchange goes. */
  handler(): Dispatcher.DispatchHandler {
    return {
      onRequestStart: (started) => {
        this.controller = started
        // Timed out while waiting for a connection: never sent.
        if (this.settled) started.abort(new AttemptTimedOut(`no response within ${this.timeoutMs} ms`))
      },
      onResponseStart: (_controller, statusCode, responseHeaders) => {
        this.status = statusCode
        this.headers = responseHeaders
      },
      onResponseData: (current, chunk) => {
        if (this.settled) return
        const room = RESPONSE_READ_LIMIT - this.size
        this.chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk)
        this.size += Math.min(chunk.length, room)
        if (this.size >= RESPONSE_READ_LIMIT) {
          this.answered()
          current.abort(new ReadLimitReached('response read limit reached'))
        }
      },
      onResponseEnd: () => this.answered(),
      onResponseError: (_controller, error) => this.failed(error),
    }
  }
}
