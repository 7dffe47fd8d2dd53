import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { quoteLiteral, setOrgStatement } from '../../db/sql-text.js'
import { asOwner } from '../../db/sql-backend.js'
import { buildTestApp, ownerWithOrg, type OrgAccount, type TestApp } from '../../../test/helpers.js'
import { GENESIS_HASH } from '../audit/index.js'
import { LinkChecker, linkQuery } from './verification.links.js'
import { verifyChain } from './verification.chain.js'

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

/** Appends events with the given data through the audit service (the real writer). */
async function append(
  owner: OrgAccount,
  items: { action?: string; resource?: { type: string; id: string } | null; data: unknown }[],
): Promise<void> {
  const ctx = { orgId: owner.orgId, actor: { userId: owner.userId } }
  await t.db.tx(ctx, (tx) =>
    t.services.audit.appendNow(
      tx,
      ctx,
      items.map((item) => ({
        action: item.action ?? 'test.links',
        resource: item.resource === undefined ? { type: 'test', id: 'tst_1' } : item.resource,
        data: item.data,
      })),
    ),
  )
}

/** The binary COPY of an org's links as the app role reads it (in the org's tenant scope), in one buffer. */
async function copyOfLinks(orgId: string, from: number, to: number, scoped = true): Promise<Buffer> {
  const session = await t.db.backend.acquire()
  const chunks: Buffer[] = []
  try {
    await session.simple(scoped ? `begin; ${setOrgStatement(orgId)}` : 'begin')
    await session.copyOut(linkQuery(quoteLiteral(orgId), from, to), (bytes, start, end) =>
      chunks.push(Buffer.from(bytes.subarray(start, end))),
    )
    await session.simple('commit')
  } finally {
    session.release()
  }
  return Buffer.concat(chunks)
}

/** Odd data a writer may hand the log: escapes, non-BMP characters, number forms, nesting. */
const oddData = [
  { quote: 'a "quoted" \\ back\\slash', control: 'tab\there\nnew line \u0001 \u001f', emoji: '𝄞 🎵 é', empty: '' },
  {
    numbers: [0, -0, 1e21, 1e-7, 123.456, -42, 2 ** 53],
    flags: [true, false, null],
    nested: { z: { y: [{ x: 1 }] }, a: [] },
  },
  { 'key with "quote"': 1, '\u00e9': 2, e: 3, '\u{1f600}': 4, '': 5 },
  'a string as the whole data',
  [1, 'two', { three: 3 }],
  null,
]

