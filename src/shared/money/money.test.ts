import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { allocate, WHOLE_BPS, type Share } from './money.allocation.js'
import { CURRENCY_CODES, CURRENCY_MINOR_UNITS, isCurrency, minorUnit } from './money.currencies.js'
import { floorToMinorUnit, formatAmount, formatMicros, parseAmount, parseDecimal } from './money.decimal.js'

describe('currencies', () => {
  it('knows the minor units of the odd ones out', () => {
    expect(minorUnit('EUR')).toBe(2)
    expect(minorUnit('JPY')).toBe(0)
    expect(minorUnit('KRW')).toBe(0)
    for (const code of ['KWD', 'BHD', 'OMR', 'JOD', 'TND', 'LYD', 'IQD']) expect(minorUnit(code)).toBe(3)
    expect(minorUnit('CLF')).toBe(4)
    expect(minorUnit('UYW')).toBe(4)
  })

  it('holds the active codes with a minor unit, and no withdrawn or unit-less ones', () => {
    expect(CURRENCY_CODES.length).toBeGreaterThan(160)
    for (const code of CURRENCY_CODES) {
      expect(code).toMatch(/^[A-Z]{3}$/)
      expect([0, 2, 3, 4]).toContain(CURRENCY_MINOR_UNITS[code])
    }
    for (const code of ['USD', 'GBP', 'CHF', 'SEK', 'BRL', 'INR', 'ZAR', 'XOF', 'XCG', 'ZWG', 'SLE', 'VES'])
      expect(isCurrency(code), code).toBe(true)
    for (const code of ['XYZ', 'HRK', 'XAU', 'XXX', 'eur', 'toString', 'constructor'])
      expect(isCurrency(code), code).toBe(false)
    expect(() => minorUnit('XYZ')).toThrow()
  })
})

describe('decimal strings', () => {
  it('parses into micro-units', () => {
    expect(parseDecimal('12.50')).toEqual({ ok: true, micros: 12_500_000n })
    expect(parseDecimal('-0.004217')).toEqual({ ok: true, micros: -4217n })
    expect(parseDecimal('0')).toEqual({ ok: true, micros: 0n })
    expect(parseDecimal('007.1')).toEqual({ ok: true, micros: 7_100_000n })
    expect(parseDecimal('999999999999.999999')).toEqual({ ok: true, micros: 999_999_999_999_999_999n })
  })

  it('refuses exponents, signs, spaces, too many places and too many digits', () => {
    for (const bad of ['1e3', '+1', ' 1', '1.', '.5', '1,5', '', '-', '0x10', 'NaN', '1.0000001', '1000000000000']) {
      expect(parseDecimal(bad).ok, bad).toBe(false)
    }
    expect(parseDecimal('1.234', 2).ok).toBe(false)
    expect(parseDecimal('1.23', 2).ok).toBe(true)
    expect(parseDecimal('1.5', 0).ok).toBe(false)
  })

  it('formats with the currency minor unit and no more than needed', () => {
    expect(formatMicros(12_500_000n, 2)).toBe('12.50')
    expect(formatMicros(-4217n, 2)).toBe('-0.004217')
    expect(formatMicros(0n, 2)).toBe('0.00')
    expect(formatMicros(-1n, 0)).toBe('-0.000001')
    expect(formatAmount(1_200_000_000n, 'JPY')).toBe('1200')
    expect(formatAmount(500_000n, 'JPY')).toBe('0.5')
    expect(formatAmount(1_000_000n, 'KWD')).toBe('1.000')
    expect(formatAmount(1_000_000n, 'CLF')).toBe('1.0000')
  })

  it('round-trips every micro-unit value', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 18n) + 1n, max: 10n ** 18n - 1n }),
        fc.integer({ min: 0, max: 6 }),
        (micros, places) => {
          const parsed = parseDecimal(formatMicros(micros, places))
          expect(parsed).toEqual({ ok: true, micros })
        },
      ),
    )
  })

  it('rounds down to the minor unit, toward negative infinity', () => {
    expect(floorToMinorUnit(12_345_678n, 'EUR')).toBe(12_340_000n)
    expect(floorToMinorUnit(12_345_678n, 'JPY')).toBe(12_000_000n)
    expect(floorToMinorUnit(12_345_678n, 'KWD')).toBe(12_345_000n)
    expect(floorToMinorUnit(-5n, 'EUR')).toBe(-10_000n)
    expect(floorToMinorUnit(10_000n, 'EUR')).toBe(10_000n)
  })

  it('parseAmount names the field and the rule it broke', () => {
    expect(parseAmount('1.25', { param: 'amount', places: 6 })).toBe(1_250_000n)
    expect(() => parseAmount('0', { param: 'amount', places: 6, zero: false })).toThrow(/amount must not be zero/)
    expect(() => parseAmount('-0.00', { param: 'amount', places: 6, zero: false })).toThrow(/must not be zero/)
    expect(() => parseAmount('-1', { param: 'price', places: 2, negative: false })).toThrow(
      /price must not be negative/,
    )
    expect(() => parseAmount('1.001', { param: 'price', places: 2 })).toThrow(/at most 2/)
  })
})

