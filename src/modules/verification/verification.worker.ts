/**
 * A worker thread of `verifyChain`'s parallel walk (started by verification.threads.ts): opens
 * its own connections to the same PostgreSQL server as soon as it starts, then walks each range
 * it is sent from the stored hash of the event before it, with the same code as the
 * single-threaded walk (`walkRange`), until it is told to close.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { openDatabase, type Database } from '../../database.js'
import { storedHash, walkRange } from './verification.walk.js'
import type { RangeResult, RangeTask, WalkerMessage } from './verification.threads.js'

const { databaseUrl } = workerData as { databaseUrl: string }
const opening: Promise<Database> = openDatabase({ databaseUrl, dataDir: '', poolSize: 2, migrate: false })
// A server that cannot be reached fails each walk (below), not the thread.
opening.catch(() => undefined)

async function walk(task: RangeTask): Promise<RangeResult> {
  const db = await opening
  const previousHash = await storedHash(db, task.orgId, task.verified)
  if (previousHash === null) return { ok: true, end: null }
  return {
    ok: true,
    end: await walkRange(
      db,
      task.orgId,
      { verified: task.verified, previousHash },
      task.target,
      task.headSequence,
      task.batch,
    ),
  }
}

const port = parentPort!
port.on('message', (message: WalkerMessage) => {
  if ('close' in message) {
    port.close()
    void opening.then(
      (db) => db.close(),
      () => undefined,
    )
    return
  }
  void walk(message.task)
    .catch((error: unknown): RangeResult => ({
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    }))
    .then((result) => port.postMessage(result))
})
