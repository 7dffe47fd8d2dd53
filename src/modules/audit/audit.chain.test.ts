import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { referenceCanonicalJson } from '../../platform/canonical-json.js'
import { canonicalEventText, eventHash, GENESIS_HASH, type ChainedContent } from './audit.chain.js'

const anyString = fc.string({
  unit: fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.constantFrom('"', '\\', '\n', '\u2028', '\ud800'),
  ),
})
const content: fc.Arbitrary<ChainedContent> = fc.record({
  id: fc.oneof(anyString, fc.constant('evt_01M81DCA6352SNA2CVRQ3Z551X')),
  orgId: anyString,
  sequence: fc.oneof(fc.integer({ min: 1 }), fc.constant(Number.MAX_SAFE_INTEGER)),
  action: anyString,
  userId: anyString,
  createdAt: fc.oneof(
    anyString,
    fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  ),
  resource: fc.option(fc.record({ type: anyString, id: anyString })),
  data: fc.jsonValue({ stringUnit: 'binary' }),
})

/** docs/audit.md's recipe, spelled out with the reference package. */
const recipe = (event: ChainedContent, previousHash: string) => referenceCanonicalJson({ ...event, previousHash })

describe('the event hash (docs/audit.md recipe)', () => {
  it('writes the same canonical bytes as canonicalising the whole content object', () => {
    fc.assert(
      fc.property(content, fc.oneof(anyString, fc.constant(GENESIS_HASH)), (event, previousHash) => {
        expect(canonicalEventText(event, previousHash)).toBe(recipe(event, previousHash))
      }),
      { numRuns: 2000 },
    )
  })

  it('hashes those bytes with SHA-256, written sha256:<hex>', () => {
    fc.assert(
      fc.property(content, (event) => {
        const expected = `sha256:${createHash('sha256').update(recipe(event, GENESIS_HASH), 'utf8').digest('hex')}`
        expect(eventHash(event, GENESIS_HASH)).toBe(expected)
      }),
      { numRuns: 300 },
    )
  })

  it('falls back to the reference for content outside the declared shape (a hash member, extra resource fields)', () => {
    const base: ChainedContent = {
      id: 'evt_1',
      orgId: 'org_1',
      sequence: 3,
      action: 'x.y',
      userId: 'usr_1',
      createdAt: '2026-01-01T00:00:00.000Z',
      resource: null,
      data: {},
    }
    const odd = [
      { ...base, resource: { type: 'a', id: 'b', extra: 1 } as ChainedContent['resource'] },
      { ...base, resource: { type: 'a' } as ChainedContent['resource'] },
      { ...base, sequence: 1.5 },
      { ...base, hash: 'sha256:...' } as ChainedContent,
    ]
    for (const event of odd)
      expect(canonicalEventText(event, GENESIS_HASH)).toBe(
        referenceCanonicalJson({ ...pickOwn(event), previousHash: GENESIS_HASH }),
      )
  })
})

/** The content members (a presented event's `hash` is not part of what is hashed). */
function pickOwn(event: ChainedContent): ChainedContent {
  const { id, orgId, sequence, action, userId, createdAt, resource, data } = event
  return { id, orgId, sequence, action, userId, createdAt, resource, data }
}
