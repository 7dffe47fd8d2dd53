import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { eventHash } from '../../src/modules/audit/audit.chain.js'
import { canonicalJson } from '../../src/platform/canonical-json.js'
import { systemClock } from '../../src/platform/clock.js'
import { createIdGenerator } from '../../src/platform/ids.js'

/** Rows handed to COPY per chunk of the stream. */
const CHUNK = 5000

const csv = (value: string) => `"${value.replaceAll('"', '""')}"`

/** The org_events columns of chainedEventCsv's lines, in order (for COPY). */
export const ORG_EVENT_COPY_COLUMNS = 'org_id, sequence, id, action, user_id, resource_type, resource_id, data, created_at, hash'

/** An org's chain head: the last sequence and its hash. */
export interface ChainHead {
  sequence: number
  hash: string
}

/**
 * `count` creator.created events chained after `head`, as COPY CSV (ORG_EVENT_COPY_COLUMNS) in
 * chunks of CHUNK rows: the same content, stored data text (canonical) and hashes the audit
 * service would write. `head`
 * advances as chunks are produced: after the last one it is the chain's new head.
 */
export function* chainedEventCsv(orgId: string, userId: string, head: ChainHead, count: number): Generator<string> {
  const ids = createIdGenerator(systemClock)
  const first = head.sequence + 1
  const start = Date.now()
  for (let done = 0; done < count; done += CHUNK) {
    let chunk = ''
    for (let i = done; i < Math.min(count, done + CHUNK); i += 1) {
      const resourceId = `crt_bench${String(i).padStart(10, '0')}`
      const content = {
        id: ids.next('event'),
        orgId,
        sequence: first + i,
        action: 'creator.created',
        userId,
        createdAt: new Date(start + i).toISOString(),
        resource: { type: 'creator', id: resourceId },
        data: { id: resourceId, name: `Creator ${i}`, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' },
      }
      head.hash = eventHash(content, head.hash)
      head.sequence = content.sequence
      chunk += `${orgId},${content.sequence},${content.id},creator.created,${userId},creator,${resourceId},${csv(canonicalJson(content.data))},${content.createdAt},${head.hash}\n`
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
    const found = await client.query<{ sequence: string; hash: string }>('select sequence, hash from org_event_heads where org_id = $1 for update', [orgId])
    const head: ChainHead = { sequence: Number(found.rows[0]!.sequence), hash: found.rows[0]!.hash }
    await pipeline(Readable.from(chainedEventCsv(orgId, userId, head, count)), client.query(copyFrom(`copy org_events (${ORG_EVENT_COPY_COLUMNS}) from stdin with (format csv)`)))
    await client.query('update org_event_heads set sequence = $2, hash = $3 where org_id = $1', [orgId, head.sequence, head.hash])
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
