import { hash } from 'node:crypto'
import { canonicalJson, jsonString } from '../../platform/canonical-json.js'

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

const text = jsonString

/**
 * The RFC 8785 text of an event's content plus `previousHash`: the members in their canonical
 * order (action, createdAt, data, id, orgId, previousHash, resource, sequence, userId) written
 * around the canonical `data`, the same bytes as canonicalising the whole object (a property
 * test holds them equal) without sorting the fixed members of every event.
 */
export function canonicalEventText(content: ChainedContent, previousHash: string): string {
  // The generic path keeps the reference's behaviour for anything outside the declared shape.
  if (!declaredShape(content, previousHash)) return canonicalJson({ ...pick(content), previousHash })
  const { resource, sequence } = content
  const resourceText = resource === null ? 'null' : `{"id":${text(resource.id)},"type":${text(resource.type)}}`
  return (
    `{"action":${text(content.action)},"createdAt":${text(content.createdAt)},"data":${canonicalJson(content.data)},` +
    `"id":${text(content.id)},"orgId":${text(content.orgId)},"previousHash":${text(previousHash)},` +
    `"resource":${resourceText},"sequence":${sequence},"userId":${text(content.userId)}}`
  )
}

/** Whether the fixed members have the declared types (the data member may be anything). */
function declaredShape(content: ChainedContent, previousHash: string): boolean {
  const { resource } = content
  const resourceOk =
    resource === null ||
    (typeof resource === 'object' &&
      Object.keys(resource).length === 2 &&
      Object.hasOwn(resource, 'id') &&
      Object.hasOwn(resource, 'type') &&
      typeof resource.id === 'string' &&
      typeof resource.type === 'string')
  return (
    resourceOk &&
    Number.isSafeInteger(content.sequence) &&
    typeof content.id === 'string' &&
    typeof content.orgId === 'string' &&
    typeof content.action === 'string' &&
    typeof content.userId === 'string' &&
    typeof content.createdAt === 'string' &&
    typeof previousHash === 'string'
  )
}

/** The content's own members (a presented event also carries `hash`, which is not hashed). */
function pick(content: ChainedContent): ChainedContent {
  return {
    id: content.id,
    orgId: content.orgId,
    sequence: content.sequence,
    action: content.action,
    userId: content.userId,
    createdAt: content.createdAt,
    resource: content.resource,
    data: content.data,
  }
}

/**
 * The published recipe (docs/audit.md): SHA-256 over the RFC 8785 canonical JSON of
 * the event's content plus the previous event's hash, written `sha256:<hex>`.
 */
export function eventHash(content: ChainedContent, previousHash: string): string {
  // One-shot hash: no Hash object per event.
  return `sha256:${hash('sha256', canonicalEventText(content, previousHash), 'hex')}`
}
