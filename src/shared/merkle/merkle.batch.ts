import { canonicalJson } from '../../platform/canonical-json.js'
import { formatAmount } from '../money/money.decimal.js'
import { inclusionProof, leafHash, treeRoot } from './merkle.tree.js'

/**
 * A bulk write's lines under one org event (docs/evidence.md, "Batch events"): the batch's event carries the
 * RFC 6962 root of its lines, each leaf being SHA-256(0x00 || the line's canonical JSON as
 * stored and served), the lines in id order. Revenue imports and payout runs build theirs here,
 * the proof route and `oeuvre audit verify` rebuild them from the stored lines.
 */

/** The `data` of a batch event (`revenue.imported`, `payouts.run`). */
export interface BatchEventData {
  batchId: string
  lineCount: number
  /** Sum of the lines' amounts per currency, as decimal strings, by currency. */
  totals: { currency: string; amount: string }[]
  /** The Merkle root of the lines, hex. */
  root: string
}

/** One line of a batch: its id, the amount its currency total counts, and its record as served. */
export interface BatchLine {
  id: string
  currency: string
  amount: bigint
  record: unknown
}

/** Lines in leaf order: by id, as JavaScript compares strings (UTF-16 code units; ids are ASCII). */
export function inLeafOrder<T extends { id: string }>(lines: readonly T[]): T[] {
  return [...lines].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

/** The exact text a line's leaf hashes, and the leaf hash. */
export function batchLeaf(record: unknown): { text: string; hash: Buffer } {
  const text = canonicalJson(record)
  return { text, hash: leafHash(Buffer.from(text, 'utf8')) }
}

/** The batch event's data for these lines (any order). */
export function batchEventData(batchId: string, lines: readonly BatchLine[]): BatchEventData {
  const totals = new Map<string, bigint>()
  for (const line of lines) totals.set(line.currency, (totals.get(line.currency) ?? 0n) + line.amount)
  return {
    batchId,
    lineCount: lines.length,
    totals: [...totals.keys()]
      .sort()
      .map((currency) => ({ currency, amount: formatAmount(totals.get(currency)!, currency) })),
    root: treeRoot(inLeafOrder(lines).map((line) => batchLeaf(line.record).hash)).toString('hex'),
  }
}

/** A line's inclusion proof in its batch: its place among the batch's lines, the path, and the text hashed. */
export interface BatchInclusion {
  leafIndex: number
  treeSize: number
  root: string
  auditPath: string[]
  leaf: string
}

/** The proof of line `id` among `lines` (the whole batch, any order); null when it is not one of them. */
export function batchInclusion(lines: readonly BatchLine[], id: string): BatchInclusion | null {
  const ordered = inLeafOrder(lines)
  const leafIndex = ordered.findIndex((line) => line.id === id)
  if (leafIndex === -1) return null
  const leaves = ordered.map((line) => batchLeaf(line.record))
  const hashes = leaves.map((leaf) => leaf.hash)
  return {
    leafIndex,
    treeSize: ordered.length,
    root: treeRoot(hashes).toString('hex'),
    auditPath: inclusionProof(hashes, leafIndex).map((node) => node.toString('hex')),
    leaf: leaves[leafIndex]!.text,
  }
}
