import { leafHash } from '../../shared/merkle/merkle.tree.js'

// What a seal signs and what its Merkle tree is built of, apart from the service, so that
// `oeuvre audit verify` checks seals without loading the HTTP schemas (TypeBox) at start-up.

/** The signed text of a seal (C2SP tlog-checkpoint body). */
export function checkpointText(orgId: string, treeSize: number, root: Buffer): string {
  return `oeuvre/${orgId}\n${treeSize}\n${root.toString('base64')}\n`
}

/** An event's `sha256:<hex>` as the 32 bytes a Merkle leaf hashes. */
export function eventLeaf(hash: string): Buffer {
  return leafHash(Buffer.from(hash.slice('sha256:'.length), 'hex'))
}
