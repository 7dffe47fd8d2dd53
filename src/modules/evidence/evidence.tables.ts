import type { ColumnType } from 'kysely'

/** Kysely shape of the seal table (migration 0004) and the verifier's records (0031). */
export interface EvidenceTables {
  evidence_seals: {
    org_id: string
    id: string
    tree_size: bigint
    root_hash: string
    checkpoint: string
    signature: string
    key_id: string
    /** Hex hashes of the right-edge perfect subtrees, largest first. */
    frontier: ColumnType<string[], string, never>
    created_at: Date
  }
  /** Seals `oeuvre audit verify` has verified (migration 0031): where `--since-seal` starts. */
  chain_verifications: {
    org_id: string
    tree_size: bigint
    seal_id: string
    /** Hex hashes of the right edge of the seal's tree without its last leaf. */
    frontier_before_last: ColumnType<string[], string, never>
    verified_at: Date
  }
}
