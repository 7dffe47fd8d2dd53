import { AppError } from '../../platform/errors.js'
import type { EntryReference } from '../catalog/index.js'
import type { CatalogRow } from '../catalog/index.js'
import { formatAmount, MICRO_PLACES, parseAmount } from '../../shared/money/money.decimal.js'
import { requireCurrency } from '../../shared/money/money.schemas.js'
import {
  gtin14,
  normaliseIsrc,
  normaliseIswc,
  normaliseUpc,
  requireCountry,
  requireIdentifier,
} from '../../shared/records/records.identifiers.js'
import type { RevenueRow } from './revenue.repo.js'
import type { CreateRevenueBody } from './revenue.schemas.js'

/** The one way the body names its catalog entry, normalised. */
export function entryReference(body: CreateRevenueBody): EntryReference {
  const given = (['catalogId', 'isrc', 'iswc', 'upc'] as const).filter((name) => body[name] !== undefined)
  if (given.length === 0)
    throw new AppError('parameter_missing', 'Name the catalog entry: catalogId, isrc, iswc or upc', {
      param: 'catalogId',
    })
  if (given.length > 1)
    throw new AppError('parameter_invalid', `Name the catalog entry one way only, not by ${given.join(' and ')}`, {
      param: given[1],
    })
  if (body.catalogId !== undefined) return { catalogId: body.catalogId }
  if (body.isrc !== undefined) return { isrc: requireIdentifier(body.isrc, normaliseIsrc, 'isrc', 'ISRC') }
  if (body.iswc !== undefined) return { iswc: requireIdentifier(body.iswc, normaliseIswc, 'iswc', 'ISWC') }
  return { upc: requireIdentifier(body.upc ?? '', normaliseUpc, 'upc', 'UPC/EAN') }
}

export function referenceParam(ref: EntryReference): string {
  return Object.keys(ref)[0] ?? 'catalogId'
}

/** True when the reference names this entry, whatever its status (a reversal may follow a superseded entry). */
export function referenceNames(ref: EntryReference, entry: CatalogRow): boolean {
  if ('catalogId' in ref) return entry.id === ref.catalogId
  if ('isrc' in ref) return entry.isrc === ref.isrc
  if ('iswc' in ref) return entry.iswc === ref.iswc
  return entry.upc !== null && gtin14(entry.upc) === gtin14(ref.upc)
}

/** The fields of a line other than its entry, as the mirror check compares them. */
export interface LineFields {
  eventId: string | null
  source: string
  type: RevenueRow['type']
  periodStart: string
  periodEnd: string
  territory: string
  units: bigint
  amount: bigint
  currency: string
}

/** A reversal repeats the original line exactly, with units and amount negated. */
export function checkMirror(original: RevenueRow, line: LineFields): void {
  const expected: Record<keyof LineFields, [unknown, unknown, string]> = {
    eventId: [line.eventId, original.event_id, String(original.event_id)],
    source: [line.source, original.source, original.source],
    type: [line.type, original.type, original.type],
    periodStart: [line.periodStart, original.period_start, original.period_start],
    periodEnd: [line.periodEnd, original.period_end, original.period_end],
    territory: [line.territory, original.territory, original.territory],
    currency: [line.currency, original.currency, original.currency],
    units: [line.units, -original.units, String(-original.units)],
    amount: [line.amount, -original.amount_micros, formatAmount(-original.amount_micros, original.currency)],
  }
  for (const [field, [given, wanted, shown]] of Object.entries(expected)) {
    if (given !== wanted) {
      throw new AppError('unprocessable', `A reversal mirrors ${original.id} exactly: ${field} must be ${shown}`, {
        param: field,
      })
    }
  }
}

/** The validated, normalised fields of a line (shared with the statement import). */
export function lineFields(body: CreateRevenueBody): LineFields {
  const currency = requireCurrency(body.currency)
  if (body.territory !== 'WORLD') requireCountry(body.territory, 'territory')
  if (body.periodStart > body.periodEnd)
    throw new AppError('parameter_invalid', 'periodEnd must not be before periodStart', { param: 'periodEnd' })
  if ((body.type === 'ticket_sale') !== (body.eventId !== undefined)) {
    throw new AppError('parameter_invalid', 'Ticket sales name their eventId, and only ticket sales do', {
      param: 'eventId',
    })
  }
  return {
    eventId: body.eventId ?? null,
    source: body.source.trim(),
    type: body.type,
    periodStart: body.periodStart,
    periodEnd: body.periodEnd,
    territory: body.territory,
    units: BigInt(body.units),
    amount: parseAmount(body.amount, { param: 'amount', places: MICRO_PLACES, zero: false }),
    currency,
  }
}
