import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  ownerWithOrg,
  type OrgAccount,
  type TestApp,
} from './helpers.js'

/**
 * A new label's first statement run, over HTTP, with every figure recomputed here
 * independently of the service's code and matched to the micro-unit.
 */

let t: TestApp
let label: OrgAccount
let rival: OrgAccount

beforeAll(async () => {
  t = await buildTestApp()
  label = await ownerWithOrg(t.app, { name: 'Night Owl Records' })
  rival = await ownerWithOrg(t.app, { name: 'Rival Records' })
})
afterAll(() => t.close())

// Independent arithmetic: decimal strings <-> micro-units, largest remainder, rounding down.
const toMicros = (text: string): bigint => {
  const match = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(text)
  if (!match) throw new Error(`not a decimal: ${text}`)
  const value = BigInt(match[2]!) * 1_000_000n + BigInt((match[3] ?? '').padEnd(6, '0'))
  return match[1] ? -value : value
}
const CENT = 10_000n
function largestRemainder(amount: bigint, shares: [string, number][]): Map<string, bigint> {
  const sign = amount < 0n ? -1n : 1n
  const magnitude = amount * sign
  const parts = shares.map(([id, bps]) => ({
    id,
    bps,
    floor: (magnitude * BigInt(bps)) / 10000n,
    rem: (magnitude * BigInt(bps)) % 10000n,
  }))
  let left = magnitude - parts.reduce((sum, part) => sum + part.floor, 0n)
  const order = [...parts].sort((a, b) =>
    a.rem !== b.rem ? (a.rem > b.rem ? -1 : 1) : a.bps !== b.bps ? b.bps - a.bps : a.id < b.id ? -1 : 1,
  )
  for (const part of order) if (left-- > 0n) part.floor += 1n
  return new Map(parts.map((part) => [part.id, part.floor * sign]))
}

