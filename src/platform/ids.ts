import { randomBytes } from 'node:crypto'
import { monotonicFactory } from 'ulid'
import type { Region } from '../config.js'
import type { Clock } from './clock.js'
import { REGION_MARKS } from './region.js'

export const ID_PREFIXES = {
  org: 'org',
  user: 'usr',
  event: 'evt',
  catalog: 'cat',
  creator: 'crt',
  revenue: 'rev',
  payout: 'po',
  batch: 'bat',
  ticketedEvent: 'tev',
  client: 'cli',
  webhook: 'whk',
  delivery: 'whd',
  invitation: 'inv',
  seal: 'seal',
  partner: 'prt',
  reviewRequest: 'prq',
  email: 'eml',
  passwordReset: 'prr',
  request: 'req',
} as const

export type IdKind = keyof typeof ID_PREFIXES
export type IdPrefix = (typeof ID_PREFIXES)[IdKind]

const ULID_BODY = '[0-9A-HJKMNP-TV-Z]{26}'

export function idPattern(prefix: IdPrefix): string {
  return `^${prefix}_${ULID_BODY}$`
}

export function isId(prefix: IdPrefix, value: string): boolean {
  return new RegExp(idPattern(prefix)).test(value)
}

export interface IdGenerator {
  next(kind: IdKind): string
  /** A new secret of this deployment's region (newSecret). */
  secret(prefix: SecretPrefix): string
}

/** Random bytes fetched from the CSPRNG this many at a time. */
const RANDOM_POOL_BYTES = 4096

/**
 * ulid's default source asks the CSPRNG for one byte per character, a system call each
 * (16 per new millisecond). This hands out bytes from a pool refilled in one call.
 */
export function pooledRandom(): () => number {
  let pool = randomBytes(RANDOM_POOL_BYTES)
  let next = 0
  return () => {
    if (next === pool.length) {
      pool = randomBytes(RANDOM_POOL_BYTES)
      next = 0
    }
    return pool[next++]! / 256
  }
}

/** `size` random bytes from a pool refilled from the CSPRNG 4 KiB at a time (for identifiers, never for secrets). */
export function pooledBytes(): (size: number) => Buffer {
  let pool = randomBytes(RANDOM_POOL_BYTES)
  let next = 0
  return (size) => {
    if (next + size > pool.length) {
      pool = randomBytes(RANDOM_POOL_BYTES)
      next = 0
    }
    next += size
    return pool.subarray(next - size, next)
  }
}

/**
 * Prefixed ULIDs: time-sortable, monotonic within one process even inside one millisecond.
 * With a region, the first character names it (src/platform/region.ts); ids stay time-sorted
 * among the region's own.
 */
export function createIdGenerator(clock: Clock, region?: Region): IdGenerator {
  const ulid = monotonicFactory(pooledRandom())
  const mark = region === undefined ? '' : REGION_MARKS[region].idChar
  return {
    next: (kind) => {
      const body = ulid(clock.now().getTime())
      return `${ID_PREFIXES[kind]}_${mark === '' ? body : mark + body.slice(1)}`
    },
    secret: (prefix) => newSecret(prefix, region),
  }
}

export type SecretPrefix = 'sess_' | 'oat_' | 'cs_test_' | 'cs_live_' | 'whsec_' | 'invt_' | 'pwr_'

/**
 * A secret with its own recognisable prefix and 256 bits of randomness; with a region, its tag
 * follows the prefix (`sess_euw_...`) so that another region's deployment recognises it.
 */
export function newSecret(prefix: SecretPrefix, region?: Region): string {
  const tag = region === undefined ? '' : `${REGION_MARKS[region].tag}_`
  return prefix + tag + randomBytes(32).toString('base64url')
}
