import type { Database } from '../../db/database.js'
import { eventHash, GENESIS_HASH } from './audit.chain.js'
import { presentEvent } from './audit.service.js'
import type { EvidenceSigner } from '../evidence/evidence.keys.js'
import { verifySeals, type SealReport } from '../evidence/evidence.verify.js'

export interface ChainReport {
  orgId: string
  ok: boolean
  events: number
  /** The first broken link, when there is one. */
  broken?: { sequence: number; eventId: string | null; reason: string }
  /** The seals over the chain (`verifyChainAndSeals`). */
  seals?: SealReport
}

const BATCH = 5000

/** Walks an org's chain from its first event and names the first broken link. */
export async function verifyChain(db: Database, orgId: string): Promise<ChainReport> {
  let previousHash = GENESIS_HASH
  let expected = 1
  for (;;) {
    const rows = await db.read(orgId, (reader) =>
      reader
        .selectFrom('org_events')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('sequence', '>=', BigInt(expected))
        .orderBy('sequence', 'asc')
        .limit(BATCH)
        .execute(),
    )
    for (const row of rows) {
      const event = presentEvent(row)
      if (event.sequence !== expected) {
        return {
          orgId,
          ok: false,
          events: expected - 1,
          broken: { sequence: expected, eventId: null, reason: `event ${expected} is missing (next present is ${event.sequence})` },
        }
      }
      const recomputed = eventHash(event, previousHash)
      if (recomputed !== event.hash) {
        return {
          orgId,
          ok: false,
          events: expected - 1,
          broken: {
            sequence: expected,
            eventId: event.id,
            reason: `hash mismatch: stored ${event.hash}, recomputed ${recomputed}`,
          },
        }
      }
      previousHash = event.hash
      expected += 1
    }
    if (rows.length < BATCH) break
  }
  const head = await db.read(orgId, (reader) =>
    reader.selectFrom('org_event_heads').selectAll().where('org_id', '=', orgId).executeTakeFirst(),
  )
  const count = expected - 1
  if (!head) return { orgId, ok: false, events: count, broken: { sequence: 0, eventId: null, reason: 'org has no chain head' } }
  if (Number(head.sequence) !== count || head.hash !== previousHash) {
    return {
      orgId,
      ok: false,
      events: count,
      broken: {
        sequence: count + 1,
        eventId: null,
        reason: `chain ends at ${count} but its head records ${head.sequence} (events were removed from the end)`,
      },
    }
  }
  return { orgId, ok: true, events: count }
}

/** The chain, then every seal's root and signature: the first broken link of either. */
export async function verifyChainAndSeals(db: Database, orgId: string, signers: readonly EvidenceSigner[]): Promise<ChainReport> {
  const report = await verifyChain(db, orgId)
  report.seals = await verifySeals(db, orgId, signers)
  const broken = report.seals.broken
  if (report.ok && broken) {
    report.ok = false
    report.broken = { sequence: broken.treeSize, eventId: null, reason: `seal ${broken.sealId} (events 1..${broken.treeSize}): ${broken.reason}` }
  }
  return report
}
