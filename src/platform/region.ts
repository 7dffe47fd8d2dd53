import type { Config, Region } from '../config.js'
import { AppError } from './errors.js'

/**
 * How a deployment tells, without asking any other region, that an id or a credential was
 * issued elsewhere: every id and secret it issues carries its region.
 *
 * - Ids (`org_2...`): the first character of the 26-character opaque part names the region.
 *   A ULID's first character encodes the top bits of its millisecond time, which are 0 until the
 *   year 3084; a deployment sets it to its region's digit, so its own ids still sort by time.
 *   Ids made before regions were marked start with 0 and belong to no other region.
 * - Secrets (`sess_euw_...`, `oat_`, `cs_test_`, `cs_live_`, `invt_`): a three-letter tag after
 *   the kind's prefix.
 */
export const REGION_MARKS: Readonly<Record<Region, { idChar: string; tag: string }>> = {
  'us-east': { idChar: '1', tag: 'use' },
  'eu-west': { idChar: '2', tag: 'euw' },
  'au-east': { idChar: '3', tag: 'aue' },
}

const REGION_BY_ID_CHAR = new Map(Object.entries(REGION_MARKS).map(([region, mark]) => [mark.idChar, region as Region]))
const REGION_BY_TAG = new Map(Object.entries(REGION_MARKS).map(([region, mark]) => [mark.tag, region as Region]))

const MARKED_ID = /^[a-z]{2,5}_([0-9A-HJKMNP-TV-Z])[0-9A-HJKMNP-TV-Z]{25}$/
const MARKED_SECRET = /^(?:sess|oat|cs_test|cs_live|invt)_(use|euw|aue)_/

/** The region an id was issued in, or null when it carries none (or is not an id). */
export function regionOfId(value: string): Region | null {
  const match = MARKED_ID.exec(value)
  return match ? (REGION_BY_ID_CHAR.get(match[1]!) ?? null) : null
}

/** The region a session token, access token, client secret or invitation token was issued in. */
export function regionOfSecret(value: string): Region | null {
  const match = MARKED_SECRET.exec(value)
  return match ? (REGION_BY_TAG.get(match[1]!) ?? null) : null
}

/** The region of any value a request presents: an id or a secret. */
export function regionOf(value: string): Region | null {
  return regionOfSecret(value) ?? regionOfId(value)
}

/** 421 wrong_region, naming the region and its deployment's base URL when configured. */
export function wrongRegion(config: Pick<Config, 'region' | 'regionUrls'>, region: Region, what: string): AppError {
  const baseUrl = config.regionUrls[region]
  return new AppError(
    'wrong_region',
    `${what} belongs to the ${region} region; this deployment serves ${config.region}. ` +
      (baseUrl ? `Send the request to ${baseUrl}` : `Send it to the ${region} deployment`),
    { extra: { region, ...(baseUrl ? { baseUrl } : {}) } },
  )
}

/**
 * Throws 421 when `value` was issued in another region than this deployment's.
 * Values of this region, or carrying no region, pass.
 */
export function requireHomeRegion(config: Pick<Config, 'region' | 'regionUrls'>, value: string, what: string): void {
  const region = regionOf(value)
  if (region !== null && region !== config.region) throw wrongRegion(config, region, what)
}
