import { createHash } from 'node:crypto'

/**
 * RFC 6962 / RFC 9162 Merkle trees. Leaves here are already leaf hashes
 * (SHA-256(0x00 || entry)); every function takes and returns 32-byte Buffers.
 */

const LEAF_PREFIX = Buffer.from([0x00])
const NODE_PREFIX = Buffer.from([0x01])

export function leafHash(entry: Uint8Array): Buffer {
  return createHash('sha256').update(LEAF_PREFIX).update(entry).digest()
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest()
}

/** The largest power of two strictly smaller than n (n >= 2). */
function splitPoint(n: number): number {
  let k = 1
  while (k * 2 < n) k *= 2
  return k
}

/** MTH(D[start:end]) over leaf hashes. */
function subtreeRoot(leaves: readonly Buffer[], start: number, end: number): Buffer {
  const n = end - start
  if (n === 1) return leaves[start]!
  const k = splitPoint(n)
  return nodeHash(subtreeRoot(leaves, start, start + k), subtreeRoot(leaves, start + k, end))
}

export function treeRoot(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return createHash('sha256').digest()
  return subtreeRoot(leaves, 0, leaves.length)
}

/** PATH(m, D[n]) of RFC 9162 section 2.1.3.1. */
export function inclusionProof(leaves: readonly Buffer[], index: number): Buffer[] {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length)
    throw new RangeError('leaf index outside the tree')
  const path = (m: number, start: number, end: number): Buffer[] => {
    const n = end - start
    if (n === 1) return []
    const k = splitPoint(n)
    if (m < k) return [...path(m, start, start + k), subtreeRoot(leaves, start + k, end)]
    return [...path(m - k, start + k, end), subtreeRoot(leaves, start, start + k)]
  }
  return path(index, 0, leaves.length)
}

/** RFC 9162 section 2.1.3.2. */
export function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  treeSize: number,
  path: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(treeSize) || index < 0 || index >= treeSize) return false
  let fn = BigInt(index)
  let sn = BigInt(treeSize - 1)
  let r: Uint8Array = leaf
  for (const p of path) {
    if (sn === 0n) return false
    if ((fn & 1n) === 1n || fn === sn) {
      r = nodeHash(p, r)
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n
          sn >>= 1n
        }
      }
    } else {
      r = nodeHash(r, p)
    }
    fn >>= 1n
    sn >>= 1n
  }
  return sn === 0n && Buffer.from(r).equals(Buffer.from(root))
}

/** PROOF(m, D[n]) of RFC 9162 section 2.1.4.1, for 0 < m <= n. */
export function consistencyProof(leaves: readonly Buffer[], oldSize: number): Buffer[] {
  const n = leaves.length
  if (!Number.isInteger(oldSize) || oldSize < 1 || oldSize > n) throw new RangeError('old tree size outside 1..n')
  const subproof = (m: number, start: number, end: number, complete: boolean): Buffer[] => {
    const size = end - start
    if (m === size) return complete ? [] : [subtreeRoot(leaves, start, end)]
    const k = splitPoint(size)
    if (m <= k) return [...subproof(m, start, start + k, complete), subtreeRoot(leaves, start + k, end)]
    return [...subproof(m - k, start + k, end, false), subtreeRoot(leaves, start, start + k)]
  }
  return subproof(oldSize, 0, n, true)
}

/** RFC 9162 section 2.1.4.2. */
export function verifyConsistency(
  oldSize: number,
  newSize: number,
  oldRoot: Uint8Array,
  newRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  if (!Number.isSafeInteger(oldSize) || !Number.isSafeInteger(newSize) || oldSize < 1 || oldSize > newSize) return false
  const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b))
  if (oldSize === newSize) return proof.length === 0 && same(oldRoot, newRoot)
  if (proof.length === 0) return false
  const path = (oldSize & (oldSize - 1)) === 0 ? [oldRoot, ...proof] : [...proof]
  let fn = BigInt(oldSize - 1)
  let sn = BigInt(newSize - 1)
  while ((fn & 1n) === 1n) {
    fn >>= 1n
    sn >>= 1n
  }
  let fr: Uint8Array = path[0]!
  let sr: Uint8Array = path[0]!
  for (const c of path.slice(1)) {
    if (sn === 0n) return false
    if ((fn & 1n) === 1n || fn === sn) {
      fr = nodeHash(c, fr)
      sr = nodeHash(c, sr)
      while ((fn & 1n) === 0n && fn !== 0n) {
        fn >>= 1n
        sn >>= 1n
      }
    } else {
      sr = nodeHash(sr, c)
    }
    fn >>= 1n
    sn >>= 1n
  }
  return sn === 0n && same(fr, oldRoot) && same(sr, newRoot)
}

/**
 * The right edge of a tree: one perfect subtree root per set bit of its size, largest
 * first. Appending leaves and taking the root needs only this, not the whole tree.
 */
export class Frontier {
  private constructor(
    private size: number,
    private readonly nodes: Buffer[],
  ) {}

  static empty(): Frontier {
    return new Frontier(0, [])
  }

  static restore(size: number, nodes: readonly string[]): Frontier {
    let bits = 0
    for (let rest = size; rest > 0; rest = Math.floor(rest / 2)) bits += rest % 2
    if (bits !== nodes.length) throw new Error(`a frontier of ${size} leaves has ${bits} nodes, not ${nodes.length}`)
    return new Frontier(
      size,
      nodes.map((hex) => Buffer.from(hex, 'hex')),
    )
  }

  get treeSize(): number {
    return this.size
  }

  append(leaf: Buffer): void {
    this.nodes.push(leaf)
    this.size += 1
    // Merge equal-sized subtrees, as a binary counter carries.
    for (let carry = this.size; carry % 2 === 0; carry /= 2) {
      const right = this.nodes.pop()!
      const left = this.nodes.pop()!
      this.nodes.push(nodeHash(left, right))
    }
  }

  root(): Buffer {
    if (this.nodes.length === 0) return createHash('sha256').digest()
    let root = this.nodes[this.nodes.length - 1]!
    for (let i = this.nodes.length - 2; i >= 0; i -= 1) root = nodeHash(this.nodes[i]!, root)
    return root
  }

  serialize(): string[] {
    return this.nodes.map((node) => node.toString('hex'))
  }
}
