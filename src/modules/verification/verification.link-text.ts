import { eventHash } from '../audit/index.js'

/**
 * An event's canonical text (docs/audit.md) as LinkChecker writes it from stored bytes: its
 * fixed parts and its time as bytes (the fast path), and the recipe itself for a link whose
 * stored bytes do not hash as they stand (the slow path).
 */

/** Microseconds from the Unix epoch to PostgreSQL's (2000-01-01T00:00:00Z), in milliseconds. */
const POSTGRES_EPOCH_MS = 946_684_800_000
export const TWO_32 = 2 ** 32

export const SHA256_PREFIX = 'sha256:'

/** The fixed parts of an event's canonical text (docs/audit.md), between the stored values. */
export const PART = {
  action: Buffer.from('{"action":"'),
  createdAt: Buffer.from('","createdAt":"'),
  data: Buffer.from('","data":'),
  id: Buffer.from(',"id":"'),
  orgId: Buffer.from('","orgId":'),
  previousHash: Buffer.from(',"previousHash":"'),
  resource: Buffer.from('","resource":{"id":"'),
  resourceType: Buffer.from('","type":"'),
  resourceEnd: Buffer.from('"},"sequence":'),
  noResource: Buffer.from('","resource":null,"sequence":'),
  userId: Buffer.from(',"userId":"'),
  end: Buffer.from('"}'),
}

/** A stored event as the recipe's slow path reads it (every value as text). */
export interface StoredLink {
  id: string
  action: string
  userId: string
  resourceType: string | null
  resourceId: string | null
  createdAt: string
  data: string
  hash: string
}

/** Whether JSON.stringify writes these bytes (UTF-8) unchanged between quotes: no control character, quote or backslash. */
export function verbatim(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i += 1) {
    const byte = bytes[i]!
    if (byte < 0x20 || byte === 0x22 || byte === 0x5c) return false
  }
  return true
}

/** `000Z` to `999Z`: the end of an ISO 8601 time, by millisecond, as text and as bytes. */
const MILLISECOND_ENDINGS = Array.from({ length: 1000 }, (_, ms) => `${String(ms).padStart(3, '0')}Z`)
/** The same, each followed by the text up to the data (`000Z","data":`). */
export const MILLISECOND_DATA_BYTES = MILLISECOND_ENDINGS.map((ending) =>
  Buffer.concat([Buffer.from(ending), PART.data]),
)

/**
 * The ISO 8601 text the API prints (`iso_utc`: milliseconds, truncated) of binary timestamptz
 * values. The text up to the second is kept from the last one read (events come in time
 * order), as bytes too, so a link's text is written without building a string.
 */
export class IsoTimes {
  private second = Number.NaN
  /** `YYYY-MM-DDTHH:MM:SS.` of the last time read, as text. */
  private head = ''
  /** The same as bytes, after the canonical text's `","createdAt":"`, as a link's text has them. */
  createdAtRun = Buffer.alloc(0)
  /** The last time's millisecond within its second; -1 when it is out of Date's range (no event was ever written so). */
  millisecond = 0
  private invalid = ''

  read(bytes: Buffer, at: number): void {
    const micros = bytes.readInt32BE(at) * TWO_32 + bytes.readUInt32BE(at + 4)
    const ms = Math.floor(micros / 1000) + POSTGRES_EPOCH_MS
    const second = Math.floor(ms / 1000)
    if (second !== this.second) {
      const date = new Date(second * 1000)
      if (Number.isNaN(date.getTime())) {
        this.millisecond = -1
        this.invalid = `invalid time ${micros}`
        return
      }
      this.second = second
      this.head = date.toISOString().slice(0, -4)
      this.createdAtRun = Buffer.concat([PART.createdAt, Buffer.from(this.head)])
    }
    this.millisecond = ms - second * 1000
  }

  /** The last time read, as text. */
  text(): string {
    return this.millisecond < 0 ? this.invalid : this.head + MILLISECOND_ENDINGS[this.millisecond]!
  }
}

/** The recipe's answer for one stored event: null when its hash is right, else why not. */
export function recipeMismatch(orgId: string, link: StoredLink, sequence: number, previousHash: string): string | null {
  let recomputed: string
  try {
    recomputed = eventHash(
      {
        id: link.id,
        orgId,
        sequence,
        action: link.action,
        userId: link.userId,
        createdAt: link.createdAt,
        resource: link.resourceType && link.resourceId ? { type: link.resourceType, id: link.resourceId } : null,
        data: JSON.parse(link.data) as unknown,
      },
      previousHash,
    )
  } catch (error) {
    return `its content cannot be canonicalised: ${error instanceof Error ? error.message : String(error)}`
  }
  return recomputed === link.hash ? null : `hash mismatch: stored ${link.hash}, recomputed ${recomputed}`
}
