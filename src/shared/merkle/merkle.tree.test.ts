import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  consistencyProof,
  Frontier,
  inclusionProof,
  leafHash,
  nodeHash,
  treeRoot,
  verifyConsistency,
  verifyInclusion,
} from './merkle.tree.js'

const sha = (data: string) => createHash('sha256').update(data).digest()
const leavesOf = (size: number, salt = 0) => Array.from({ length: size }, (_, i) => leafHash(sha(`event ${salt}/${i}`)))
/** The root of every prefix 0..n of `leaves`. */
function prefixRoots(leaves: Buffer[]): Buffer[] {
  const frontier = Frontier.empty()
  const roots = [frontier.root()]
  for (const leaf of leaves) {
    frontier.append(leaf)
    roots.push(frontier.root())
  }
  return roots
}

function flipBit(buffer: Uint8Array, bit: number): Buffer {
  const copy = Buffer.from(buffer)
  copy[bit >> 3]! ^= 1 << (bit & 7)
  return copy
}

describe('RFC 6962 hashing', () => {
  it('prefixes leaves with 0x00 and nodes with 0x01', () => {
    const entry = sha('x')
    expect(leafHash(entry)).toEqual(
      createHash('sha256')
        .update(Buffer.concat([Buffer.from([0]), entry]))
        .digest(),
    )
    expect(nodeHash(entry, entry)).toEqual(
      createHash('sha256')
        .update(Buffer.concat([Buffer.from([1]), entry, entry]))
        .digest(),
    )
  })

  it('matches the RFC 6962 reference roots of the certificate-transparency test vectors', () => {
    // Leaves and roots from certificate-transparency-go/merkle/testonly (the RFC 6962 inputs).
    const inputs = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f']
    const roots = [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
      'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
      '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
      '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
      'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
      '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
    ]
    const leaves = inputs.map((hex) => leafHash(Buffer.from(hex, 'hex')))
    roots.forEach((root, i) => expect(treeRoot(leaves.slice(0, i + 1)).toString('hex')).toBe(root))
    const hex = (proof: Buffer[]) => proof.map((node) => node.toString('hex'))
    expect(hex(inclusionProof(leaves, 0))).toEqual([
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ])
    expect(hex(inclusionProof(leaves, 5))).toEqual([
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ])
  })

  it('the frontier gives the same root as the whole tree at every size, also when restored', () => {
    const leaves = leavesOf(300)
    let frontier = Frontier.empty()
    for (let size = 1; size <= 300; size += 1) {
      frontier.append(leaves[size - 1]!)
      expect(frontier.root()).toEqual(treeRoot(leaves.slice(0, size)))
      if (size % 7 === 0) frontier = Frontier.restore(size, frontier.serialize())
    }
    expect(() => Frontier.restore(3, [])).toThrow()
  })
})

