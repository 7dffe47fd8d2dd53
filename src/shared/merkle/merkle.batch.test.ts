import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hex, leafOf, rfcVerifyInclusion } from '../../../test/rfc6962.js'
import { referenceCanonicalJson } from '../../platform/canonical-json.js'
import { batchEventData, batchInclusion, type BatchLine } from './merkle.batch.js'

/** Lines of a batch: distinct ids, amounts in one or two currencies, records of arbitrary JSON. */
const lines = fc
  .uniqueArray(fc.stringMatching(/^rev_[0-9A-Z]{6}$/), { minLength: 1, maxLength: 70 })
  .chain((ids) =>
    fc.tuple(
      fc.constant(ids),
      fc.array(
        fc.tuple(fc.constantFrom('EUR', 'JPY'), fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.jsonValue()),
        {
          minLength: ids.length,
          maxLength: ids.length,
        },
      ),
    ),
  )
  .map(([ids, parts]): BatchLine[] =>
    ids.map((id, index) => {
      const [currency, amount, extra] = parts[index]!
      return { id, currency, amount, record: { id, amount: String(amount), extra } }
    }),
  )

describe('batch roots and inclusion proofs', () => {
  it('proves every line against the batch root, checked by an independent RFC 6962 verifier', () => {
    fc.assert(
      fc.property(lines, (batch) => {
        const data = batchEventData('bat_01ARZ3NDEKTSV4RRFFQ69G5FAV', batch)
        expect(data.lineCount).toBe(batch.length)
        for (const line of batch) {
          const proof = batchInclusion(batch, line.id)!
          // The leaf is the record's RFC 8785 text, as the reference implementation writes it.
          expect(proof.leaf).toBe(referenceCanonicalJson(line.record))
          expect(proof.root).toBe(data.root)
          expect(
            rfcVerifyInclusion(
              proof.leafIndex,
              proof.treeSize,
              leafOf(Buffer.from(proof.leaf)),
              proof.auditPath,
              hex(data.root),
            ),
          ).toBe(true)
        }
        expect(batchInclusion(batch, 'rev_absent')).toBeNull()
      }),
      { numRuns: 60 },
    )
  })

  it('changes the root when any line is changed, dropped or added, whatever order the lines come in', () => {
    fc.assert(
      fc.property(lines, fc.nat(), (batch, pick) => {
        const data = batchEventData('bat_x', batch)
        expect(batchEventData('bat_x', [...batch].reverse()).root).toBe(data.root)
        const at = pick % batch.length
        const changed = batch.map((line, index) =>
          index === at ? { ...line, record: { ...(line.record as object), changed: true } } : line,
        )
        expect(batchEventData('bat_x', changed).root).not.toBe(data.root)
        if (batch.length > 1)
          expect(
            batchEventData(
              'bat_x',
              batch.filter((_, index) => index !== at),
            ).root,
          ).not.toBe(data.root)
        const added = { id: 'rev_zzzzzz', currency: 'EUR', amount: 1n, record: { id: 'rev_zzzzzz' } }
        expect(batchEventData('bat_x', [...batch, added]).root).not.toBe(data.root)
      }),
      { numRuns: 60 },
    )
  })

  it('totals each currency as decimal strings, currencies in order', () => {
    const data = batchEventData('bat_x', [
      { id: 'a', currency: 'JPY', amount: 5_000_000n, record: {} },
      { id: 'b', currency: 'EUR', amount: 1_250_000n, record: {} },
      { id: 'c', currency: 'EUR', amount: -250_000n, record: {} },
    ])
    expect(data.totals).toEqual([
      { currency: 'EUR', amount: '1.00' },
      { currency: 'JPY', amount: '5' },
    ])
  })
})
