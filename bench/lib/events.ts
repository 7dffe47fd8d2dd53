import type pg from 'pg'
import { eventHash } from '../../src/modules/audit/audit.chain.js'
import { systemClock } from '../../src/platform/clock.js'
import { createIdGenerator } from '../../src/platform/ids.js'

const BATCH = 2000

/**
 * Appends `count` org events to an org's chain with bulk SQL as the table owner: the same
 * content and hashes the audit service would write (so `oeuvre audit verify` passes), without
 * the per-event round trips. Returns the org's last sequence.
 */
export async function seedChainedEvents(owner: pg.Pool, orgId: string, userId: string, count: number): Promise<number> {
  const ids = createIdGenerator(systemClock)
  const client = await owner.connect()
  try {
    await client.query('begin')
    const head = await client.query<{ sequence: string; hash: string }>('select sequence, hash from org_event_heads where org_id = $1 for update', [orgId])
    let sequence = Number(head.rows[0]!.sequence)
    let previous = head.rows[0]!.hash
    const start = Date.now()
    for (let done = 0; done < count; done += BATCH) {
      const rows = { sequence: [] as number[], id: [] as string[], resourceId: [] as string[], data: [] as string[], createdAt: [] as string[], hash: [] as string[] }
      for (let i = done; i < Math.min(count, done + BATCH); i += 1) {
        sequence += 1
        const resourceId = `crt_bench${String(i).padStart(10, '0')}`
        const content = {
          id: ids.next('event'),
          orgId,
          sequence,
          action: 'creator.created',
          userId,
          createdAt: new Date(start + i).toISOString(),
          resource: { type: 'creator', id: resourceId },
          data: { id: resourceId, name: `Creator ${i}`, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' },
        }
        previous = eventHash(content, previous)
        rows.sequence.push(sequence)
        rows.id.push(content.id)
        rows.resourceId.push(resourceId)
        rows.data.push(JSON.stringify(content.data))
        rows.createdAt.push(content.createdAt)
        rows.hash.push(previous)
      }
      await client.query(
        `insert into org_events (org_id, sequence, id, action, user_id, resource_type, resource_id, data, created_at, hash)
         select $1, s, i, 'creator.created', $2, 'creator', r, d::jsonb, c::timestamptz, h
         from unnest($3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) as t(s, i, r, d, c, h)`,
        [orgId, userId, rows.sequence, rows.id, rows.resourceId, rows.data, rows.createdAt, rows.hash],
      )
    }
    await client.query('update org_event_heads set sequence = $2, hash = $3 where org_id = $1', [orgId, sequence, previous])
    await client.query('commit')
    return sequence
  } catch (error) {
    await client.query('rollback')
    throw error
  } finally {
    client.release()
  }
}
