import { createHash } from 'node:crypto'
import { EventEmitter } from 'node:events'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestBackend } from '../../test/db-recording.js'
import { CopyOutQuery } from './copy-out.js'
import type { SqlBackend } from './sql-backend.js'

let backend: SqlBackend

beforeAll(async () => {
  backend = await openTestBackend(2)
})
afterAll(() => backend.end())

/** Runs `work` on one app-role session and then checks the session still answers a query. */
async function onSession<T>(work: (session: Awaited<ReturnType<SqlBackend['acquire']>>) => Promise<T>): Promise<T> {
  const session = await backend.acquire()
  try {
    const result = await work(session)
    expect((await session.simple('select 41 + 1 as answer')).rows).toEqual([{ answer: 42 }])
    return result
  } catch (error) {
    expect((await session.simple('select 41 + 1 as answer')).rows).toEqual([{ answer: 42 }])
    throw error
  } finally {
    session.release()
  }
}

describe('COPY TO STDOUT read off the wire protocol', () => {
  it('hands over every row of a long COPY, exactly, however the socket cut it', async () => {
    // Rows of varied sizes, about 6 MB in all: many socket reads, messages cut at every kind of place.
    const query = `select g, repeat(md5(g::text), 1 + g % 17) from generate_series(1, 20000) g`
    const payloads = createHash('sha256')
    let messages = 0
    await onSession((session) =>
      session.copyOut(query, (bytes, start, end) => {
        messages += 1
        payloads.update(bytes.subarray(start, end))
      }),
    )
    // The same bytes PostgreSQL writes for the COPY: the header, one row per message, the trailer.
    const expected = createHash('sha256')
    const header = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1')
    expected.update(header)
    for (let g = 1; g <= 20000; g += 1) {
      const text = Buffer.from(
        createHash('md5')
          .update(String(g))
          .digest('hex')
          .repeat(1 + (g % 17)),
      )
      const row = Buffer.alloc(2 + 4 + 4 + 4 + text.length)
      row.writeInt16BE(2, 0)
      row.writeInt32BE(4, 2)
      row.writeInt32BE(g, 6)
      row.writeInt32BE(text.length, 10)
      text.copy(row, 14)
      expected.update(row)
    }
    expected.update(Buffer.from([0xff, 0xff]))
    expect(payloads.digest('hex')).toBe(expected.digest('hex'))
    expect(messages).toBeGreaterThanOrEqual(20000)
  })

  it('fails with the server’s error for a query it refuses, and the session goes on', async () => {
    await expect(
      onSession((session) => session.copyOut('select no_such_column from org_events', () => undefined)),
    ).rejects.toThrow(/no_such_column/)
  })

  it('fails with the handler’s error after reading the COPY to its end, and the session goes on', async () => {
    let calls = 0
    await expect(
      onSession((session) =>
        session.copyOut('select g from generate_series(1, 5000) g', () => {
          calls += 1
          throw new Error('refused by the handler')
        }),
      ),
    ).rejects.toThrow('refused by the handler')
    expect(calls).toBe(1)
  })
})

describe('the CopyData framing', () => {
  /** A protocol message: type, length, payload. */
  const message = (type: string, payload: Buffer) => {
    const head = Buffer.alloc(5)
    head.write(type, 0, 'latin1')
    head.writeInt32BE(4 + payload.length, 1)
    return Buffer.concat([head, payload])
  }

  it('reads payloads cut anywhere and hands pg exactly the bytes after CopyDone', async () => {
    const payloads = [
      Buffer.from('PGCOPY-header+row-1'),
      Buffer.alloc(0),
      Buffer.from('x'),
      Buffer.alloc(3000, 7),
      Buffer.from('last'),
    ]
    const after = Buffer.concat([message('C', Buffer.from('COPY 4\0')), message('Z', Buffer.from('I'))])
    const wire = Buffer.concat([
      message('H', Buffer.from([1, 0, 0])),
      ...payloads.map((p) => message('d', p)),
      message('N', Buffer.from('notice\0')),
      message('c', Buffer.alloc(0)),
      after,
    ])
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: wire.length - 1 }), { maxLength: 30 }),
        async (cuts) => {
          const stream = new EventEmitter() as EventEmitter & { listeners(event: 'data'): ((chunk: Buffer) => void)[] }
          const handedBack: Buffer[] = []
          stream.on('data', (chunk: Buffer) => handedBack.push(Buffer.from(chunk)))
          const received: Buffer[] = []
          const copy = new CopyOutQuery('copy (select 1) to stdout (format binary)', (bytes, start, end) =>
            received.push(Buffer.from(bytes.subarray(start, end))),
          )
          let sent = ''
          copy.submit({ stream: stream as never, query: (text: string) => void (sent = text) })
          expect(sent).toContain('copy')
          let from = 0
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            stream.emit('data', wire.subarray(from, cut))
            from = cut
          }
          stream.emit('data', wire.subarray(from))
          expect(received).toEqual(payloads)
          expect(Buffer.concat(handedBack)).toEqual(after)
          copy.handleReadyForQuery()
          await copy.done
        },
      ),
      { numRuns: 300 },
    )
  })
})
