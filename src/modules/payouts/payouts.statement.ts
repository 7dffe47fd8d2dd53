import { AppError } from '../../platform/errors.js'
import { floorToMinorUnit, formatAmount } from '../../shared/money/money.decimal.js'

export interface PayableAllocation {
  revenueId: string
  /** Micro-units; negative for reversals and returns. */
  amount: bigint
  periodStart: string
  periodEnd: string
}

export interface StatementInput {
  currency: string
  /** Balance carried into this statement (micro-units); negative = advance still to recoup. */
  openingBalance: bigint
  allocations: readonly PayableAllocation[]
  /** The creator's minimum payout, when it applies to this currency. */
  minimum: bigint | null
}

export interface Statement {
  amount: bigint
  openingBalance: bigint
  earnings: bigint
  recouped: bigint
  carriedForward: bigint
  entries: number
  periodStart: string | null
  periodEnd: string | null
}

/** What a statement needs from its allocations: their sum, count and the span of their periods. */
export interface StatementTotals {
  earnings: bigint
  entries: number
  periodStart: string | null
  periodEnd: string | null
}

export function totalsOf(allocations: readonly PayableAllocation[]): StatementTotals {
  let earnings = 0n
  let periodStart: string | null = null
  let periodEnd: string | null = null
  for (const allocation of allocations) {
    earnings += allocation.amount
    if (periodStart === null || allocation.periodStart < periodStart) periodStart = allocation.periodStart
    if (periodEnd === null || allocation.periodEnd > periodEnd) periodEnd = allocation.periodEnd
  }
  return { earnings, entries: allocations.length, periodStart, periodEnd }
}

export interface TotalsInput {
  currency: string
  openingBalance: bigint
  totals: StatementTotals
  minimum: bigint | null
}

/**
 * What a payout pays: opening balance plus the allocations' earnings, rounded down to
 * the currency's minor unit; the sub-minor remainder is carried forward, so always
 * amount + carriedForward = openingBalance + earnings. From the allocations' totals, so a
 * run can sum them in SQL and still apply exactly these rules.
 */
export function statementFromTotals(input: TotalsInput): Statement {
  const { currency, openingBalance, totals } = input
  const { earnings } = totals
  const balance = openingBalance + earnings
  const amount = floorToMinorUnit(balance, currency)
  if (amount <= 0n) {
    throw new AppError(
      'nothing_to_pay',
      `Nothing to pay: the balance is ${formatAmount(balance, currency)} ${currency} (opening ${formatAmount(openingBalance, currency)}, unpaid earnings ${formatAmount(earnings, currency)} from ${totals.entries} allocations)`,
    )
  }
  if (input.minimum !== null && amount < input.minimum) {
    throw new AppError(
      'balance_below_minimum',
      `The payable amount ${formatAmount(amount, currency)} ${currency} is below the creator's minimum payout of ${formatAmount(input.minimum, currency)} ${currency}`,
    )
  }
  const advance = openingBalance < 0n ? -openingBalance : 0n
  const positiveEarnings = earnings > 0n ? earnings : 0n
  return {
    amount,
    openingBalance,
    earnings,
    recouped: positiveEarnings < advance ? positiveEarnings : advance,
    carriedForward: balance - amount,
    entries: totals.entries,
    periodStart: totals.periodStart,
    periodEnd: totals.periodEnd,
  }
}

/** The statement of a list of allocations (the API's payout). */
export function computeStatement(input: StatementInput): Statement {
  return statementFromTotals({
    currency: input.currency,
    openingBalance: input.openingBalance,
    totals: totalsOf(input.allocations),
    minimum: input.minimum,
  })
}
