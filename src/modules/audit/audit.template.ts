import { canonicalJson } from '../../platform/canonical-json.js'
import type { Resource } from './audit.service.js'

/**
 * Where the SQL that appends (migration 0007) splices in what only the chain decides.
 * U+0001 never occurs in JSON text (it is escaped as \u0001), so each slot is unambiguous.
 */
export const SLOT = {
  previousHash: '\u0001P',
  sequence: '\u0001S',
  createdAt: '\u0001C',
} as const

/** An event as the appending transaction knows it before the chain is locked. */
export interface PendingEvent {
  id: string
  orgId: string
  action: string
  userId: string
  resource: Resource | null
  /** The data as JSON values (what jsonb gives back). */
  data: unknown
}

const text = (value: string): string => JSON.stringify(value)

/**
 * The event's RFC 8785 text as docs/audit.md hashes it, with slots for previousHash,
 * sequence and createdAt. Canonical member order is fixed by the names (UTF-16 order):
 * action, createdAt, data, id, orgId, previousHash, resource, sequence, userId; strings
 * are written as JSON.stringify writes them, which is what RFC 8785 prescribes.
 */
export function canonicalTemplate(event: PendingEvent): string {
  return (
    `{"action":${text(event.action)},"createdAt":"${SLOT.createdAt}","data":${canonicalJson(event.data)},"id":${text(event.id)},` +
    `"orgId":${text(event.orgId)},"previousHash":"${SLOT.previousHash}","resource":${canonicalJson(event.resource)},` +
    `"sequence":${SLOT.sequence},"userId":${text(event.userId)}}`
  )
}

/** What the SQL does to a template, in JavaScript: tests hold both templates to the reference functions with it. */
export function fillSlots(template: string, values: Partial<Record<keyof typeof SLOT, string>>): string {
  let filled = template
  for (const [name, slot] of Object.entries(SLOT) as [keyof typeof SLOT, string][]) {
    const value = values[name]
    if (value !== undefined) filled = filled.replaceAll(slot, value)
  }
  return filled
}
