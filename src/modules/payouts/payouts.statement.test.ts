import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { AppError } from '../../platform/errors.js'
import { CURRENCY_CODES } from '../../shared/money/money.currencies.js'
import { microsPerMinorUnit } from '../../shared/money/money.decimal.js'
import { computeStatement, type PayableAllocation } from './payouts.statement.js'

const allocation = (amount: bigint, periodStart = '2026-09-01', periodEnd = '2026-09-30'): PayableAllocation => ({
  revenueId: 'rev_x',
  amount,
  periodStart,
  periodEnd,
})

describe('payout statements', () => {
  it('rounds down to the minor unit and carries the remainder', () => {
    const statement = computeStatement({
      currency: 'EUR',
      openingBalance: 0n,
      allocations: [allocation(10_005_000n), allocation(2_108n)],
      minimum: null,
    })
    expect(statement).toEqual({
      amount: 10_000_000n,
      openingBalance: 0n,
      earnings: 10_007_108n,
      recouped: 0n,
      carriedForward: 7_108n,
      entries: 2,
      periodStart: '2026-09-01',
      periodEnd: '2026-09-30',
    })
  })

  it('recoups an advance first', () => {
    const statement = computeStatement({
      currency: 'EUR',
      openingBalance: -100_000_000n,
      allocations: [allocation(130_000_000n)],
      minimum: null,
    })
    expect(statement).toMatchObject({ amount: 30_000_000n, recouped: 100_000_000n, carriedForward: 0n })
  })

  it('refuses nothing to pay and amounts below the minimum', () => {
    const refuse = (run: () => unknown) => {
      try {
        run()
      } catch (error) {
        return (error as AppError).code
      }
      return 'paid'
    }
    expect(
      refuse(() =>
        computeStatement({
          currency: 'EUR',
          openingBalance: -100_000_000n,
          allocations: [allocation(60_000_000n)],
          minimum: null,
        }),
      ),
    ).toBe('nothing_to_pay')
    expect(
      refuse(() =>
        computeStatement({ currency: 'EUR', openingBalance: 0n, allocations: [allocation(9_999n)], minimum: null }),
      ),
    ).toBe('nothing_to_pay')
    expect(
      refuse(() => computeStatement({ currency: 'EUR', openingBalance: 0n, allocations: [], minimum: null })),
    ).toBe('nothing_to_pay')
    expect(
      refuse(() =>
        computeStatement({ currency: 'JPY', openingBalance: 0n, allocations: [allocation(999_999n)], minimum: null }),
      ),
    ).toBe('nothing_to_pay')
    expect(
      refuse(() =>
        computeStatement({
          currency: 'EUR',
          openingBalance: 0n,
          allocations: [allocation(49_990_000n)],
          minimum: 50_000_000n,
        }),
      ),
    ).toBe('balance_below_minimum')
    expect(
      refuse(() =>
        computeStatement({
          currency: 'EUR',
          openingBalance: 0n,
          allocations: [allocation(50_000_000n)],
          minimum: 50_000_000n,
        }),
      ),
    ).toBe('paid')
  })

  it('spans the periods of the allocations it includes', () => {
    const statement = computeStatement({
      currency: 'EUR',
      openingBalance: 0n,
      allocations: [
        allocation(1_000_000n, '2026-08-01', '2026-08-31'),
        allocation(1_000_000n, '2026-07-01', '2026-09-30'),
      ],
      minimum: null,
    })
    expect([statement.periodStart, statement.periodEnd]).toEqual(['2026-07-01', '2026-09-30'])
    expect(
      computeStatement({ currency: 'EUR', openingBalance: 5_000_000n, allocations: [], minimum: null }),
    ).toMatchObject({ periodStart: null, periodEnd: null, amount: 5_000_000n })
  })

  it('always keeps amount + carriedForward = openingBalance + earnings, with 0 <= carriedForward < one minor unit', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CURRENCY_CODES),
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.array(fc.bigInt({ min: -(10n ** 10n), max: 10n ** 12n }), { maxLength: 30 }),
        (currency, openingBalance, amounts) => {
          let statement
          try {
            statement = computeStatement({
              currency,
              openingBalance,
              allocations: amounts.map((amount) => allocation(amount)),
              minimum: null,
            })
          } catch (error) {
            expect((error as AppError).code).toBe('nothing_to_pay')
            expect(openingBalance + amounts.reduce((a, b) => a + b, 0n)).toBeLessThan(microsPerMinorUnit(currency))
            return
          }
          expect(statement.amount + statement.carriedForward).toBe(statement.openingBalance + statement.earnings)
          expect(statement.amount % microsPerMinorUnit(currency)).toBe(0n)
          expect(statement.carriedForward >= 0n && statement.carriedForward < microsPerMinorUnit(currency)).toBe(true)
          expect(statement.recouped >= 0n).toBe(true)
        },
      ),
      { numRuns: 300 },
    )
  })
})
