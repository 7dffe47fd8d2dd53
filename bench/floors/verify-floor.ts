import { createHash } from 'node:crypto'
import path from 'node:path'
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import pg from 'pg'
import { to as copyTo } from 'pg-copy-streams'

/**
 * The verify floor: an org's chain checked by a command of its own, plainly. The events are
 * read as one binary `COPY` in sequence order (the rows Oeuvre's verifier reads), each event's
 * canonical JSON is written from the stored values (the stored data is the canonical text that
 * was hashed) and hashed, and every stored hash must be what its content and the previous
 * hash give; the chain head must name the last. No threads, no ranges, no seals.
 * Over DATABASE_URL, or PGlite in DATA_DIR when it is empty (`COPY ... TO '/dev/blob'`).
 * Usage: node dist/floors/verify-floor.js <orgId>. Prints `{"events":..,"ok":..}`.
 */
const [orgId] = process.argv.slice(2)
if (!orgId) throw new Error('usage: verify-floor <orgId>')

const GENESIS = `sha256:${'0'.repeat(64)}`
const POSTGRES_EPOCH_MS = 946_684_800_000
const HEADER = 19

let previous = GENESIS
let events = 0
let broken: string | null = null
let pending: Buffer = Buffer.alloc(0)
let headerRead = false

/** One stored event: its canonical text checked against its stored hash and the one before. */
function check(fields: (Buffer | null)[]): void {
  const text = (index: number) => fields[index]!.toString('utf8')
  const sequence = Number(fields[0]!.readBigInt64BE(0))
  const micros = fields[6]!.readBigInt64BE(0)
  const createdAt = new Date(Number(micros / 1000n) + POSTGRES_EPOCH_MS).toISOString()
  const resource = fields[4] === null ? 'null' : `{"id":${JSON.stringify(text(5))},"type":${JSON.stringify(text(4))}}`
  const canonical =
    `{"action":${JSON.stringify(text(2))},"createdAt":"${createdAt}","data":${text(7)},"id":${JSON.stringify(text(1))},` +
    `"orgId":${JSON.stringify(orgId)},"previousHash":"${previous}","resource":${resource},"sequence":${sequence},"userId":${JSON.stringify(text(3))}}`
  const hash = `sha256:${createHash('sha256').update(canonical).digest('hex')}`
  events += 1
  if (broken === null && (sequence !== events || hash !== text(8))) broken = `event ${sequence} does not verify`
  previous = text(8)
}

/** Whole tuples off the front of the bytes received; the rest waits for the next chunk. */
function consume(chunk: Buffer): void {
  let bytes: Buffer = pending.length ? Buffer.concat([pending, chunk]) : chunk
  let at = 0
  if (!headerRead) {
    if (bytes.length < HEADER) {
      pending = bytes
      return
    }
    at = HEADER + bytes.readInt32BE(15)
    headerRead = true
  }
  for (;;) {
    if (bytes.length - at < 2) break
    const count = bytes.readInt16BE(at)
    if (count === -1) {
      at = bytes.length
      break
    }
    const fields: (Buffer | null)[] = []
    let cursor = at + 2
    let whole = true
    for (let field = 0; field < count; field += 1) {
      if (bytes.length - cursor < 4) {
        whole = false
        break
      }
      const length = bytes.readInt32BE(cursor)
      cursor += 4
      if (length === -1) {
        fields.push(null)
        continue
      }
      if (bytes.length - cursor < length) {
        whole = false
        break
      }
      fields.push(bytes.subarray(cursor, cursor + length))
      cursor += length
    }
    if (!whole) break
    check(fields)
    at = cursor
  }
  bytes = bytes.subarray(at)
  pending = Buffer.from(bytes)
}

const EVENTS = (org: string) =>
  `select sequence, id, action, user_id, resource_type, resource_id, created_at, data, hash from org_events
   where org_id = ${pg.escapeLiteral(org)} order by sequence`

/** The head's sequence and hash, read in the same snapshot as the events. */
let head: { sequence: string | number; hash: string } | undefined
if (process.env.DATABASE_URL) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    await client.query('begin isolation level repeatable read')
    await pipeline(
      client.query(copyTo(`copy (${EVENTS(orgId)}) to stdout (format binary)`)),
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          consume(chunk)
          done()
        },
      }),
    )
    head = (
      await client.query<{ sequence: string; hash: string }>(
        'select sequence, hash from org_event_heads where org_id = $1',
        [orgId],
      )
    ).rows[0]
    await client.query('commit')
  } finally {
    await client.end()
  }
} else {
  // Embedded: PGlite in DATA_DIR, its binary COPY handed over as one blob.
  const { PGlite } = await import('@electric-sql/pglite')
  const db = await PGlite.create(path.join(process.env.DATA_DIR ?? './data', 'pglite'))
  try {
    await db.transaction(async (tx) => {
      const copied = await tx.query(`copy (${EVENTS(orgId)}) to '/dev/blob' with (format binary)`)
      consume(Buffer.from(await copied.blob!.arrayBuffer()))
      head = (
        await tx.query<{ sequence: number; hash: string }>(
          'select sequence, hash from org_event_heads where org_id = $1',
          [orgId],
        )
      ).rows[0]
    })
  } finally {
    await db.close()
  }
}
if (broken === null && (Number(head?.sequence) !== events || head?.hash !== previous))
  broken = 'the chain head does not name the last event'
process.stdout.write(`${JSON.stringify({ events, ok: broken === null, broken })}\n`)
