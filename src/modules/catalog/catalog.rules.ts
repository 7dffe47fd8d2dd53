import { AppError } from '../../platform/errors.js'
import { WHOLE_BPS } from '../../shared/money/money.allocation.js'
import {
  normaliseIsrc,
  normaliseIswc,
  normaliseUpc,
  requireIdentifier,
  territoriesProblem,
} from '../../shared/records/records.identifiers.js'
import type { CreateCatalogBody, Split } from './catalog.schemas.js'

export interface NormalisedIdentifiers {
  isrc: string | null
  iswc: string | null
  upc: string | null
}

const KIND_OF: Record<keyof NormalisedIdentifiers, CreateCatalogBody['kind']> = {
  isrc: 'recording',
  iswc: 'work',
  upc: 'release',
}

/** Validates each identifier against its kind and check digit; returns the normalised forms. */
export function normaliseIdentifiers(
  kind: CreateCatalogBody['kind'],
  given: CreateCatalogBody['identifiers'],
): NormalisedIdentifiers {
  const identifiers = given ?? {}
  for (const name of ['isrc', 'iswc', 'upc'] as const) {
    if (identifiers[name] !== undefined && KIND_OF[name] !== kind) {
      throw new AppError(
        'parameter_invalid',
        `identifiers.${name} applies to ${KIND_OF[name]}s only, not to a ${kind}`,
        { param: `identifiers.${name}` },
      )
    }
  }
  return {
    isrc:
      identifiers.isrc === undefined
        ? null
        : requireIdentifier(identifiers.isrc, normaliseIsrc, 'identifiers.isrc', 'ISRC (CC-XXX-YY-NNNNN)'),
    iswc:
      identifiers.iswc === undefined
        ? null
        : requireIdentifier(
            identifiers.iswc,
            normaliseIswc,
            'identifiers.iswc',
            'ISWC (T-DDD.DDD.DDD-C with its check digit)',
          ),
    upc:
      identifiers.upc === undefined
        ? null
        : requireIdentifier(
            identifiers.upc,
            normaliseUpc,
            'identifiers.upc',
            'UPC/EAN (12-14 digits with a valid check digit)',
          ),
  }
}

export function requireTerritories(territories: readonly string[]): string[] {
  const problem = territoriesProblem(territories)
  if (problem) throw new AppError('parameter_invalid', problem, { param: 'territories' })
  return [...territories]
}

/** Splits are whole: basis points summing to exactly 10000, each creator and role once. */
export function checkSplitShape(splits: readonly Split[]): void {
  const total = splits.reduce((sum, split) => sum + split.shareBps, 0)
  if (total !== WHOLE_BPS) {
    throw new AppError('splits_invalid', `splits sum to ${total} basis points; they must sum to exactly ${WHOLE_BPS}`, {
      param: 'splits',
    })
  }
  const seen = new Set<string>()
  for (const [index, split] of splits.entries()) {
    const key = `${split.creatorId} ${split.role}`
    if (seen.has(key)) {
      throw new AppError('splits_invalid', `splits name ${split.creatorId} as ${split.role} twice; merge the shares`, {
        param: `splits.${index}`,
      })
    }
    seen.add(key)
  }
}

/** Every creator in the splits must be one of the org's own. */
export function checkSplitCreators(splits: readonly Split[], known: ReadonlySet<string>): void {
  const index = splits.findIndex((split) => !known.has(split.creatorId))
  if (index >= 0) {
    throw new AppError(
      'splits_invalid',
      `splits.${index}.creatorId ${splits[index]!.creatorId} is not a creator of this org`,
      {
        param: `splits.${index}.creatorId`,
      },
    )
  }
}