describe('checking chain links from binary COPY output', () => {
  it('checks the same links whatever chunks the output arrives in', async () => {
    const owner = await ownerWithOrg(t.app)
    await append(
      owner,
      oddData.map((data) => ({ data })),
    )
    await append(owner, [
      { resource: null, data: { no: 'resource' } },
      { action: 'test.other', resource: { type: 'x', id: 'y' }, data: {} },
    ])
    const events = 1 + oddData.length + 2
    const output = await copyOfLinks(owner.orgId, 1, events)
    const whole = new LinkChecker(owner.orgId, { verified: 0, previousHash: GENESIS_HASH })
    whole.push(output)
    const expected = whole.finish()
    expect(expected).toMatchObject({ verified: events, broken: null })
    // Every link hashed from its stored bytes as they stand: the data is stored as it was hashed.
    expect(whole.linksByRecipe).toBe(0)

    await fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: output.length - 1 }), { maxLength: 40 }), (cuts) => {
        const checker = new LinkChecker(owner.orgId, { verified: 0, previousHash: GENESIS_HASH })
        let from = 0
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          checker.push(output.subarray(from, cut))
          from = cut
        }
        checker.push(output.subarray(from))
        expect(checker.finish()).toEqual(expected)
      }),
      { numRuns: 200 },
    )
    // Byte by byte, the hardest split.
    const byByte = new LinkChecker(owner.orgId, { verified: 0, previousHash: GENESIS_HASH })
    for (let at = 0; at < output.length; at += 1) byByte.push(output.subarray(at, at + 1))
    expect(byByte.finish()).toEqual(expected)
  })

  it('reads through RLS: without the org scope the COPY holds no row', async () => {
    const owner = await ownerWithOrg(t.app)
    await append(owner, [{ data: { secret: true } }])
    const unscoped = new LinkChecker(owner.orgId, { verified: 0, previousHash: GENESIS_HASH })
    unscoped.push(await copyOfLinks(owner.orgId, 1, 2, false))
    expect(unscoped.finish()).toMatchObject({ verified: 0, broken: null })
    const scoped = new LinkChecker(owner.orgId, { verified: 0, previousHash: GENESIS_HASH })
    scoped.push(await copyOfLinks(owner.orgId, 1, 2))
    expect(scoped.finish()).toMatchObject({ verified: 2, broken: null })
  })

  it('verifies rows stored before data was kept as hashed (jsonb text) by the recipe, and still finds a change in them', async () => {
    const owner = await ownerWithOrg(t.app)
    await append(
      owner,
      oddData.map((data) => ({ data })),
    )
    const tamper = (statement: string) => asOwner(t.db.backend, statement, [owner.orgId])
    // As migration 0009 left older rows: jsonb's text form, valid JSON but not the hashed text.
    await tamper('update org_events set data = data::jsonb::text where org_id = $1')
    const spaced = await asOwner(
      t.db.backend,
      'select count(*)::int as n from org_events where org_id = $1 and data like $2',
      [owner.orgId, '%": %'],
    )
    expect(spaced.rows[0]?.n).toBeGreaterThan(0)
    const older = new LinkChecker(owner.orgId, { verified: 0, previousHash: GENESIS_HASH })
    older.push(await copyOfLinks(owner.orgId, 1, 1 + oddData.length))
    expect(older.finish()).toMatchObject({ verified: 1 + oddData.length, broken: null })
    expect(older.linksByRecipe).toBeGreaterThan(0)
    expect(await verifyChain(t.db, owner.orgId, { batchSize: 3 })).toEqual({
      orgId: owner.orgId,
      ok: true,
      events: 1 + oddData.length,
    })

    await tamper(
      `update org_events set data = jsonb_set(data::jsonb, '{emoji}', '"changed"')::text where org_id = $1 and sequence = 2`,
    )
    expect(await verifyChain(t.db, owner.orgId)).toMatchObject({
      ok: false,
      events: 1,
      broken: { sequence: 2, reason: expect.stringContaining('hash mismatch') },
    })
  })

  it('falls back to the recipe for fields JSON must escape, and still finds a change in any field it writes', async () => {
    const owner = await ownerWithOrg(t.app)
    await append(owner, [
      { action: 'test."quoted"', resource: { type: 'type\\slash', id: 'id\nline' }, data: { x: 1 } },
      { data: { y: 2 } },
    ])
    expect(await verifyChain(t.db, owner.orgId)).toEqual({ orgId: owner.orgId, ok: true, events: 3 })
    const checker = new LinkChecker(owner.orgId, { verified: 0, previousHash: GENESIS_HASH })
    checker.push(await copyOfLinks(owner.orgId, 1, 3))
    expect(checker.finish()).toMatchObject({ verified: 3, broken: null })
    expect(checker.linksByRecipe).toBe(1)
    const changes = [
      `set resource_id = 'tst_2'`,
      `set resource_type = null`,
      `set action = 'test.changed'`,
      `set user_id = 'usr_00000000000000000000000000'`,
      `set id = 'evt_00000000000000000000000000'`,
      `set created_at = created_at + interval '1 millisecond'`,
      `set data = '{"y":3}'`,
      `set hash = 'sha256:' || repeat('0', 64)`,
    ]
    for (const change of changes) {
      const victim = await ownerWithOrg(t.app)
      await append(victim, [{ data: { y: 2 } }, { data: { z: 3 } }])
      await asOwner(t.db.backend, `update org_events ${change} where org_id = $1 and sequence = 2`, [victim.orgId])
      const report = await verifyChain(t.db, victim.orgId)
      expect(report, change).toMatchObject({ ok: false, events: 1, broken: { sequence: 2 } })
    }
  })

  it('refuses output that is not a binary COPY of the link columns', () => {
    const checker = new LinkChecker('org_00000000000000000000000000', { verified: 0, previousHash: GENESIS_HASH })
    expect(() => checker.push(Buffer.from('not a copy at all, long enough for a header'))).toThrow(
      'not a binary COPY output',
    )
    const cut = new LinkChecker('org_00000000000000000000000000', { verified: 0, previousHash: GENESIS_HASH })
    cut.push(Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1'))
    expect(() => cut.finish()).toThrow('without its trailer')
  })
})
