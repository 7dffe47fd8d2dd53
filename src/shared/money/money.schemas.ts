import { Type } from 'typebox'
import { AppError } from '../../platform/errors.js'
import { isCurrency } from './money.currencies.js'

/** A money amount in JSON: a decimal string, never a number (a number gets a clear 400). */
export function DecimalString(description: string, example = '12.50') {
  return Type.String({ pattern: '^-?[0-9]+(\\.[0-9]+)?$', maxLength: 40, 'x-kind': 'decimal', description, example })
}

export const CurrencyCode = Type.String({
  pattern: '^[A-Z]{3}$',
  description: 'ISO 4217 alphabetic code, e.g. EUR',
  example: 'EUR',
})

/** Refuses a well-formed code that is not an active ISO 4217 currency. */
export function requireCurrency(code: string, param = 'currency'): string {
  if (!isCurrency(code))
    throw new AppError('parameter_invalid', `${param} ${code} is not an active ISO 4217 currency`, { param })
  return code
}
