import type { Database } from '../../database.js'
import type { BatchLine } from '../../shared/merkle/merkle.batch.js'
import { asWritten } from './payouts.repo.js'
import { presentPayout } from './payouts.service.js'

/** A payout run's payouts as stored, each as it was written (its later steps are events of their own). */
export async function payoutBatchLines(db: Database, orgId: string, batchId: string): Promise<BatchLine[]> {
  const rows = await db.read(orgId, (reader) =>
    reader.selectFrom('payouts').selectAll().where('org_id', '=', orgId).where('batch_id', '=', batchId).execute(),
  )
  return rows.map((row) => ({
    id: row.id,
    currency: row.currency,
    amount: row.amount_micros,
    record: presentPayout(asWritten(row)),
  }))
}