type Json = Record<string, unknown> & { id: string }
const post = async (url: string, body: unknown, token = label.token): Promise<Json> => {
  const response = await call(t.app, { method: 'POST', url, token, body })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

describe('walkthrough: from catalog to payouts, exact to the micro-unit', () => {
  it('allocates, reverses, deduplicates and pays exactly what was earned', async () => {
    // 1. Creators and catalog entries with splits.
    const ada = await post('/api/creators', {
      name: 'Ada Moreau',
      kind: 'person',
      roles: ['artist', 'composer'],
      payoutCurrency: 'EUR',
      ipi: '00052210040',
    })
    const ben = await post('/api/creators', {
      name: 'Ben Okafor',
      kind: 'person',
      roles: ['lyricist', 'producer'],
      payoutCurrency: 'EUR',
    })
    const cleo = await post('/api/creators', {
      name: 'Cleo Park',
      kind: 'person',
      roles: ['composer'],
      payoutCurrency: 'USD',
      isni: '0000 0001 2281 955X',
    })
    const workSplit: [string, number][] = [
      [ada.id, 5000],
      [ben.id, 3000],
      [cleo.id, 2000],
    ]
    const recordingSplit: [string, number][] = [
      [ada.id, 6667],
      [ben.id, 3333],
    ]
    const work = await post('/api/catalog', {
      kind: 'work',
      title: 'Midnight Train',
      identifiers: { iswc: 'T-034.524.680-1' },
      splits: [
        { creatorId: ada.id, role: 'composer', shareBps: 5000 },
        { creatorId: ben.id, role: 'lyricist', shareBps: 3000 },
        { creatorId: cleo.id, role: 'composer', shareBps: 2000 },
      ],
    })
    const recording = await post('/api/catalog', {
      kind: 'recording',
      title: 'Midnight Train',
      displayArtist: 'Ada Moreau',
      identifiers: { isrc: 'fr-z03-26-00012' },
      workId: work.id,
      splits: [
        { creatorId: ada.id, role: 'artist', shareBps: 6667 },
        { creatorId: ben.id, role: 'producer', shareBps: 3333 },
      ],
    })
    expect((recording.identifiers as { isrc: string }).isrc).toBe('FRZ032600012')

    // 2. Revenue in two currencies, sub-cent amounts included.
    const line = {
      source: 'Streamify',
      type: 'stream',
      periodStart: '2026-09-01',
      periodEnd: '2026-09-30',
      territory: 'FR',
      units: 1,
    }
    const lines: { body: Record<string, unknown>; split: [string, number][] }[] = [
      {
        body: {
          ...line,
          isrc: 'FRZ032600012',
          amount: '1234.567891',
          currency: 'EUR',
          statementRef: 'SF-2026-09',
          lineRef: '1',
          units: 301_234,
        },
        split: recordingSplit,
      },
      {
        body: {
          ...line,
          catalogId: recording.id,
          amount: '0.004217',
          currency: 'EUR',
          statementRef: 'SF-2026-09',
          lineRef: '2',
          units: 1,
        },
        split: recordingSplit,
      },
      {
        body: {
          ...line,
          iswc: 'T0345246801',
          type: 'performance',
          source: 'PRO',
          territory: 'US',
          amount: '250.10',
          currency: 'USD',
          statementRef: 'PRO-Q3',
          lineRef: 'A',
        },
        split: workSplit,
      },
      {
        body: {
          ...line,
          catalogId: work.id,
          type: 'mechanical',
          source: 'PRO',
          territory: 'US',
          amount: '0.333333',
          currency: 'USD',
          statementRef: 'PRO-Q3',
          lineRef: 'B',
        },
        split: workSplit,
      },
      {
        body: {
          ...line,
          catalogId: work.id,
          amount: '99.99',
          currency: 'EUR',
          statementRef: 'SF-2026-09',
          lineRef: '3',
          units: 24_000,
        },
        split: workSplit,
      },
    ]
    const entries: Json[] = []
    for (const { body, split } of lines) {
      const entry = await post('/api/revenue', body)
      const expected = largestRemainder(toMicros(body.amount as string), split)
      const got = new Map(
        (entry.allocations as { creatorId: string; amount: string }[]).map((a) => [a.creatorId, toMicros(a.amount)]),
      )
      expect(got).toEqual(expected)
      expect([...got.values()].reduce((sum, value) => sum + value, 0n)).toBe(toMicros(body.amount as string))
      entries.push(entry)
    }
    // Spot-check one allocation by hand: 1234.567891 x 66.67% = 823.0864129297 -> Ada gets the leftover micro-unit.
    expect(
      (entries[0]!.allocations as { creatorId: string; amount: string }[]).find((a) => a.creatorId === ada.id)!.amount,
    ).toBe('823.086413')

    // 3. A correction by reversal, and a statement line sent again.
    const reversal = await post('/api/revenue', {
      ...lines[4]!.body,
      amount: '-99.99',
      units: -24_000,
      reverses: entries[4]!.id,
      statementRef: 'SF-2026-10',
      lineRef: 'R3',
    })
    expect(reversal.allocations).toEqual(
      (entries[4]!.allocations as { creatorId: string; amount: string }[]).map((a) => ({
        creatorId: a.creatorId,
        amount: `-${a.amount}`,
      })),
    )
    const before = await eventCount(t.db, label.orgId)
    const resent = await call(t.app, { method: 'POST', url: '/api/revenue', token: label.token, body: lines[0]!.body })
    expectProblem(resent, 409, 'conflict')
    expect(await eventCount(t.db, label.orgId)).toBe(before)
    const allRevenue = (await call(t.app, { url: '/api/revenue?limit=100', token: label.token })).json().data as {
      amount: string
      currency: string
      allocations: { creatorId: string; amount: string }[]
    }[]
    expect(allRevenue).toHaveLength(6)

    // 4. Independent ledger: what each creator earned in each currency.
    const earned = new Map<string, bigint>()
    const totalRevenue = new Map<string, bigint>()
    for (const entry of allRevenue) {
      totalRevenue.set(entry.currency, (totalRevenue.get(entry.currency) ?? 0n) + toMicros(entry.amount))
      for (const allocation of entry.allocations) {
        const key = `${allocation.creatorId} ${entry.currency}`
        earned.set(key, (earned.get(key) ?? 0n) + toMicros(allocation.amount))
      }
    }
    expect(totalRevenue).toEqual(
      new Map([
        ['EUR', toMicros('1234.572108')],
        ['USD', toMicros('250.433333')],
      ]),
    )

    // 5. Payouts: everyone in both currencies, except Ben's dollars, which stay unpaid.
    const paid = new Map<string, bigint>()
    const carried = new Map<string, bigint>()
    for (const creator of [ada, ben, cleo]) {
      for (const currency of ['EUR', 'USD']) {
        if (creator === ben && currency === 'USD') continue
        const balance = earned.get(`${creator.id} ${currency}`) ?? 0n
        const amount = balance - (((balance % CENT) + CENT) % CENT)
        const response = await call(t.app, {
          method: 'POST',
          url: '/api/payouts',
          token: label.token,
          body: { creatorId: creator.id, currency },
        })
        if (amount <= 0n) {
          // Cleo's euros: 19.998 EUR earned and reversed, nothing left.
          expectProblem(response, 422, 'nothing_to_pay')
          carried.set(currency, (carried.get(currency) ?? 0n) + balance)
          continue
        }
        expect(response.statusCode, response.body).toBe(201)
        const payout = response.json()
        expect(toMicros(payout.amount)).toBe(amount)
        expect(toMicros(payout.statement.earnings)).toBe(balance)
        expect(toMicros(payout.statement.openingBalance)).toBe(0n)
        expect(toMicros(payout.statement.carriedForward)).toBe(balance - amount)
        expect(payout.method).toBe('manual')
        paid.set(currency, (paid.get(currency) ?? 0n) + toMicros(payout.amount))
        carried.set(currency, (carried.get(currency) ?? 0n) + toMicros(payout.statement.carriedForward))
      }
    }
    const unpaid = new Map([
      ['EUR', 0n],
      ['USD', earned.get(`${ben.id} USD`)!],
    ])
    // By hand: Ada 823.086413 + 0.002811 = 823.089224 -> 823.08; Ben 411.481478 + 0.001406 = 411.482884 -> 411.48.
    expect(paid.get('EUR')).toBe(toMicros('1234.56'))
    expect(carried.get('EUR')).toBe(toMicros('0.012108'))
    for (const currency of ['EUR', 'USD']) {
      expect(paid.get(currency)! + unpaid.get(currency)! + carried.get(currency)!).toBe(totalRevenue.get(currency))
    }
    const listed = (await call(t.app, { url: '/api/payouts', token: label.token })).json().data as {
      amount: string
      currency: string
    }[]
    expect(listed).toHaveLength(4)
    expect(listed.filter((p) => p.currency === 'USD').reduce((sum, p) => sum + toMicros(p.amount), 0n)).toBe(
      paid.get('USD'),
    )
    // Ben's dollars are still there to be paid, exactly once.
    const benUsd = (await post('/api/payouts', { creatorId: ben.id, currency: 'USD' })) as unknown as {
      amount: string
      statement: { carriedForward: string }
    }
    expect(toMicros(benUsd.amount) + toMicros(benUsd.statement.carriedForward)).toBe(unpaid.get('USD'))

    // 6. The audit log tells the same story.
    const actions = (
      (await call(t.app, { url: '/api/org-events?limit=100', token: label.token })).json().data as { action: string }[]
    ).map((e) => e.action)
    const count = (action: string) => actions.filter((a) => a === action).length
    expect([
      count('creator.created'),
      count('catalog.created'),
      count('revenue.created'),
      count('payout.created'),
    ]).toEqual([3, 2, 6, 5])
  })
})

describe('walkthrough: bad input is refused with its code, and nothing is written', () => {
  it('refuses each mistake a new user might make', async () => {
    const mine = await post('/api/creators', {
      name: 'Dee',
      kind: 'person',
      roles: ['composer'],
      payoutCurrency: 'EUR',
    })
    const other = await post('/api/creators', {
      name: 'Eve',
      kind: 'person',
      roles: ['composer'],
      payoutCurrency: 'EUR',
    })
    const theirs = await post(
      '/api/creators',
      { name: 'Rival', kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' },
      rival.token,
    )
    const entry = await post('/api/catalog', {
      kind: 'work',
      title: 'Fine',
      splits: [{ creatorId: mine.id, role: 'composer', shareBps: 10000 }],
    })
    const theirEntry = await post(
      '/api/catalog',
      { kind: 'work', title: 'Theirs', splits: [{ creatorId: theirs.id, role: 'composer', shareBps: 10000 }] },
      rival.token,
    )
    const revenue = {
      catalogId: entry.id,
      source: 'DSP',
      type: 'stream',
      periodStart: '2026-09-01',
      periodEnd: '2026-09-30',
      territory: 'WORLD',
      units: 1,
      amount: '1.00',
      currency: 'EUR',
    }
    const event = {
      name: 'Show',
      venue: { name: 'Club', country: 'FR' },
      startsAt: '2027-01-01T20:00:00.000Z',
      timezone: 'Europe/Paris',
      currency: 'EUR',
      capacity: 100,
    }
    const split = (a: number, b: number, second = other.id) => [
      { creatorId: mine.id, role: 'composer', shareBps: a },
      { creatorId: second, role: 'lyricist', shareBps: b },
    ]

    const cases: [string, string, unknown, number, string][] = [
      [
        'splits summing to 9999',
        '/api/catalog',
        { kind: 'work', title: 'X', splits: split(5000, 4999) },
        422,
        'splits_invalid',
      ],
      [
        'a creator of another org in a split',
        '/api/catalog',
        { kind: 'work', title: 'X', splits: split(5000, 5000, theirs.id) },
        422,
        'splits_invalid',
      ],
      [
        'an invalid ISRC',
        '/api/catalog',
        { kind: 'recording', title: 'X', identifiers: { isrc: 'FR-Z03-26-0001X' }, splits: split(5000, 5000) },
        400,
        'parameter_invalid',
      ],
      ['a zero amount', '/api/revenue', { ...revenue, amount: '0.00' }, 400, 'parameter_invalid'],
      ['an amount sent as a JSON number', '/api/revenue', { ...revenue, amount: 1.0 }, 400, 'parameter_invalid'],
      ['an unknown currency', '/api/revenue', { ...revenue, currency: 'EUX' }, 400, 'parameter_invalid'],
      [
        'ticket types over capacity',
        '/api/events',
        {
          ...event,
          ticketTypes: [
            { name: 'GA', price: '20.00', quantity: 90 },
            { name: 'VIP', price: '50.00', quantity: 11 },
          ],
        },
        422,
        'unprocessable',
      ],
    ]
    const counts = async () => {
      const lists = await Promise.all(
        ['/api/catalog', '/api/revenue', '/api/events', '/api/creators'].map((url) =>
          call(t.app, { url: `${url}?limit=100`, token: label.token }),
        ),
      )
      return [await eventCount(t.db, label.orgId), ...lists.map((response) => response.json().data.length)]
    }
    const before = await counts()
    for (const [label_, url, body, status, code] of cases) {
      const response = await call(t.app, { method: 'POST', url, token: label.token, body })
      expect(response.statusCode, `${label_}: ${response.body}`).toBe(status)
      expectProblem(response, status, code)
    }
    const number = await call(t.app, {
      method: 'POST',
      url: '/api/revenue',
      token: label.token,
      body: { ...revenue, amount: 1.0 },
    })
    expect(number.json().detail).toMatch(/decimal string/)
    for (const url of [`/api/catalog/${theirEntry.id}`, `/api/creators/${theirs.id}`]) {
      expectProblem(await call(t.app, { url, token: label.token }), 404, 'resource_missing')
    }
    expect(await counts()).toEqual(before)
  })
})
