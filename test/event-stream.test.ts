import { Agent, fetch, type Response } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOUR, ManualClock } from '../src/platform/clock.js'
import { buildTestApp, call, ownerWithOrg, type OrgAccount, type TestApp } from './helpers.js'
import { accessToken, createClient } from './partner-helpers.js'

/**
 * The org event stream over real sockets: two app instances (two nodes) on one database,
 * each with its own LISTEN connection.
 */
let a: TestApp
let b: TestApp
let baseA: string
let baseB: string
let owner: OrgAccount
let token: string
const clock = new ManualClock()
const agent = new Agent()

beforeAll(async () => {
  const env = { STREAM_MAX_PER_CLIENT: '3', STREAM_HEARTBEAT_MS: '50' }
  a = await buildTestApp({ env, clock })
  b = await buildTestApp({ env, clock, db: a.db })
  baseA = await a.app.listen({ host: '127.0.0.1', port: 0 })
  baseB = await b.app.listen({ host: '127.0.0.1', port: 0 })
  owner = await ownerWithOrg(a.app, { environment: 'sandbox' })
  const client = await createClient(a.app, owner, ['events:read'])
  token = await accessToken(a.app, client, 'events:read')
})
afterAll(async () => {
  // The test's own connections first (an aborted stream's socket included).
  await agent.destroy()
  // What the client abandoned mid-stream (aborted fetches) is not idle to Node's server, and
  // Fastify's close waits for non-idle connections: the test's client has none left to wait for.
  a.app.server.closeAllConnections()
  b.app.server.closeAllConnections()
  await b.close()
  await a.close()
})

interface Frame {
  id?: string
  event?: string
  data?: string
}

/** An open stream: its frames as they arrive (comments left out). */
class Stream {
  private buffer = ''
  readonly frames: Frame[] = []
  private waiters: (() => void)[] = []
  ended = false

  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {}

  static async open(url: string, headers: Record<string, string> = {}): Promise<Stream> {
    const abort = new AbortController()
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, ...headers },
      signal: abort.signal,
    })
    const stream = new Stream(response, abort)
    if (response.ok) void stream.read()
    return stream
  }

  private async read(): Promise<void> {
    const decoder = new TextDecoder()
    try {
      for await (const chunk of this.response.body as AsyncIterable<Uint8Array>) {
        this.buffer += decoder.decode(chunk, { stream: true })
        let end: number
        while ((end = this.buffer.indexOf('\n\n')) >= 0) {
          const block = this.buffer.slice(0, end)
          this.buffer = this.buffer.slice(end + 2)
          const frame: Frame = {}
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue
            const colon = line.indexOf(': ')
            const field = line.slice(0, colon) as keyof Frame
            frame[field] = line.slice(colon + 2)
          }
          if (Object.keys(frame).length > 0) this.frames.push(frame)
        }
        this.waiters.splice(0).forEach((wake) => wake())
      }
    } catch {
      // aborted
    }
    this.ended = true
    this.waiters.splice(0).forEach((wake) => wake())
  }

  /** Waits until `count` frames have arrived (or the stream ended). */
  async until(count: number): Promise<Frame[]> {
    while (this.frames.length < count && !this.ended) await new Promise<void>((resolve) => this.waiters.push(resolve))
    return this.frames
  }

  /** Each event with its frame's id (the cursor after it). */
  events(): { cursor: string; sequence: number; action: string }[] {
    return this.frames
      .filter((frame) => frame.event === 'org_event')
      .map((frame) => ({ ...(JSON.parse(frame.data!) as { sequence: number; action: string }), cursor: frame.id! }))
  }

  close(): void {
    this.abort.abort()
  }
}

