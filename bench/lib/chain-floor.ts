import { hash } from 'node:crypto'
import { GENESIS_HASH } from '../../src/modules/audit/audit.chain.js'
import { referenceCanonicalJson } from '../../src/platform/canonical-json.js'

/** The verify floor: SHA-256 over the exact bytes an org's hash chain hashes, in one loop. */

/** An org_events row as the owner reads it (`select *`), from pg or PGlite. */
export interface StoredEventRecord {
  id: string
  org_id: string
  sequence: string | number
  action: string
  user_id: string
  created_at: Date
  resource_type: string | null
  resource_id: string | null
  /** JSON text. */
  data: string
  hash: string
}

/**
 * The exact bytes the chain hashes for an org's first events (rows in sequence order from
 * the genesis; docs/audit.md's recipe, canonicalised by the reference package, not by the code
 * under test), and the last one's stored hash.
 */
export function canonicalChainBytes(rows: readonly StoredEventRecord[]): { bytes: Buffer[]; lastHash: string } {
  let previousHash = GENESIS_HASH
  const bytes = rows.map((row) => {
    const canonical = Buffer.from(
      referenceCanonicalJson({
        id: row.id,
        orgId: row.org_id,
        sequence: Number(row.sequence),
        action: row.action,
        userId: row.user_id,
        createdAt: row.created_at.toISOString(),
        resource: row.resource_type && row.resource_id ? { type: row.resource_type, id: row.resource_id } : null,
        data: JSON.parse(row.data) as unknown,
        previousHash,
      }),
    )
    previousHash = row.hash
    return canonical
  })
  return { bytes, lastHash: previousHash }
}

/**
 * Events/s of node's one-shot SHA-256 (the fastest it has, and what the verifier uses) over the
 * bytes in one loop; throws unless the last digest is the chain's stored hash (honest bytes).
 */
export function sha256Rate(sample: readonly Buffer[], lastHash: string): number {
  const started = performance.now()
  let last = ''
  for (const bytes of sample) last = hash('sha256', bytes, 'hex')
  const ms = performance.now() - started
  if (`sha256:${last}` !== lastHash)
    throw new Error(`the floor hashed other bytes than the chain: ${last} vs ${lastHash}`)
  return sample.length / (ms / 1000)
}
