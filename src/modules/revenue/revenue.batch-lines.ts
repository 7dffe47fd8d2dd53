import type { Database } from '../../database.js'
import type { BatchLine } from '../../shared/merkle/merkle.batch.js'
import { batchLines } from './revenue.repo.js'
import { presentRevenue } from './revenue.present.js'

/** An import batch's lines as stored, each with the record its Merkle leaf hashes (the entry the API serves). */
export async function revenueBatchLines(db: Database, orgId: string, batchId: string): Promise<BatchLine[]> {
  const { rows, allocations } = await db.read(orgId, (reader) => batchLines(reader, orgId, batchId))
  return rows.map((row) => ({
    id: row.id,
    currency: row.currency,
    amount: row.amount_micros,
    record: presentRevenue(row, allocations.get(row.id) ?? []),
  }))
}
