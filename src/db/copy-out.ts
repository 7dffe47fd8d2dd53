import type pg from 'pg'

/**
 * `COPY ... TO STDOUT` read straight off the wire protocol: each CopyData message's payload
 * handed over where it lies in the bytes received (`bytes[start..end)`), not copied into a
 * stream's chunks. PostgreSQL sends one row per CopyData message, so for a long COPY the
 * framing is most of the reading work.
 */
export type CopyDataHandler = (bytes: Buffer, start: number, end: number) => void

const COPY_DATA = 0x64 // d
const COPY_DONE = 0x63 // c
const ERROR_RESPONSE = 0x45 // E

/** The message field (M) of an ErrorResponse's fields. */
function errorMessage(fields: Buffer): string {
  for (let at = 0; at < fields.length && fields[at] !== 0;) {
    const end = fields.indexOf(0, at + 1)
    if (fields[at] === 0x4d /* M */) return fields.toString('utf8', at + 1, end)
    at = end + 1
  }
  return 'COPY failed'
}

/** A simple-protocol Query message. */
function queryMessage(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`)
  const message = Buffer.allocUnsafe(5 + text.length)
  message.write('Q', 0, 'latin1')
  message.writeInt32BE(4 + text.length, 1)
  text.copy(message, 5)
  return message
}

/** Every CopyData payload of a whole protocol answer, in place; its ErrorResponse thrown. */
function eachCopyData(answer: Buffer, onData: CopyDataHandler): void {
  for (let at = 0; at + 5 <= answer.length;) {
    const type = answer[at]!
    const end = at + 1 + answer.readInt32BE(at + 1)
    if (type === COPY_DATA) onData(answer, at + 5, end)
    else if (type === ERROR_RESPONSE) throw new Error(errorMessage(answer.subarray(at + 5, end)))
    at = end
  }
}

/** The socket under a pg client and its one `data` listener (pg-protocol's parser), which pg does not type. */
interface PgConnection {
  stream: NodeJS.ReadableStream & { listeners(event: 'data'): ((chunk: Buffer) => void)[] }
  query(text: string): void
}

/**
 * A pg "submittable" query: while its COPY runs it takes the socket's data from pg's parser
 * and frames the messages itself; at CopyDone (or an ErrorResponse) it hands the rest of the
 * bytes back to pg, which then reads CommandComplete and ReadyForQuery, or the error, as usual.
 * The same hand-over pg-copy-streams makes, without its stream and per-row buffers.
 */
export class CopyOutQuery {
  readonly done: Promise<void>
  private settle!: { resolve(): void; reject(error: Error): void }
  private connection: PgConnection | null = null
  private pgHandler: ((chunk: Buffer) => void) | null = null
  private partial: Buffer | null = null
  /** Thrown by the handler: the COPY is read to its end (the connection stays usable), then it fails with this. */
  private failure: Error | null = null
  private readonly onSocketData = (chunk: Buffer) => this.read(chunk)

  constructor(
    private readonly text: string,
    private readonly onData: CopyDataHandler,
  ) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }))
  }

  submit(connection: PgConnection): void {
    this.connection = connection
    const listeners = connection.stream.listeners('data')
    if (listeners.length !== 1) throw new Error('the pg connection has not one data listener')
    this.pgHandler = listeners[0]!
    connection.stream.removeListener('data', this.pgHandler)
    connection.stream.on('data', this.onSocketData)
    connection.query(this.text)
  }

  private read(chunk: Buffer): void {
    let at = 0
    if (this.partial) {
      // Only the message cut by the last chunk is joined: the rest of this one is read where it lies.
      const partial = this.partial
      const headerNeed = Math.max(0, 5 - partial.length)
      const header = headerNeed > 0 ? Buffer.concat([partial, chunk.subarray(0, headerNeed)]) : partial
      const take = header.length < 5 ? Infinity : 1 + header.readInt32BE(1) - partial.length
      if (chunk.length < take) {
        this.partial = Buffer.concat([partial, chunk])
        return
      }
      this.partial = null
      const joined = Buffer.concat([partial, chunk.subarray(0, take)])
      const outcome = this.message(joined, 0, joined.length)
      if (outcome === 'done') return this.handBack(chunk.subarray(take))
      if (outcome === 'error') return this.handBack(Buffer.concat([joined, chunk.subarray(take)]))
      at = take
    }
    while (at + 5 <= chunk.length) {
      const end = at + 1 + chunk.readInt32BE(at + 1)
      if (end > chunk.length) break
      const outcome = this.message(chunk, at, end)
      if (outcome === 'done') return this.handBack(chunk.subarray(end))
      if (outcome === 'error') return this.handBack(chunk.subarray(at))
      at = end
    }
    if (at < chunk.length) this.partial = Buffer.from(chunk.subarray(at))
  }

  /** One whole message, `bytes[at..end)`: whether the COPY goes on, is done, or failed (an ErrorResponse, for pg to read). */
  private message(bytes: Buffer, at: number, end: number): 'more' | 'done' | 'error' {
    const type = bytes[at]!
    if (type === COPY_DATA) {
      if (this.failure === null) {
        try {
          this.onData(bytes, at + 5, end)
        } catch (error) {
          this.failure = error instanceof Error ? error : new Error(String(error))
        }
      }
      return 'more'
    }
    if (type === COPY_DONE) return 'done'
    if (type === ERROR_RESPONSE) return 'error'
    // CopyOutResponse, and what the protocol may intersperse (notices, parameter changes).
    return 'more'
  }

  private handBack(rest: Buffer): void {
    const stream = this.connection!.stream
    stream.removeListener('data', this.onSocketData)
    stream.on('data', this.pgHandler!)
    if (rest.length > 0) this.pgHandler!(rest)
  }

  handleCommandComplete(): void {}

  handleReadyForQuery(): void {
    if (this.failure) this.settle.reject(this.failure)
    else this.settle.resolve()
  }

  handleError(error: Error): void {
    this.settle.reject(this.failure ?? error)
  }
}

/** `COPY (<query>) TO STDOUT (FORMAT binary)` on a pg client, each CopyData payload handed to `onData` in place. */
export async function copyOutOverPg(client: pg.ClientBase, query: string, onData: CopyDataHandler): Promise<void> {
  const copy = new CopyOutQuery(`copy (${query}) to stdout (format binary)`, onData)
  void client.query(copy as unknown as pg.QueryConfig)
  await copy.done
}

/**
 * The same COPY through PGlite's wire-protocol interface (`execProtocolRaw`), which answers
 * with every message at once. A COPY to a file, even PGlite's `/dev/blob`, would need a
 * privileged role; TO STDOUT needs none.
 */
export async function copyOutOverPglite(
  execProtocolRaw: (message: Uint8Array) => Promise<Uint8Array>,
  query: string,
  onData: CopyDataHandler,
): Promise<void> {
  const answer = await execProtocolRaw(queryMessage(`copy (${query}) to stdout (format binary)`))
  eachCopyData(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength), onData)
}
