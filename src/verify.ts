import type { BatchLineReaders } from './modules/verification/index.js'

/**
 * What `oeuvre audit verify` holds each batch event to: its lines as their record family stores
 * them. The families' modules load only when an org has a batch of theirs.
 */
export const BATCH_LINES: BatchLineReaders = {
  'revenue.imported': async (db, orgId, batchId) =>
    (await import('./modules/revenue/index.js')).revenueBatchLines(db, orgId, batchId),
  'payouts.run': async (db, orgId, batchId) =>
    (await import('./modules/payouts/index.js')).payoutBatchLines(db, orgId, batchId),
}
