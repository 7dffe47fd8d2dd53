import type { Database } from '../../database.js'
import type { EvidenceSigner } from './evidence.keys.js'
import { Frontier } from '../../shared/merkle/merkle.tree.js'
import { checkpointText, eventLeaf } from './evidence.checkpoint.js'

export interface SealReport {
  ok: boolean
  seals: number
  /** The first seal that does not verify. */
  broken?: { sealId: string; treeSize: number; reason: string }
  /** The last seal verified, and its tree's right edge before its last leaf (what `--since-seal` starts from). */
  last?: VerifiedSeal
}

export interface VerifiedSeal {
  sealId: string
  treeSize: number
  frontierBeforeLast: string[]
}

/** Where a check of the seals starts: a verified tree of `treeSize` leaves (its frontier), the seals up to it skipped. */
export interface SealStart {
  treeSize: number
  frontier: Frontier
}

const BATCH = 5000

interface SealRow {
  id: string
  tree_size: bigint
  root_hash: string
  checkpoint: string
  signature: string
  key_id: string
}

/** A seal's checkpoint text and signature, given the root recomputed for it; the reason it fails, or null. */
export function sealFailure(
  orgId: string,
  seal: SealRow,
  root: Buffer,
  signers: readonly EvidenceSigner[],
): string | null {
  const size = Number(seal.tree_size)
  if (root.toString('hex') !== seal.root_hash)
    return `root recomputed from events 1..${size} is ${root.toString('hex')}, the seal says ${seal.root_hash}: an event at or before ${size} was changed`
  if (seal.checkpoint !== checkpointText(orgId, size, root)) return 'the checkpoint text does not match the seal'
  const signer = signers.find((candidate) => candidate.keyId === seal.key_id)
  if (!signer) return `signed with key ${seal.key_id}, which this deployment does not know`
  if (!signer.verify(seal.checkpoint, seal.signature)) return 'the signature does not verify'
  return null
}

/**
 * Recomputes every seal's root from the event rows as they are now, and checks its
 * checkpoint text and signature. A rewritten event (even with a recomputed hash chain)
 * changes every later root; a removed one shifts them. From `start`, only the seals of
 * larger trees are checked, the tree extended from its frontier (a consistency check of the
 * older tree with each newer one, from the new events alone).
 */
export async function verifySeals(
  db: Database,
  orgId: string,
  signers: readonly EvidenceSigner[],
  start?: SealStart,
): Promise<SealReport> {
  const seals = await db.read(orgId, (reader) =>
    reader
      .selectFrom('evidence_seals')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('tree_size', '>', BigInt(start?.treeSize ?? 0))
      .orderBy('tree_size', 'asc')
      .execute(),
  )
  const frontier = start?.frontier ?? Frontier.empty()
  let checked = 0
  let nextSequence = frontier.treeSize + 1
  let last: VerifiedSeal | undefined
  for (const seal of seals) {
    const size = Number(seal.tree_size)
    const broken = (reason: string): SealReport => ({
      ok: false,
      seals: checked,
      broken: { sealId: seal.id, treeSize: size, reason },
      ...(last ? { last } : {}),
    })
    let beforeLast: string[] = frontier.serialize()
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
        if (nextSequence === size) beforeLast = frontier.serialize()
        frontier.append(eventLeaf(row.hash))
        nextSequence += 1
      }
    }
    const failure = sealFailure(orgId, seal, frontier.root(), signers)
    if (failure) return broken(failure)
    checked += 1
    last = { sealId: seal.id, treeSize: size, frontierBeforeLast: beforeLast }
  }
  return { ok: true, seals: checked, ...(last ? { last } : {}) }
}
