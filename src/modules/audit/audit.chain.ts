import { canonicalJson } from '../../platform/canonical-json.js'
import { sha256Hex } from '../../platform/crypto.js'

/** The `previousHash` of an org's first event. */
export const GENESIS_HASH = `sha256:${'0'.repeat(64)}`

export interface ChainedContent {
  id: string
  orgId: string
  sequence: number
  action: string
  userId: string
  createdAt: string
  resource: { type: string; id: string } | null
  data: unknown
}

/**
 * The published recipe (docs/audit.md): SHA-256 over the RFC 8785 canonical JSON of
 * the event's content plus the previous event's hash, written `sha256:<hex>`.
 */
export function eventHash(content: ChainedContent, previousHash: string): string {
  const canonical = canonicalJson({
    id: content.id,
    orgId: content.orgId,
    sequence: content.sequence,
    action: content.action,
    userId: content.userId,
    createdAt: content.createdAt,
    resource: content.resource,
    data: content.data,
    previousHash,
  })
  return `sha256:${sha256Hex(canonical)}`
}
