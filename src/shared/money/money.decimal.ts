import { AppError } from '../../platform/errors.js'
import { minorUnit } from './money.currencies.js'

/** Every amount is stored as micro-units: the decimal amount times 10^6. */
export const MICRO_PLACES = 6
export const MICROS_PER_UNIT = 1_000_000n

/** Whole units above this are refused, so sums of many amounts stay far inside int8. */
const MAX_INTEGER_DIGITS = 12
const DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/

export type ParsedDecimal = { ok: true; micros: bigint } | { ok: false; reason: string }

/** Parses a decimal string ("12.50", "-0.004217") with at most `maxPlaces` places into micro-units. */
export function parseDecimal(text: string, maxPlaces: number = MICRO_PLACES): ParsedDecimal {
  const match = DECIMAL.exec(text)
  if (!match) return { ok: false, reason: 'must be a decimal string such as "12.50" (no exponent, no "+", no spaces)' }
  const [, sign, whole = '', fraction = ''] = match
  if (fraction.length > maxPlaces) {
    return { ok: false, reason: `has ${fraction.length} decimal places; at most ${maxPlaces} are allowed` }
  }
  const digits = whole.replace(/^0+(?=[0-9])/, '')
  if (digits.length > MAX_INTEGER_DIGITS)
    return { ok: false, reason: `is too large (at most ${MAX_INTEGER_DIGITS} digits before the point)` }
  const micros = BigInt(digits) * MICROS_PER_UNIT + BigInt(fraction.padEnd(MICRO_PLACES, '0'))
  return { ok: true, micros: sign === '-' ? -micros : micros }
}

/**
 * Formats micro-units as a decimal string with at least `minPlaces` places and at most
 * six, dropping only trailing zeros beyond `minPlaces`: 12500000n, 2 -> "12.50".
 */
export function formatMicros(micros: bigint, minPlaces: number): string {
  const negative = micros < 0n
  const magnitude = negative ? -micros : micros
  const whole = magnitude / MICROS_PER_UNIT
  let fraction = (magnitude % MICROS_PER_UNIT).toString().padStart(MICRO_PLACES, '0')
  while (fraction.length > minPlaces && fraction.endsWith('0')) fraction = fraction.slice(0, -1)
  const text = fraction.length > 0 ? `${whole}.${fraction}` : `${whole}`
  return negative && magnitude !== 0n ? `-${text}` : text
}

/** Formats an amount in a currency: at least the currency's minor unit of places. */
export function formatAmount(micros: bigint, currency: string): string {
  return formatMicros(micros, minorUnit(currency))
}

/** Micro-units in one minor unit of the currency (10000n for EUR, 1000000n for JPY). */
export function microsPerMinorUnit(currency: string): bigint {
  return 10n ** BigInt(MICRO_PLACES - minorUnit(currency))
}

/** Rounds toward negative infinity to a whole minor unit of the currency. */
export function floorToMinorUnit(micros: bigint, currency: string): bigint {
  const step = microsPerMinorUnit(currency)
  const remainder = ((micros % step) + step) % step
  return micros - remainder
}

export interface AmountRule {
  param: string
  /** Decimal places allowed (6 for revenue, the currency's minor unit for payouts and prices). */
  places: number
  zero?: boolean
  negative?: boolean
}

/** Parses a request amount or throws 400 parameter_invalid naming the field and the reason. */
export function parseAmount(text: string, rule: AmountRule): bigint {
  const parsed = parseDecimal(text, rule.places)
  if (!parsed.ok) throw new AppError('parameter_invalid', `${rule.param} ${parsed.reason}`, { param: rule.param })
  if (parsed.micros === 0n && rule.zero === false) {
    throw new AppError('parameter_invalid', `${rule.param} must not be zero`, { param: rule.param })
  }
  if (parsed.micros < 0n && rule.negative === false) {
    throw new AppError('parameter_invalid', `${rule.param} must not be negative`, { param: rule.param })
  }
  return parsed.micros
}