const createCreator = async (name: string) => {
  const response = await call(a.app, {
    method: 'POST',
    url: '/api/creators',
    token: owner.token,
    body: { name, kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
  })
  expect(response.statusCode, response.body).toBe(201)
}

const poll = async (cursor?: string) =>
  (
    await call(a.app, {
      url: `/v1/orgs/${owner.orgId}/events?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      token,
    })
  ).json() as { data: { sequence: number }[]; pagination: { cursor: string } }

describe('GET /v1/orgs/:orgId/events/stream', () => {
  it('yields what a poll from its cursor yields, then each event as it commits, on another node too', async () => {
    await createCreator('Before')
    const firstCursor = (await call(a.app, { url: `/v1/orgs/${owner.orgId}/events?limit=1`, token })).json().pagination
      .cursor as string
    const fromPoll = await poll(firstCursor)
    expect(fromPoll.data.length).toBeGreaterThan(0)

    const stream = await Stream.open(`${baseB}/v1/orgs/${owner.orgId}/events/stream?cursor=${firstCursor}`)
    expect(stream.response.status).toBe(200)
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    await stream.until(fromPoll.data.length)
    expect(stream.events().map((event) => event.sequence)).toEqual(fromPoll.data.map((event) => event.sequence))

    // Written on node A, streamed by node B.
    await createCreator('Live one')
    await createCreator('Live two')
    await stream.until(fromPoll.data.length + 2)
    const events = stream.events()
    expect(events.slice(-2).map((event) => event.action)).toEqual(['creator.created', 'creator.created'])
    const all = (await poll()).data.map((event) => event.sequence)
    expect(events.map((event) => event.sequence)).toEqual(all.slice(1))
    // Each id is the cursor a poll would return after that event.
    const last = events[events.length - 1]!
    const after = await call(a.app, { url: `/v1/orgs/${owner.orgId}/events?cursor=${last.cursor}`, token })
    expect(after.statusCode, after.body).toBe(200)
    expect(after.json().data).toEqual([])
    stream.close()
  })

  it('resumes with Last-Event-ID: nothing lost, nothing repeated', async () => {
    const first = await Stream.open(`${baseA}/v1/orgs/${owner.orgId}/events/stream`)
    const before = (await poll()).data.length
    await first.until(before)
    first.close()
    const lastSeen = first.events()[before - 1]!
    await createCreator('While away 1')
    await createCreator('While away 2')
    const again = await Stream.open(`${baseB}/v1/orgs/${owner.orgId}/events/stream`, {
      'last-event-id': lastSeen.cursor,
    })
    await again.until(2)
    const all = (await poll()).data.map((event) => event.sequence)
    expect(again.events().map((event) => event.sequence)).toEqual(all.slice(before))
    again.close()
  })

  it('refuses a cursor it did not issue (400), and a client past its open streams (429)', async () => {
    const bad = await Stream.open(`${baseA}/v1/orgs/${owner.orgId}/events/stream?cursor=nonsense`)
    expect(bad.response.status).toBe(400)
    expect(((await bad.response.json()) as { code: string }).code).toBe('invalid_cursor')
    const open = [await Stream.open(`${baseA}/v1/orgs/${owner.orgId}/events/stream`)]
    open.push(await Stream.open(`${baseA}/v1/orgs/${owner.orgId}/events/stream`))
    open.push(await Stream.open(`${baseA}/v1/orgs/${owner.orgId}/events/stream`))
    const refused = await Stream.open(`${baseA}/v1/orgs/${owner.orgId}/events/stream`)
    expect(refused.response.status).toBe(429)
    expect(((await refused.response.json()) as { code: string }).code).toBe('too_many_streams')
    open.forEach((stream) => stream.close())
    // Closed streams are released: the client may open again (the counter is the node's).
    await new Promise((resolve) => setImmediate(resolve))
    for (let i = 0; i < 100 && a.services.eventStreams.hub.stats().streams > 0; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 10))
    const reopened = await Stream.open(`${baseA}/v1/orgs/${owner.orgId}/events/stream`)
    expect(reopened.response.status).toBe(200)
    reopened.close()
  })

  it('ends with token_expired once the access token has expired', async () => {
    const stream = await Stream.open(`${baseA}/v1/orgs/${owner.orgId}/events/stream`)
    await stream.until(1)
    clock.advance(HOUR + 1000)
    await stream.until(Number.MAX_SAFE_INTEGER)
    expect(stream.ended).toBe(true)
    expect(stream.frames[stream.frames.length - 1]).toMatchObject({ event: 'token_expired' })
    expect(JSON.parse(stream.frames[stream.frames.length - 1]!.data!).code).toBe('token_expired')
  })
})
