import { hash } from 'node:crypto'
import { jsonString } from '../../platform/canonical-json.js'
import {
  IsoTimes,
  MILLISECOND_DATA_BYTES,
  PART,
  recipeMismatch,
  SHA256_PREFIX,
  TWO_32,
  verbatim,
  type StoredLink,
} from './verification.link-text.js'

/**
 * Checking chain links straight from PostgreSQL's binary COPY output: each event's canonical
 * text (docs/audit.md; its parts in verification.link-text.ts) is written from the stored bytes
 * into one reused buffer and hashed,
 * with no row objects, no JSON parsing and no strings but the digest. Since migration 0009 the
 * stored data is the canonical text that was hashed, so it is copied as it stands; a row whose
 * bytes do not hash to its stored hash (a row older than 0009, whose data is jsonb's text form,
 * or a changed one) is then checked again by the recipe itself, parsing and canonicalising.
 */

/** The columns a link needs, in the order `readLinks` expects them. */
const LINK_COLUMNS = 'sequence, id, action, user_id, resource_type, resource_id, created_at, data, hash'
const FIELDS = 9
const [SEQUENCE, ID, ACTION, USER_ID, RESOURCE_TYPE, RESOURCE_ID, CREATED_AT, DATA, HASH] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8,
] as const

/** The query whose binary COPY a LinkChecker reads: one org's events `from`..`to`, in sequence order. */
export function linkQuery(orgIdLiteral: string, from: number, to: number): string {
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) throw new Error('sequence bounds must be whole numbers')
  return `select ${LINK_COLUMNS} from org_events where org_id = ${orgIdLiteral} and sequence >= ${from} and sequence <= ${to} order by sequence`
}

/** The 11-byte signature, flags and header extension length that open a binary COPY. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')
const HEADER_BYTES = SIGNATURE.length + 8

/** Where a walk stands: the last sequence verified and its stored hash, or the first broken link it met. */
export interface LinkState {
  verified: number
  previousHash: string
  broken: { sequence: number; eventId: string | null; reason: string } | null
}

/**
 * Reads a binary COPY of `linkQuery` chunk by chunk and checks each link against the stored
 * hash of the one before it, from `start`. It stops checking at the first broken link (a gap
 * in the sequence, or a hash that the recipe does not give); the rest of the output is read
 * and ignored, so the connection ends the COPY cleanly.
 */
export class LinkChecker {
  verified: number
  broken: LinkState['broken'] = null
  /** Links whose stored bytes did not hash as they stand and were checked by parsing and canonicalising. */
  linksByRecipe = 0
  private readonly orgId: string
  private readonly orgIdJson: Buffer
  /** The text from the id's closing quote to the previous hash's opening one: the same in every link of the org. */
  private readonly orgRun: Buffer
  private pending: Buffer | null = null
  private headerRead = false
  private ended = false
  private readonly times = new IsoTimes()
  /** Where each field of the row being read starts, and its length (-1: NULL). */
  private readonly starts = new Array<number>(FIELDS).fill(0)
  private readonly lengths = new Array<number>(FIELDS).fill(0)
  /** The canonical text being built (grown when an event's data needs more room). */
  private text = Buffer.allocUnsafe(16 * 1024)
  private length = 0
  /** The stored hash of the last link checked, as bytes, and whether it is written verbatim in JSON. */
  private previous: Buffer
  private previousVerbatim: boolean

  constructor(orgId: string, start: { verified: number; previousHash: string }) {
    this.orgId = orgId
    this.orgIdJson = Buffer.from(jsonString(orgId))
    this.orgRun = Buffer.concat([PART.orgId, this.orgIdJson, PART.previousHash])
    this.verified = start.verified
    this.previous = Buffer.from(start.previousHash)
    this.previousVerbatim = verbatim(this.previous, 0, this.previous.length)
  }

  /**
   * Checks every whole row in `bytes[start..end)`, the next piece of the output; a row cut by
   * its end waits for the next piece. The bytes are read in place, not kept.
   */
  push(bytes: Buffer, start = 0, end = bytes.length): void {
    if (this.ended) throw new Error('binary COPY output after its trailer')
    let at = start
    if (this.pending) {
      at = this.joinPending(bytes, start, end)
      if (at < 0) return
    }
    at = this.read(bytes, at, end)
    if (at < end) {
      if (this.ended) throw new Error('binary COPY output after its trailer')
      // Copied (a row's worth at most): the bytes may be reused by whoever handed them over.
      this.pending = Buffer.from(bytes.subarray(at, end))
    }
  }

