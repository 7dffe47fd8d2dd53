import type { Database } from '../../database.js'
import type { BatchLine } from '../evidence/evidence.batch.js'
import { asWritten } from '../payouts/payouts.repo.js'
import { presentPayout } from '../payouts/payouts.service.js'
import { batchLines } from '../revenue/revenue.repo.js'
import { presentRevenue } from '../revenue/revenue.service.js'

/** A batch's lines as stored, each with the record its Merkle leaf hashes (the record the API serves). */
export async function storedLines(db: Database, orgId: string, action: string, batchId: string): Promise<BatchLine[]> {
  if (action === 'revenue.imported') {
    const { rows, allocations } = await db.read(orgId, (reader) => batchLines(reader, orgId, batchId))
    return rows.map((row) => ({
      id: row.id,
      currency: row.currency,
      amount: row.amount_micros,
      record: presentRevenue(row, allocations.get(row.id) ?? []),
    }))
  }
  const rows = await db.read(orgId, (reader) =>
    reader.selectFrom('payouts').selectAll().where('org_id', '=', orgId).where('batch_id', '=', batchId).execute(),
  )
  // Each payout as it was written: its later steps (paid, failed, ...) are events of their own.
  return rows.map((row) => ({
    id: row.id,
    currency: row.currency,
    amount: row.amount_micros,
    record: presentPayout(asWritten(row)),
  }))
}
