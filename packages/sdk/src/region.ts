/** The regions Oeuvre deployments serve. */
export type Region = 'us-east' | 'eu-west' | 'au-east'

// How the service marks what it issues (docs/residency.md): an id's first ULID character, a secret's tag.
const BY_ID_CHAR: Record<string, Region> = { '1': 'us-east', '2': 'eu-west', '3': 'au-east' }
const BY_TAG: Record<string, Region> = { use: 'us-east', euw: 'eu-west', aue: 'au-east' }
const MARKED_ID = /^[a-z]{2,5}_([0-9A-HJKMNP-TV-Z])[0-9A-HJKMNP-TV-Z]{25}$/
const MARKED_SECRET = /^(?:sess|oat|cs_test|cs_live|invt)_(use|euw|aue)_/

/**
 * The region an id (`org_2...`, `cli_1...`) or a secret (`cs_test_euw_...`, `oat_use_...`) was
 * issued in, or undefined when it carries none (made before regions were marked).
 */
export function regionOf(value: string): Region | undefined {
  const secret = MARKED_SECRET.exec(value)
  if (secret) return BY_TAG[secret[1]!]
  const id = MARKED_ID.exec(value)
  return id ? BY_ID_CHAR[id[1]!] : undefined
}