  /**
   * Reads the row cut by the last piece's end, joined with as little of this piece as completes
   * it (the piece itself is read in place, not copied); where the rest of the piece starts, or
   * -1 when all of it went to the cut row, which is still not whole.
   */
  private joinPending(bytes: Buffer, start: number, end: number): number {
    const pending = this.pending!
    const available = end - start
    for (let take = Math.min(available, 4096); ; take = Math.min(available, take * 4)) {
      const joined = Buffer.concat([pending, bytes.subarray(start, start + take)])
      const used = this.read(joined, 0, joined.length)
      // A whole row (or the header) now, so past what was pending: the rest is read from the piece.
      if (used > 0) {
        this.pending = null
        if (used < joined.length && this.ended) throw new Error('binary COPY output after its trailer')
        return start + used - pending.length
      }
      if (take === available) {
        this.pending = joined
        return -1
      }
    }
  }

  /** Reads the header if still due, then every whole row of `bytes[from..end)`, up to the trailer; where reading stopped. */
  private read(bytes: Buffer, from: number, end: number): number {
    let at = from
    if (!this.headerRead) {
      if (end - at < HEADER_BYTES) return at
      if (!bytes.subarray(at, at + SIGNATURE.length).equals(SIGNATURE)) throw new Error('not a binary COPY output')
      const extension = bytes.readUInt32BE(at + SIGNATURE.length + 4)
      if (end - at < HEADER_BYTES + extension) return at
      at += HEADER_BYTES + extension
      this.headerRead = true
    }
    const starts = this.starts
    const lengths = this.lengths
    while (at + 2 <= end) {
      const fields = bytes.readInt16BE(at)
      if (fields === -1) {
        this.ended = true
        return at + 2
      }
      if (fields !== FIELDS) throw new Error(`a binary COPY row of ${fields} fields, not ${FIELDS}`)
      let cursor = at + 2
      for (let field = 0; field < FIELDS; field += 1) {
        if (cursor + 4 > end) return at
        const length = bytes.readInt32BE(cursor)
        cursor += 4
        if (length > 0 && cursor + length > end) return at
        starts[field] = cursor
        lengths[field] = length
        if (length > 0) cursor += length
      }
      if (this.broken === null) this.check(bytes, starts, lengths)
      at = cursor
    }
    return at
  }

  /** The stored hash of the last link checked (the start's previousHash before any). */
  get previousHash(): string {
    return this.previous.toString('utf8')
  }

  /** Throws unless the whole output, trailer included, was read. */
  finish(): LinkState {
    if (!this.ended && this.broken === null) throw new Error('binary COPY output ended without its trailer')
    return { verified: this.verified, previousHash: this.previousHash, broken: this.broken }
  }

  private check(bytes: Buffer, starts: number[], lengths: number[]): void {
    const expected = this.verified + 1
    if (
      lengths[SEQUENCE] !== 8 ||
      lengths[CREATED_AT] !== 8 ||
      lengths[ID]! < 0 ||
      lengths[ACTION]! < 0 ||
      lengths[USER_ID]! < 0 ||
      lengths[DATA]! < 0 ||
      lengths[HASH]! < 0
    ) {
      throw new Error('a binary COPY row not of the org_events link columns')
    }
    const sequence = bytes.readInt32BE(starts[SEQUENCE]!) * TWO_32 + bytes.readUInt32BE(starts[SEQUENCE]! + 4)
    if (sequence !== expected) {
      this.broken = {
        sequence: expected,
        eventId: null,
        reason: `event ${expected} is missing (next present is ${sequence})`,
      }
      return
    }
    this.times.read(bytes, starts[CREATED_AT]!)
    const hashStart = starts[HASH]!
    const hashEnd = hashStart + lengths[HASH]!
    if (!this.hashesAsStored(bytes, starts, lengths, sequence, hashStart, hashEnd)) {
      this.linksByRecipe += 1
      const link = this.decode(bytes, starts, lengths, this.times.text())
      const reason = recipeMismatch(this.orgId, link, sequence, this.previousHash)
      if (reason) {
        this.broken = { sequence, eventId: link.id, reason }
        return
      }
    }
    this.verified = sequence
    this.remember(bytes, hashStart, hashEnd)
  }

