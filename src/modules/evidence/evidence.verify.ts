import type { Database } from '../../db/database.js'
import type { EvidenceSigner } from './evidence.keys.js'
import { Frontier } from './evidence.merkle.js'
import { checkpointText, eventLeaf } from './evidence.checkpoint.js'

export interface SealReport {
  ok: boolean
  seals: number
  /** The first seal that does not verify. */
  broken?: { sealId: string; treeSize: number; reason: string }
}

const BATCH = 5000

/**
 * Recomputes every seal's root from the event rows as they are now, and checks its
 * checkpoint text and signature. A rewritten event (even with a recomputed hash chain)
 * changes every later root; a removed one shifts them.
 */
export async function verifySeals(
  db: Database,
  orgId: string,
  signers: readonly EvidenceSigner[],
): Promise<SealReport> {
  const seals = await db.read(orgId, (reader) =>
    reader.selectFrom('evidence_seals').selectAll().where('org_id', '=', orgId).orderBy('tree_size', 'asc').execute(),
  )
  const frontier = Frontier.empty()
  let checked = 0
  let nextSequence = 1
  for (const seal of seals) {
    const size = Number(seal.tree_size)
    const broken = (reason: string): SealReport => ({
      ok: false,
      seals: checked,
      broken: { sealId: seal.id, treeSize: size, reason },
    })
    while (frontier.treeSize < size) {
      const rows = await db.read(orgId, (reader) =>
        reader
          .selectFrom('org_events')
          .select(['sequence', 'hash'])
          .where('org_id', '=', orgId)
          .where('sequence', '>=', BigInt(nextSequence))
          .where('sequence', '<=', BigInt(size))
          .orderBy('sequence', 'asc')
          .limit(BATCH)
          .execute(),
      )
      if (rows.length === 0) return broken(`events ${nextSequence}..${size} are missing`)
      for (const row of rows) {
        if (Number(row.sequence) !== nextSequence) return broken(`event ${nextSequence} is missing`)
        frontier.append(eventLeaf(row.hash))
        nextSequence += 1
      }
    }
    const root = frontier.root()
    if (root.toString('hex') !== seal.root_hash) {
      return broken(
        `root recomputed from events 1..${size} is ${root.toString('hex')}, the seal says ${seal.root_hash}: an event at or before ${size} was changed`,
      )
    }
    if (seal.checkpoint !== checkpointText(orgId, size, root))
      return broken('the checkpoint text does not match the seal')
    const signer = signers.find((candidate) => candidate.keyId === seal.key_id)
    if (!signer) return broken(`signed with key ${seal.key_id}, which this deployment does not know`)
    if (!signer.verify(seal.checkpoint, seal.signature)) return broken('the signature does not verify')
    checked += 1
  }
  return { ok: true, seals: checked }
}
