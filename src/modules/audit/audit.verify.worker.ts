/**
 * A worker thread of `verifyChain`'s parallel walk: opens its own connections to the same
 * PostgreSQL server, takes the stored hash of the event before its range and walks the range
 * with the same code as the single-threaded walk (`walkRange`).
 */
import { parentPort, workerData } from 'node:worker_threads'
import { openDatabase } from '../../db/database.js'
import { storedHash, walkRange, type RangeResult, type RangeTask } from './audit.verify.js'

async function walk(task: RangeTask): Promise<RangeResult> {
  const db = await openDatabase({ databaseUrl: task.databaseUrl, dataDir: '', poolSize: 2, migrate: false })
  try {
    const previousHash = await storedHash(db, task.orgId, task.verified)
    if (previousHash === null) return { ok: true, end: null }
    return { ok: true, end: await walkRange(db, task.orgId, { verified: task.verified, previousHash }, task.target, task.headSequence, task.batch) }
  } finally {
    await db.close()
  }
}

const { task } = workerData as { task: RangeTask }
parentPort?.postMessage(
  await walk(task).catch((error: unknown): RangeResult => ({ ok: false, message: error instanceof Error ? error.message : String(error) })),
)