  /** Whether the event's canonical text, written from the stored bytes as they stand, hashes to the stored hash. */
  private hashesAsStored(
    bytes: Buffer,
    starts: number[],
    lengths: number[],
    sequence: number,
    hashStart: number,
    hashEnd: number,
  ): boolean {
    const hasResource = lengths[RESOURCE_TYPE]! > 0 && lengths[RESOURCE_ID]! > 0
    if (!this.previousVerbatim || hashEnd - hashStart !== SHA256_PREFIX.length + 64 || this.times.millisecond < 0)
      return false
    this.length = 0
    this.reserve(
      lengths[DATA]! +
        lengths[ID]! +
        lengths[ACTION]! +
        lengths[USER_ID]! +
        Math.max(0, lengths[RESOURCE_TYPE]!) +
        Math.max(0, lengths[RESOURCE_ID]!) +
        this.previous.length +
        this.orgIdJson.length +
        256,
    )
    // The text fields are checked to need no JSON escape as they are copied (else: the recipe).
    this.constant(PART.action)
    if (!this.verbatimField(bytes, starts, lengths, ACTION)) return false
    this.constant(this.times.createdAtRun)
    this.constant(MILLISECOND_DATA_BYTES[this.times.millisecond]!)
    this.field(bytes, starts, lengths, DATA)
    this.constant(PART.id)
    if (!this.verbatimField(bytes, starts, lengths, ID)) return false
    this.constant(this.orgRun)
    this.constant(this.previous)
    if (hasResource) {
      this.constant(PART.resource)
      if (!this.verbatimField(bytes, starts, lengths, RESOURCE_ID)) return false
      this.constant(PART.resourceType)
      if (!this.verbatimField(bytes, starts, lengths, RESOURCE_TYPE)) return false
      this.constant(PART.resourceEnd)
    } else {
      this.constant(PART.noResource)
    }
    this.ascii(String(sequence))
    this.constant(PART.userId)
    if (!this.verbatimField(bytes, starts, lengths, USER_ID)) return false
    this.constant(PART.end)
    // A plain view: cheaper to make than a Buffer's subarray, once per event.
    const digest = hash('sha256', new Uint8Array(this.text.buffer, this.text.byteOffset, this.length), 'hex')
    // The stored `sha256:<hex>` compared in place, without decoding it or making a string of it.
    for (let i = 0; i < SHA256_PREFIX.length; i += 1)
      if (bytes[hashStart + i] !== SHA256_PREFIX.charCodeAt(i)) return false
    const hexStart = hashStart + SHA256_PREFIX.length
    for (let i = 0; i < 64; i += 1) if (bytes[hexStart + i] !== digest.charCodeAt(i)) return false
    return true
  }

  private decode(bytes: Buffer, starts: number[], lengths: number[], createdAt: string): StoredLink {
    const text = (field: number): string | null =>
      lengths[field]! < 0 ? null : bytes.toString('utf8', starts[field]!, starts[field]! + lengths[field]!)
    return {
      id: text(ID)!,
      action: text(ACTION)!,
      userId: text(USER_ID)!,
      resourceType: text(RESOURCE_TYPE),
      resourceId: text(RESOURCE_ID),
      createdAt,
      data: text(DATA)!,
      hash: text(HASH)!,
    }
  }

  /** The link just checked becomes the previous one: its stored hash is the next link's previousHash. */
  private remember(bytes: Buffer, start: number, end: number): void {
    if (this.previous.length !== end - start) this.previous = Buffer.allocUnsafe(end - start)
    bytes.copy(this.previous, 0, start, end)
    // A link is kept only when its stored hash is the `sha256:<lowercase hex>` computed for it: no escapes.
    this.previousVerbatim = true
  }

  private reserve(bytes: number): void {
    if (this.text.length < bytes) this.text = Buffer.allocUnsafe(Math.max(bytes, this.text.length * 2))
  }

  /** Text of one-byte characters (digits, times). */
  private ascii(value: string): void {
    const text = this.text
    let to = this.length
    for (let i = 0; i < value.length; i += 1) text[to++] = value.charCodeAt(i)
    this.length = to
  }

  private constant(part: Buffer): void {
    this.copy(part, 0, part.length)
  }

  /** Copies a text field, unless a byte of it needs a JSON escape (false: nothing more is written). */
  private verbatimField(bytes: Buffer, starts: number[], lengths: number[], field: number): boolean {
    const length = lengths[field]!
    if (length <= 0) return true
    const text = this.text
    const start = starts[field]!
    const end = start + length
    let to = this.length
    for (let i = start; i < end; i += 1) {
      const byte = bytes[i]!
      if (byte < 0x20 || byte === 0x22 || byte === 0x5c) return false
      text[to++] = byte
    }
    this.length = to
    return true
  }

  private field(bytes: Buffer, starts: number[], lengths: number[], field: number): void {
    const length = lengths[field]!
    if (length > 0) this.copy(bytes, starts[field]!, starts[field]! + length)
  }

  private copy(source: Buffer, start: number, end: number): void {
    const length = end - start
    // A short field copied byte by byte beats a native copy's call (about 50 ns, whatever the length).
    if (length <= 40) {
      const text = this.text
      let to = this.length
      for (let i = start; i < end; i += 1) text[to++] = source[i]!
    } else {
      source.copy(this.text, this.length, start, end)
    }
    this.length += length
  }
}