describe('inclusion proofs', () => {
  it('verify for every tree size up to 300', () => {
    const leaves = leavesOf(300)
    const roots = prefixRoots(leaves)
    // Every size, with its first, last and a random leaf...
    for (let size = 1; size <= 300; size += 1) {
      const tree = leaves.slice(0, size)
      for (const index of new Set([0, size - 1, Math.floor(Math.random() * size)])) {
        expect(verifyInclusion(tree[index]!, index, size, inclusionProof(tree, index), roots[size]!)).toBe(true)
      }
    }
    // ...any leaf of any size...
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.nat(), (size, seed) => {
        const tree = leaves.slice(0, size)
        const index = seed % size
        return verifyInclusion(tree[index]!, index, size, inclusionProof(tree, index), roots[size]!)
      }),
      { numRuns: 500 },
    )
    // And exhaustively for the small trees, where the edge cases live.
    for (let size = 1; size <= 64; size += 1) {
      const tree = leaves.slice(0, size)
      const root = treeRoot(tree)
      for (let index = 0; index < size; index += 1) {
        expect(verifyInclusion(tree[index]!, index, size, inclusionProof(tree, index), root)).toBe(true)
      }
    }
  })

  it('reject a flipped bit anywhere, a wrong index, a wrong tree size and a wrong root', () => {
    const leaves = leavesOf(300, 1)
    const roots = prefixRoots(leaves)
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 300 }),
        (size, seed, bitSeed, otherSize) => {
          const tree = leaves.slice(0, size)
          const index = seed % size
          const root = roots[size]!
          const proof = inclusionProof(tree, index)
          const leaf = tree[index]!
          if (proof.length > 0) {
            const which = bitSeed % proof.length
            const tampered = proof.map((node, i) => (i === which ? flipBit(node, bitSeed % 256) : node))
            expect(verifyInclusion(leaf, index, size, tampered, root)).toBe(false)
            expect(verifyInclusion(leaf, index, size, proof.slice(0, -1), root)).toBe(false)
          }
          expect(verifyInclusion(leaf, index, size, [...proof, sha('extra')], root)).toBe(false)
          expect(verifyInclusion(flipBit(leaf, bitSeed % 256), index, size, proof, root)).toBe(false)
          expect(verifyInclusion(leaf, index, size, proof, flipBit(root, bitSeed % 256))).toBe(false)
          if (size > 1)
            expect(verifyInclusion(leaf, (index + 1 + (bitSeed % (size - 1))) % size, size, proof, root)).toBe(false)
          // A tree size comes with its own root (the signed checkpoint binds the two).
          if (otherSize !== size && index < otherSize) {
            expect(verifyInclusion(leaf, index, otherSize, proof, roots[otherSize]!)).toBe(false)
          }
          expect(verifyInclusion(leaf, size, size, proof, root)).toBe(false)
          expect(verifyInclusion(leaf, -1, size, proof, root)).toBe(false)
        },
      ),
      { numRuns: 600 },
    )
  })
})

describe('consistency proofs', () => {
  it('verify between every pair of sizes up to 300', () => {
    const leaves = leavesOf(300, 2)
    const roots = prefixRoots(leaves)
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }), (a, b) => {
        const [oldSize, newSize] = a <= b ? [a, b] : [b, a]
        const proof = consistencyProof(leaves.slice(0, newSize), oldSize)
        return verifyConsistency(oldSize, newSize, roots[oldSize]!, roots[newSize]!, proof)
      }),
      { numRuns: 600 },
    )
    for (let newSize = 1; newSize <= 40; newSize += 1) {
      for (let oldSize = 1; oldSize <= newSize; oldSize += 1) {
        const proof = consistencyProof(leaves.slice(0, newSize), oldSize)
        expect(verifyConsistency(oldSize, newSize, roots[oldSize]!, roots[newSize]!, proof)).toBe(true)
      }
    }
  })

  it('reject a flipped bit, wrong sizes and wrong roots', () => {
    const leaves = leavesOf(300, 3)
    const roots = prefixRoots(leaves)
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 299 }), fc.integer({ min: 2, max: 300 }), fc.nat(), (a, b, bitSeed) => {
        fc.pre(a < b)
        const proof = consistencyProof(leaves.slice(0, b), a)
        const which = bitSeed % proof.length
        const tampered = proof.map((node, i) => (i === which ? flipBit(node, bitSeed % 256) : node))
        expect(verifyConsistency(a, b, roots[a]!, roots[b]!, tampered)).toBe(false)
        expect(verifyConsistency(a, b, flipBit(roots[a]!, bitSeed % 256), roots[b]!, proof)).toBe(false)
        expect(verifyConsistency(a, b, roots[a]!, flipBit(roots[b]!, bitSeed % 256), proof)).toBe(false)
        expect(verifyConsistency(a, b, roots[a]!, roots[b]!, [])).toBe(false)
        expect(verifyConsistency(b, a, roots[b]!, roots[a]!, proof)).toBe(false)
        // Each tree size comes with its own root (the signed checkpoint binds the two).
        if (b < 300) expect(verifyConsistency(a, b + 1, roots[a]!, roots[b + 1]!, proof)).toBe(false)
        if (a > 1) expect(verifyConsistency(a - 1, b, roots[a - 1]!, roots[b]!, proof)).toBe(false)
        if (a + 1 < b) expect(verifyConsistency(a + 1, b, roots[a + 1]!, roots[b]!, proof)).toBe(false)
      }),
      { numRuns: 600 },
    )
  })
})
