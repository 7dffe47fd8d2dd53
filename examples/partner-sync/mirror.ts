import { readFile, rename, writeFile } from 'node:fs/promises'
import type { CatalogEntry, OrgEvent, RevenueEntry } from '@oeuvre/sdk'

/**
 * The partner's copy of one org's catalog and revenue, kept in a JSON file with the feed
 * cursor it is current to. Applying an event is idempotent (records are keyed by id), so an
 * event that arrives twice (by webhook and by the feed, or redelivered) changes nothing.
 */
export interface MirrorState {
  orgId: string
  /** The feed cursor after the last page applied: where the next catch-up starts. */
  cursor: string | null
  /** The highest event sequence applied, by either way. */
  sequence: number
  catalog: Record<string, CatalogEntry>
  revenue: Record<string, RevenueEntry>
  /** The endpoint this integration registered for its webhooks. */
  webhook: { id: string; secret: string; url: string } | null
}

export function emptyMirror(orgId: string): MirrorState {
  return { orgId, cursor: null, sequence: 0, catalog: {}, revenue: {}, webhook: null }
}

export async function loadMirror(file: string, orgId: string): Promise<MirrorState> {
  try {
    const state = JSON.parse(await readFile(file, 'utf8')) as MirrorState
    if (state.orgId !== orgId) throw new Error(`${file} mirrors ${state.orgId}, not ${orgId}`)
    return state
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyMirror(orgId)
    throw error
  }
}

/** Written whole to a temporary file and renamed over the old one: a crash never leaves half a file. */
export async function saveMirror(file: string, state: MirrorState): Promise<void> {
  await writeFile(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`)
  await rename(`${file}.tmp`, file)
}

/** What an event changes in the mirror; false when it is not about the catalog or revenue. */
export function applyEvent(state: MirrorState, event: OrgEvent): boolean {
  state.sequence = Math.max(state.sequence, event.sequence)
  switch (event.action) {
    case 'catalog.created':
    case 'catalog.superseded': {
      // Both carry the entry as it is after the change (a superseded one names its successor).
      const entry = event.data as CatalogEntry
      state.catalog[entry.id] = entry
      return true
    }
    case 'revenue.created': {
      const line = event.data as RevenueEntry
      state.revenue[line.id] = line
      return true
    }
    default:
      return false
  }
}

/** Revenue per currency, summed exactly (decimal strings as micro-units, never floats). */
export function revenueTotals(state: MirrorState): Record<string, string> {
  const sums = new Map<string, bigint>()
  for (const line of Object.values(state.revenue))
    sums.set(line.currency, (sums.get(line.currency) ?? 0n) + microUnits(line.amount))
  return Object.fromEntries([...sums].sort(([a], [b]) => a.localeCompare(b)).map(([c, sum]) => [c, decimal(sum)]))
}

export function microUnits(amount: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(amount)
  if (!match) throw new Error(`not a decimal amount: ${amount}`)
  const units = BigInt(match[2]!) * 1_000_000n + BigInt((match[3] ?? '').padEnd(6, '0'))
  return match[1] ? -units : units
}

export function decimal(micro: bigint): string {
  const sign = micro < 0n ? '-' : ''
  const absolute = micro < 0n ? -micro : micro
  const fraction = (absolute % 1_000_000n)
    .toString()
    .padStart(6, '0')
    .replace(/0{1,4}$/, '')
  return `${sign}${absolute / 1_000_000n}.${fraction}`
}
