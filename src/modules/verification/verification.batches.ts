import type { Database } from '../../database.js'
import { canonicalJson } from '../../platform/canonical-json.js'
import { batchEventData, type BatchEventData, type BatchLine } from '../../shared/merkle/merkle.batch.js'

/** The bulk actions that append one event per batch. */
export const BATCH_ACTIONS = ['revenue.imported', 'payouts.run'] as const
export type BatchAction = (typeof BATCH_ACTIONS)[number]

/** A batch's lines as stored, each with the record its Merkle leaf hashes (the record the API serves). */
export type BatchLineReader = (db: Database, orgId: string, batchId: string) => Promise<BatchLine[]>

/** How each bulk action's lines are read back: given by the record families that write them. */
export type BatchLineReaders = Readonly<Record<BatchAction, BatchLineReader>>

export interface BatchCheck {
  ok: boolean
  batches: number
  /** The first batch event whose stored lines do not give its data. */
  broken?: { sequence: number; eventId: string; reason: string }
}

/** Batch events read per statement. */
const PAGE = 500

function difference(stated: BatchEventData, stored: BatchEventData): string | null {
  if (stated.lineCount !== stored.lineCount)
    return `${stored.lineCount} lines are stored with this batch id, the event counts ${stated.lineCount}`
  if (canonicalJson(stated.totals) !== canonicalJson(stored.totals))
    return `the stored lines total ${canonicalJson(stored.totals)}, the event says ${canonicalJson(stated.totals)}`
  if (stated.root !== stored.root)
    return `the root recomputed from the stored lines is ${stored.root}, the event says ${stated.root}: a line was changed, added or removed`
  return null
}

/**
 * Every batch event after `afterSequence` against the lines stored with its batch id: their
 * count, totals and Merkle root (each line's record as the API serves it) must be the event's.
 */
export async function checkBatches(
  db: Database,
  orgId: string,
  readers: BatchLineReaders,
  afterSequence = 0,
): Promise<BatchCheck> {
  let after = BigInt(afterSequence)
  let batches = 0
  for (;;) {
    const events = await db.read(orgId, (reader) =>
      reader
        .selectFrom('org_events')
        .select(['sequence', 'id', 'action', 'resource_id', 'data'])
        .where('org_id', '=', orgId)
        .where('action', 'in', [...BATCH_ACTIONS])
        .where('sequence', '>', after)
        .orderBy('sequence', 'asc')
        .limit(PAGE)
        .execute(),
    )
    for (const event of events) {
      const stated = JSON.parse(event.data) as BatchEventData
      const lines = await readers[event.action as BatchAction](db, orgId, stated.batchId)
      const reason =
        event.resource_id !== stated.batchId
          ? `the event names batch ${event.resource_id} but its data ${stated.batchId}`
          : difference(stated, batchEventData(stated.batchId, lines))
      if (reason !== null)
        return {
          ok: false,
          batches,
          broken: { sequence: Number(event.sequence), eventId: event.id, reason: `batch ${stated.batchId}: ${reason}` },
        }
      batches += 1
    }
    if (events.length < PAGE) return { ok: true, batches }
    after = events.at(-1)!.sequence
  }
}
