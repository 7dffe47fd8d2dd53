import { canonicalJson } from '../../platform/canonical-json.js'
import type { Resource } from './audit.schemas.js'

/**
 * Where the SQL that appends (migrations 0007, 0010) splices in what only the chain decides,
 * and the event's data, which travels beside its template (the stored data is the text sent,
 * not cut back out of the event's text). U+0001 never occurs in JSON text (it is escaped as
 * \u0001), so each slot is unambiguous.
 */
export const SLOT = {
  previousHash: '\u0001P',
  sequence: '\u0001S',
  createdAt: '\u0001C',
  data: '\u0001D',
} as const

/** An event as the appending transaction knows it before the chain is locked. */
export interface PendingEvent {
  id: string
  orgId: string
  action: string
  userId: string
  resource: Resource | null
  /** The data's RFC 8785 text, as JSON gives the data back (`canonicalJsonOfJson`), taken when it was staged. */
  dataText: string
}

/**
 * What separates the templates (or the data texts) of a run in the one text the appending SQL
 * splits (`string_to_array(..., chr(2))`): U+0002 never occurs in one, JSON escapes it and the
 * slots use U+0001. One text needs no escaping, where an array literal needs a backslash
 * before every quote of every text (about 7 µs per event here, and array_in's parsing).
 */
export const RUN_TEXT_SEPARATOR = '\u0002'

/** A run's templates, or its data texts, as the one text the appending SQL splits. */
export function joinRunTexts(texts: readonly string[]): string {
  const joined = texts.join(RUN_TEXT_SEPARATOR)
  // Counted in the one text (a search of flat bytes) rather than in each text first.
  let separators = 0
  for (let at = joined.indexOf(RUN_TEXT_SEPARATOR); at !== -1; at = joined.indexOf(RUN_TEXT_SEPARATOR, at + 1))
    separators += 1
  if (separators !== Math.max(0, texts.length - 1)) throw new Error('an event template or data text holds U+0002')
  return joined
}

const text = (value: string): string => JSON.stringify(value)

/**
 * The event's RFC 8785 text as docs/audit.md hashes it, with slots for previousHash,
 * sequence, createdAt and the data (its `dataText`, sent beside the template). Canonical
 * member order is fixed by the names (UTF-16 order): action, createdAt, data, id, orgId,
 * previousHash, resource, sequence, userId; strings
 * are written as JSON.stringify writes them, which is what RFC 8785 prescribes.
 */
export function canonicalTemplate(event: PendingEvent): string {
  return (
    `{"action":${text(event.action)},"createdAt":"${SLOT.createdAt}","data":${SLOT.data},"id":${text(event.id)},` +
    `"orgId":${text(event.orgId)},"previousHash":"${SLOT.previousHash}","resource":${canonicalJson(event.resource)},` +
    `"sequence":${SLOT.sequence},"userId":${text(event.userId)}}`
  )
}

/** What the SQL does to a template, in JavaScript: tests hold both templates to the reference functions with it. */
export function fillSlots(template: string, values: Partial<Record<keyof typeof SLOT, string>>): string {
  let filled = template
  for (const [name, slot] of Object.entries(SLOT) as [keyof typeof SLOT, string][]) {
    const value = values[name]
    // A function, so the value is spliced in as it is: a replacement string would read `$&`, `$'` and the like in it as patterns, which SQL's replace() does not.
    if (value !== undefined) filled = filled.replaceAll(slot, () => value)
  }
  return filled
}
