import { Oeuvre, Page, type OrgEvent } from '@oeuvre/sdk'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../../src/platform/clock.js'
import { eventCount } from '../../../test/helpers.js'
import { credentials, LinkedClock, sandboxPartner, startService, type LiveService } from './service.js'

let service: LiveService
let clock: LinkedClock

beforeAll(async () => {
  const serverClock = new ManualClock()
  service = await startService({ clock: serverClock })
  clock = new LinkedClock(serverClock)
})
afterAll(() => service.close())

/** A partner whose client counts the list requests it sends. */
async function partnerClient() {
  const partner = await sandboxPartner(service)
  const requests: string[] = []
  const fetcher: typeof fetch = (input, init) => {
    const url = new URL(String(input))
    if (init?.method === 'GET') requests.push(`${url.pathname}${url.search}`)
    return fetch(input, init)
  }
  const oeuvre = new Oeuvre({ ...credentials(service, partner), fetch: fetcher, clock })
  const creators = async (count: number) => {
    const made = []
    for (let i = 0; i < count; i += 1)
      made.push(
        await oeuvre.creators.create(partner.orgId, {
          name: `Creator ${i}`,
          kind: 'person',
          roles: ['composer'],
          payoutCurrency: 'EUR',
        }),
      )
    return made
  }
  return { partner, oeuvre, requests, creators }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

describe('auto-pagination', () => {
  it('for await over the feed yields every event once, oldest first, fetching each page once', async () => {
    const { partner, oeuvre, requests, creators } = await partnerClient()
    await creators(20)
    const total = await eventCount(service.t.db, partner.orgId)
    const sequences: number[] = []
    for await (const event of oeuvre.events.list(partner.orgId, { limit: 7 })) sequences.push(event.sequence)
    expect(sequences).toEqual(range(1, total))
    const pages = requests.filter((request) => request.includes('/events'))
    expect(pages).toHaveLength(Math.ceil(total / 7) + (total % 7 === 0 ? 1 : 0))
    expect(new Set(pages).size).toBe(pages.length)
  })

  it('awaiting a list gives its first page, with the way to the next', async () => {
    const { partner, oeuvre, creators } = await partnerClient()
    const made = await creators(5)
    const first = await oeuvre.creators.list(partner.orgId, { limit: 2 })
    expect(first).toBeInstanceOf(Page)
    expect(first.data.map((creator) => creator.id)).toEqual([made[4]!.id, made[3]!.id])
    expect(first.hasNextPage()).toBe(true)
    expect(first.requestId).toMatch(/^req_/)
    const second = await first.nextPage()
    expect(second.data.map((creator) => creator.id)).toEqual([made[2]!.id, made[1]!.id])
    const last = await second.nextPage()
    expect(last.hasNextPage()).toBe(false)
    await expect(last.nextPage()).rejects.toThrow(RangeError)
    // Newest first, each once, across pages; from the list or from any page onwards.
    const ids = made.map((creator) => creator.id).reverse()
    expect((await oeuvre.creators.list(partner.orgId, { limit: 2 }).toArray()).map((c) => c.id)).toEqual(ids)
    const fromSecond: string[] = []
    for await (const creator of second) fromSecond.push(creator.id)
    expect(fromSecond).toEqual(ids.slice(2))
    expect((await oeuvre.creators.list(partner.orgId).toArray(3)).length).toBe(3)
    let pageCount = 0
    for await (const page of oeuvre.creators.list(partner.orgId, { limit: 2 }).pages())
      pageCount += page.data.length > 0 ? 1 : 0
    expect(pageCount).toBe(3)
  })

  it('requests the first page once however often the list is awaited or iterated', async () => {
    const { partner, oeuvre, requests } = await partnerClient()
    const list = oeuvre.members.list(partner.orgId)
    await list
    await list
    for await (const member of list) expect(member.userId).toBe(partner.owner.userId)
    expect(requests.filter((request) => request.includes('/members'))).toHaveLength(1)
  })
})

describe('oeuvre.events.poll', () => {
  it('resumes from a stored cursor across sessions and writes: every event once, in order (property)', async () => {
    type Step = { write: number } | { session: { limit: number; stopAfter: number | null } }
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.record({ write: fc.integer({ min: 0, max: 4 }) }),
      fc.record({
        session: fc.record({
          limit: fc.integer({ min: 1, max: 4 }),
          stopAfter: fc.option(fc.integer({ min: 0, max: 6 }), { nil: null }),
        }),
      }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const { partner, oeuvre, creators } = await partnerClient()
        let stored: string | undefined
        const seen: number[] = []
        const session = async (limit: number, stopAfter: number | null) => {
          const controller = new AbortController()
          let handled = 0
          for await (const event of oeuvre.events.poll(partner.orgId, {
            cursor: stored,
            onCursor: (cursor) => void (stored = cursor),
            limit,
            stopWhenIdle: true,
            signal: controller.signal,
          })) {
            seen.push(event.sequence)
            handled += 1
            // A stop asked mid-page ends the loop at the page's end, after its cursor is stored.
            if (stopAfter !== null && handled >= stopAfter) controller.abort()
          }
        }
        for (const next of steps)
          if ('write' in next) await creators(next.write)
          else await session(next.session.limit, next.session.stopAfter)
        await session(3, null)
        expect(seen).toEqual(range(1, await eventCount(service.t.db, partner.orgId)))
      }),
      { numRuns: 12 },
    )
  })

  it('waits when the feed has nothing new and then yields only what was appended since', async () => {
    const { partner, oeuvre, creators } = await partnerClient()
    const initial = await eventCount(service.t.db, partner.orgId)
    const controller = new AbortController()
    const cursors: string[] = []
    const seen: OrgEvent[] = []
    const before = clock.sleeps.length
    for await (const event of oeuvre.events.poll({
      orgId: partner.orgId,
      intervalMs: 30_000,
      signal: controller.signal,
      onCursor: (cursor) => void cursors.push(cursor),
    })) {
      seen.push(event)
      // Caught up: two writes while the poller waits for its next round.
      if (seen.length === initial) await creators(2)
      if (seen.length === initial + 2) controller.abort()
    }
    expect(seen.map((event) => event.sequence)).toEqual(range(1, initial + 2))
    expect(seen.slice(-2).map((event) => event.action)).toEqual(['creator.created', 'creator.created'])
    expect(clock.sleeps.slice(before)).toContain(30_000)
    expect(cursors.length).toBeGreaterThanOrEqual(2)
    expect(new Set(cursors).size).toBe(cursors.length)
  })

  it('filters the feed, and the cursor keeps the filters', async () => {
    const { partner, oeuvre, creators } = await partnerClient()
    await creators(3)
    let stored: string | undefined
    const actions: string[] = []
    const run = async () => {
      for await (const event of oeuvre.events.poll(partner.orgId, {
        action: 'creator.created',
        cursor: stored,
        onCursor: (cursor) => void (stored = cursor),
        stopWhenIdle: true,
      }))
        actions.push(event.action)
    }
    await run()
    await creators(1)
    await run()
    expect(actions).toEqual(Array(4).fill('creator.created'))
    await expect(oeuvre.events.list(partner.orgId, { cursor: stored })).rejects.toMatchObject({
      code: 'invalid_cursor',
    })
  })
})

