/**
 * Identifier validation for real catalog data. Each function takes what a user typed
 * and returns the normalised form, or null when it is not a valid identifier.
 */
import { AppError } from '../../platform/errors.js'
import { isCountry, WORLD } from './records.countries.js'

const SEPARATORS = /[\s-]/g

/** ISRC (ISO 3901), CC-XXX-YY-NNNNN: country, registrant, year, designation. Normalised to 12 upper-case chars. */
export function normaliseIsrc(input: string): string | null {
  const compact = input.replace(SEPARATORS, '').toUpperCase()
  return /^[A-Z]{2}[A-Z0-9]{3}[0-9]{2}[0-9]{5}$/.test(compact) ? compact : null
}

/** ISWC (ISO 15707), T-DDD.DDD.DDD-C with its check digit. Normalised to that form. */
export function normaliseIswc(input: string): string | null {
  const compact = input.replace(/[\s.-]/g, '').toUpperCase()
  if (!/^T[0-9]{10}$/.test(compact)) return null
  const digits = [...compact.slice(1, 10)].map(Number)
  const sum = digits.reduce((total, digit, index) => total + (index + 1) * digit, 1)
  if ((10 - (sum % 10)) % 10 !== Number(compact[10])) return null
  return `T-${compact.slice(1, 4)}.${compact.slice(4, 7)}.${compact.slice(7, 10)}-${compact[10]}`
}

/** GS1 mod-10 check digit over all digits but the last (weights 3,1,3,... from the right). */
function gs1CheckDigit(body: string): number {
  let sum = 0
  for (let index = 0; index < body.length; index += 1) {
    const fromRight = body.length - 1 - index
    sum += Number(body[index]) * (fromRight % 2 === 0 ? 3 : 1)
  }
  return (10 - (sum % 10)) % 10
}

/** UPC-A (12), EAN-13 (13) or GTIN-14 (14 digits) with its check digit. Normalised to the digits. */
export function normaliseUpc(input: string): string | null {
  const compact = input.replace(SEPARATORS, '')
  if (!/^[0-9]{12,14}$/.test(compact)) return null
  return gs1CheckDigit(compact.slice(0, -1)) === Number(compact.slice(-1)) ? compact : null
}

/** The same product whatever its length: GTIN-14 with leading zeros. */
export function gtin14(upc: string): string {
  return upc.padStart(14, '0')
}

/** IPI name number: 9 or 11 digits. */
export function normaliseIpi(input: string): string | null {
  const compact = input.replace(SEPARATORS, '')
  return /^([0-9]{9}|[0-9]{11})$/.test(compact) ? compact : null
}

/** ISNI (ISO 27729): 15 digits and an ISO 7064 MOD 11-2 check character (0-9 or X). Normalised to 16 chars. */
export function normaliseIsni(input: string): string | null {
  const compact = input.replace(SEPARATORS, '').toUpperCase()
  if (!/^[0-9]{15}[0-9X]$/.test(compact)) return null
  let total = 0
  for (const char of compact.slice(0, 15)) total = (total + Number(char)) * 2
  const result = (12 - (total % 11)) % 11
  return compact[15] === (result === 10 ? 'X' : String(result)) ? compact : null
}

/** ISO 3166-1 alpha-2 codes, or exactly ["WORLD"]; duplicates are an error. */
export function territoriesProblem(territories: readonly string[]): string | null {
  if (territories.length === 0) return 'territories must name at least one territory'
  if (territories.includes(WORLD))
    return territories.length === 1 ? null : 'WORLD cannot be combined with other territories'
  const unknown = territories.find((code) => !isCountry(code))
  if (unknown !== undefined) return `${unknown} is not an ISO 3166-1 alpha-2 country code`
  if (new Set(territories).size !== territories.length) return 'territories has duplicates'
  return null
}

let timezones: ReadonlySet<string> | undefined

/** An IANA time zone the runtime knows (Intl's canonical list), or UTC. */
export function isTimezone(name: string): boolean {
  timezones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC'])
  return timezones.has(name)
}

/** Normalises an identifier field or throws 400 parameter_invalid naming it. */
export function requireIdentifier(
  value: string,
  normalise: (input: string) => string | null,
  param: string,
  what: string,
): string {
  const normalised = normalise(value)
  if (normalised === null)
    throw new AppError('parameter_invalid', `${param} "${value}" is not a valid ${what}`, { param })
  return normalised
}

export function requireCountry(code: string, param: string): string {
  if (!isCountry(code))
    throw new AppError('parameter_invalid', `${param} ${code} is not an ISO 3166-1 alpha-2 country code`, { param })
  return code
}
