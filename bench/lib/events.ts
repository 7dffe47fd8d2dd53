import { hash } from 'node:crypto'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { eventHash } from '../../src/modules/audit/index.js'
import { canonicalJson } from '../../src/platform/canonical-json.js'
import { systemClock } from '../../src/platform/clock.js'
import { createIdGenerator } from '../../src/platform/ids.js'
import { skipForeignKeyChecks } from './records-seed.js'

/**
 * Rows handed to COPY per chunk of the stream. A chunk's row strings live until it is handed
 * over, so each young-generation collection copies them: at 5,000 rows the collector took
 * about 60% of the seeding's time, at 250 a small share (a million events: about 24 s of text
 * made before, about 6 s now, with the texts below).
 */
export const CHAINED_EVENT_CHUNK = 250

const csv = (value: string) => `"${value.replaceAll('"', '""')}"`

/** The org_events columns of chainedEventCsv's lines, in order (for COPY). */
export const ORG_EVENT_COPY_COLUMNS =
  'org_id, sequence, id, action, user_id, resource_type, resource_id, data, created_at, hash'

/** An org's chain head: the last sequence and its hash. */
export interface ChainHead {
  sequence: number
  hash: string
}

/** Every this many events, the seed's text is checked against the published recipe (canonicalJson, eventHash). */
const RECIPE_CHECK_EVERY = 10_000

/**
 * `count` creator.created events chained after `head`, as COPY CSV (ORG_EVENT_COPY_COLUMNS)
 * in chunks of CHAINED_EVENT_CHUNK rows: the same content, stored data text (canonical) and
 * hashes the audit service would write. Every value here is plain ASCII that JSON writes as
 * it stands, so each event's canonical text is written directly, members in canonical order
 * (the published recipe per event, canonicalJson of the whole content, took about twice as
 * long). Every RECIPE_CHECK_EVERY-th event is still checked against the recipe, and the
 * verify run checks them all. `head` advances as chunks are produced: after the last one it
 * is the chain's new head.
 */
export function* chainedEventCsv(orgId: string, userId: string, head: ChainHead, count: number): Generator<string> {
  const ids = createIdGenerator(systemClock)
  const first = head.sequence + 1
  const start = Date.now()
  for (let done = 0; done < count; done += CHAINED_EVENT_CHUNK) {
    let chunk = ''
    for (let i = done; i < Math.min(count, done + CHAINED_EVENT_CHUNK); i += 1) {
      const resourceId = `crt_bench${String(i).padStart(10, '0')}`
      const id = ids.next('event')
      const sequence = first + i
      const createdAt = new Date(start + i).toISOString()
      const dataText = `{"id":"${resourceId}","kind":"person","name":"Creator ${i}","payoutCurrency":"EUR","roles":["composer"]}`
      const text =
        `{"action":"creator.created","createdAt":"${createdAt}","data":${dataText},"id":"${id}","orgId":"${orgId}","previousHash":"${head.hash}",` +
        `"resource":{"id":"${resourceId}","type":"creator"},"sequence":${sequence},"userId":"${userId}"}`
      const eventHashText = `sha256:${hash('sha256', text, 'hex')}`
      if (i % RECIPE_CHECK_EVERY === 0) {
        const resource = { type: 'creator', id: resourceId }
        const data = {
          id: resourceId,
          name: `Creator ${i}`,
          kind: 'person',
          roles: ['composer'],
          payoutCurrency: 'EUR',
        }
        const recipe = eventHash(
          { id, orgId, sequence, action: 'creator.created', userId, createdAt, resource, data },
          head.hash,
        )
        if (canonicalJson(data) !== dataText || recipe !== eventHashText)
          throw new Error(`seeded event ${sequence} is not as the published recipe writes it`)
      }
      head.hash = eventHashText
      head.sequence = sequence
      chunk += `${orgId},${sequence},${id},creator.created,${userId},creator,${resourceId},${csv(dataText)},${createdAt},${head.hash}\n`
    }
    yield chunk
  }
}

/**
 * Appends `count` org events to an org's chain with COPY as the table owner: the same
 * content and hashes the audit service would write (so `oeuvre audit verify` passes), without
 * the per-event round trips. Returns the org's last sequence.
 */
export async function seedChainedEvents(owner: pg.Pool, orgId: string, userId: string, count: number): Promise<number> {
  const client = await owner.connect()
  try {
    await client.query('begin')
    // Every event names the one org whose head is locked here: the foreign-key check of each row took about 7 s of 24 s for a million.
    await skipForeignKeyChecks(client)
    const found = await client.query<{ sequence: string; hash: string }>(
      'select sequence, hash from org_event_heads where org_id = $1 for update',
      [orgId],
    )
    const head: ChainHead = { sequence: Number(found.rows[0]!.sequence), hash: found.rows[0]!.hash }
    await pipeline(
      Readable.from(chainedEventCsv(orgId, userId, head, count)),
      client.query(copyFrom(`copy org_events (${ORG_EVENT_COPY_COLUMNS}) from stdin with (format csv)`)),
    )
    await client.query('update org_event_heads set sequence = $2, hash = $3 where org_id = $1', [
      orgId,
      head.sequence,
      head.hash,
    ])
    await client.query('commit')
    // Statistics as autovacuum would leave them on a table this size.
    await client.query('analyze org_events')
    return head.sequence
  } catch (error) {
    await client.query('rollback')
    throw error
  } finally {
    client.release()
  }
}