const creatorId = fc.stringMatching(/^crt_[0-9A-Z]{4}$/)

/** 1..20 distinct creators with positive basis points summing to exactly 10000. */
const splits = fc.uniqueArray(creatorId, { minLength: 1, maxLength: 20 }).chain((ids) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: WHOLE_BPS - 1 }), { minLength: ids.length - 1, maxLength: ids.length - 1 })
    .map((cuts) => {
      const points = [0, ...cuts.sort((a, b) => a - b), WHOLE_BPS]
      return ids.map((id, index): Share => ({ creatorId: id, shareBps: points[index + 1]! - points[index]! }))
    }),
)

const amount = fc.oneof(
  fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
  fc.bigInt({ min: -20_000n, max: 20_000n }),
  fc
    .constantFrom(...CURRENCY_CODES)
    .chain((currency) =>
      fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }).map((minor) => minor * 10n ** BigInt(6 - minorUnit(currency))),
    ),
)

describe('allocation by largest remainder', () => {
  it('always sums exactly to the amount, each part within one micro-unit of its exact share', () => {
    fc.assert(
      fc.property(splits, amount, (shares, total) => {
        const parts = allocate(total, shares)
        expect(parts.reduce((sum, part) => sum + part.amount, 0n)).toBe(total)
        for (const part of parts) {
          const share = shares.find((s) => s.creatorId === part.creatorId)!.shareBps
          const exact = total * BigInt(share)
          const diff = part.amount * 10_000n - exact
          expect(diff > -10_000n && diff < 10_000n).toBe(true)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('is symmetric: a negated amount gives the negated allocation', () => {
    fc.assert(
      fc.property(splits, amount, (shares, total) => {
        const forward = allocate(total, shares)
        const mirrored = allocate(-total, shares)
        expect(mirrored.map((part) => part.amount)).toEqual(forward.map((part) => -part.amount))
      }),
    )
  })

  it('does not depend on the order the splits are listed in', () => {
    fc.assert(
      fc.property(splits, amount, (shares, total) => {
        const sorted = (parts: { creatorId: string; amount: bigint }[]) =>
          [...parts].sort((a, b) => (a.creatorId < b.creatorId ? -1 : 1))
        expect(sorted(allocate(total, [...shares].reverse()))).toEqual(sorted(allocate(total, shares)))
      }),
    )
  })

  it('breaks ties by larger share, then by creator id ascending', () => {
    // 1 micro-unit three ways: equal remainders and shares, so the lowest id gets it.
    expect(
      allocate(1n, [
        { creatorId: 'crt_C', shareBps: 3334 },
        { creatorId: 'crt_B', shareBps: 3333 },
        { creatorId: 'crt_A', shareBps: 3333 },
      ]),
    ).toEqual([
      { creatorId: 'crt_C', amount: 1n },
      { creatorId: 'crt_B', amount: 0n },
      { creatorId: 'crt_A', amount: 0n },
    ])
    expect(
      allocate(2n, [
        { creatorId: 'crt_C', shareBps: 3334 },
        { creatorId: 'crt_B', shareBps: 3333 },
        { creatorId: 'crt_A', shareBps: 3333 },
      ]).map((part) => part.amount),
    ).toEqual([1n, 0n, 1n])
    // 10 micro-units 50/50 with an odd remainder split: 0.5 each, the larger share wins first.
    expect(
      allocate(1n, [
        { creatorId: 'crt_A', shareBps: 5000 },
        { creatorId: 'crt_B', shareBps: 5000 },
      ]).map((part) => part.amount),
    ).toEqual([1n, 0n])
    expect(
      allocate(-1n, [
        { creatorId: 'crt_B', shareBps: 5000 },
        { creatorId: 'crt_A', shareBps: 5000 },
      ]),
    ).toEqual([
      { creatorId: 'crt_B', amount: 0n },
      { creatorId: 'crt_A', amount: -1n },
    ])
  })

  it('gives larger remainders the leftover before smaller ones', () => {
    // 0.000007 split 70/30: exact 4.9 and 2.1 -> 5 and 2.
    expect(
      allocate(7n, [
        { creatorId: 'crt_A', shareBps: 7000 },
        { creatorId: 'crt_B', shareBps: 3000 },
      ]).map((part) => part.amount),
    ).toEqual([5n, 2n])
  })

  it('merges a creator named twice and refuses shares that do not make a whole', () => {
    expect(
      allocate(100n, [
        { creatorId: 'crt_A', shareBps: 2500 },
        { creatorId: 'crt_B', shareBps: 5000 },
        { creatorId: 'crt_A', shareBps: 2500 },
      ]),
    ).toEqual([
      { creatorId: 'crt_A', amount: 50n },
      { creatorId: 'crt_B', amount: 50n },
    ])
    expect(() => allocate(1n, [{ creatorId: 'crt_A', shareBps: 9999 }])).toThrow()
    expect(() => allocate(1n, [])).toThrow()
  })
})