describe('oeuvre.events.stream', () => {
  it('yields the feed from a cursor, then writes as they commit, and resumes after the last event handed out', async () => {
    const { partner, oeuvre, creators } = await partnerClient()
    await creators(2)
    const initial = await eventCount(service.t.db, partner.orgId)
    const controller = new AbortController()
    const seen: OrgEvent[] = []
    let stored: string | undefined
    for await (const event of oeuvre.events.stream(partner.orgId, {
      signal: controller.signal,
      onCursor: (cursor) => void (stored = cursor),
    })) {
      seen.push(event)
      // Caught up: two writes reach the open stream as they commit.
      if (seen.length === initial) await creators(2)
      if (seen.length === initial + 2) break
    }
    controller.abort()
    expect(seen.map((event) => event.sequence)).toEqual(range(1, initial + 2))
    // The last event's cursor is stored once the loop asks for more: resuming repeats it.
    expect(stored).toBeDefined()
    await creators(1)
    const again = new AbortController()
    const resumed: OrgEvent[] = []
    for await (const event of oeuvre.events.stream(partner.orgId, { cursor: stored, signal: again.signal })) {
      resumed.push(event)
      if (event.action === 'creator.created' && event.sequence === initial + 3) break
    }
    again.abort()
    expect(resumed.map((event) => event.sequence)).toEqual([initial + 2, initial + 3])
  })

  it('throws what reconnecting cannot fix: another org is a NotFoundError', async () => {
    const { oeuvre } = await partnerClient()
    const other = await sandboxPartner(service)
    const stream = oeuvre.events.stream(other.orgId)
    await expect(stream.next()).rejects.toMatchObject({ status: 404 })
  })
})
