import type { ColumnType } from 'kysely'

/** Kysely shape of the seal table (migration 0004). */
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
}
