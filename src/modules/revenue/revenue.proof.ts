import type { Database } from '../../database.js'
import type { RequestContext } from '../../platform/context.js'
import { AppError, notFound } from '../../platform/errors.js'
import { batchInclusion } from '../../shared/merkle/merkle.batch.js'
import { presentRevenue } from './revenue.present.js'
import { batchLines, findRevenue } from './revenue.repo.js'
import type { RevenueProof } from './revenue.schemas.js'

/** An imported line's inclusion proof in its batch event's Merkle root. */
export async function revenueProof(db: Database, ctx: RequestContext, revenueId: string): Promise<RevenueProof> {
  const { orgId } = ctx
  const found = await db.read(orgId, async (reader) => {
    const row = await findRevenue(reader, orgId, revenueId)
    if (!row?.batch_id) return { row, event: undefined, batch: undefined }
    // The batch's lines and its event were written by one transaction and never change.
    const event = await reader
      .selectFrom('org_events')
      .select('id')
      .where('org_id', '=', orgId)
      .where('action', '=', 'revenue.imported')
      .where('resource_id', '=', row.batch_id)
      .executeTakeFirst()
    return { row, event, batch: await batchLines(reader, orgId, row.batch_id) }
  })
  const { row, event, batch } = found
  if (!row) throw notFound('revenue entry')
  if (!row.batch_id || !batch) throw await createdAlone(db, orgId, row.id)
  if (!event) throw new Error(`batch ${row.batch_id} has no revenue.imported event`)
  const lines = batch.rows.map((line) => ({
    id: line.id,
    currency: line.currency,
    amount: line.amount_micros,
    record: presentRevenue(line, batch.allocations.get(line.id) ?? []),
  }))
  const inclusion = batchInclusion(lines, row.id)
  if (!inclusion) throw new Error(`${row.id} is not among the lines of its batch ${row.batch_id}`)
  return { revenueId: row.id, batchId: row.batch_id, eventId: event.id, ...inclusion }
}

/** An entry created alone has no batch to be proved in: its own event is what a seal proves. */
async function createdAlone(db: Database, orgId: string, revenueId: string): Promise<AppError> {
  const created = await db.read(orgId, (reader) =>
    reader
      .selectFrom('org_events')
      .select('id')
      .where('org_id', '=', orgId)
      .where('action', '=', 'revenue.created')
      .where('resource_type', '=', 'revenue')
      .where('resource_id', '=', revenueId)
      .executeTakeFirst(),
  )
  return new AppError(
    'unprocessable',
    `${revenueId} was created alone, not imported in a batch: its own revenue.created event${created ? ` ${created.id}` : ''} holds the record; prove that event against a seal (GET /v1/orgs/{orgId}/events/{eventId}/proof)`,
    { param: 'revenueId' },
  )
}
