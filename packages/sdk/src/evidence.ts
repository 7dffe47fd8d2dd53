import { canonicalJson } from './canonical-json.js'
import { concat, equalBytes, fromBase64, fromHex, toBase64Url, toHex, utf8 } from './encoding.js'
import { sha256, webCrypto, type WebCrypto } from './web-crypto.js'

// Offline checks of Oeuvre's evidence (docs/evidence.md): a seal's Ed25519 signature over its
// C2SP checkpoint, and RFC 6962 / RFC 9162 inclusion and consistency proofs, with Web Crypto
// only, so they run in browsers as in Node. Each answers true or false; malformed input is false.
// And the org event log's hash chain (docs/audit.md): `eventHash` and `verifyChain`.

/** The signed head of a tree: what a seal states. */
export interface TreeHead {
  treeSize: number
  /** The Merkle root, 64 hex characters. */
  rootHash: string
}

/** A seal as `oeuvre.seals.get` answers it (only these fields are read). */
export interface SealInput extends TreeHead {
  id?: string
  orgId: string
  checkpoint: string
  signature: string
  keyId: string
}

/** A public key of `/v1/evidence/keys` (RFC 8037 OKP). */
export interface EvidenceKey {
  kty: string
  crv?: string
  x?: string
  kid?: string
}

/** The JWKS as `oeuvre.evidence.getKeys` answers it, its `keys`, or one key. */
export type EvidenceKeys = { keys: readonly EvidenceKey[] } | readonly EvidenceKey[] | EvidenceKey

/** An inclusion proof as `oeuvre.events.getProof` answers it. */
export interface InclusionInput {
  sealId?: string
  /** The event's `hash` (`sha256:<64 hex>`); the leaf is SHA-256(0x00 || its 32 bytes). */
  eventHash?: string
  /** Or the RFC 6962 leaf hash itself, in hex. */
  leafHash?: string
  leafIndex: number
  treeSize: number
  rootHash?: string
  auditPath: readonly string[]
}

/** A consistency proof as `oeuvre.seals.getConsistency` answers it. */
export interface ConsistencyInput {
  fromSealId?: string
  toSealId?: string
  fromSize: number
  toSize: number
  fromRoot: string
  toRoot: string
  proof: readonly string[]
}

export interface EvidenceOptions {
  /** Web Crypto, where the platform has none of its own (Node 18). */
  crypto?: WebCrypto
}

type Bytes = Uint8Array<ArrayBuffer>

/** The parts of a checkpoint text (`<origin>\n<tree size>\n<base64 root>\n`), or undefined when it is not one. */
export function parseCheckpoint(text: string): { origin: string; treeSize: number; rootHash: string } | undefined {
  const match = /^([^\n]+)\n(0|[1-9]\d*)\n([A-Za-z0-9+/]{43}=)\n$/.exec(text)
  const root = match ? fromBase64(match[3]!) : undefined
  if (!match || !root || root.length !== 32) return undefined
  const treeSize = Number(match[2])
  return Number.isSafeInteger(treeSize) ? { origin: match[1]!, treeSize, rootHash: toHex(root) } : undefined
}

/**
 * True when the seal's checkpoint is the text its fields say (`oeuvre/<orgId>`, tree size, root)
 * and is signed by the key of `keys` whose `kid` is the seal's `keyId` (the key's RFC 7638
 * thumbprint, checked too). Pass the keys you trust, kept from `/v1/evidence/keys`. Given a
 * checkpoint's text and signature instead of a seal, true when one of the keys signed it.
 */
export function verifyCheckpoint(seal: SealInput, keys: EvidenceKeys, options?: EvidenceOptions): Promise<boolean>
export function verifyCheckpoint(
  checkpoint: string,
  signature: string,
  keys: EvidenceKeys,
  options?: EvidenceOptions,
): Promise<boolean>
export async function verifyCheckpoint(first: SealInput | string, ...rest: unknown[]): Promise<boolean> {
  if (typeof first === 'string') {
    const [signature, keys, options] = rest as [string, EvidenceKeys, EvidenceOptions | undefined]
    const crypto = webCrypto(options?.crypto)
    if (!parseCheckpoint(first)) return false
    for (const key of keyList(keys)) if (await signedBy(first, signature, key, crypto)) return true
    return false
  }
  const seal = first
  const [keys, options] = rest as [EvidenceKeys, EvidenceOptions | undefined]
  const crypto = webCrypto(options?.crypto)
  const checkpoint = parseCheckpoint(seal.checkpoint)
  if (
    !checkpoint ||
    checkpoint.origin !== `oeuvre/${seal.orgId}` ||
    checkpoint.treeSize !== seal.treeSize ||
    checkpoint.rootHash !== seal.rootHash.toLowerCase()
  )
    return false
  const key = keyList(keys).find((candidate) => candidate.kid === seal.keyId)
  return key !== undefined && (await signedBy(seal.checkpoint, seal.signature, key, crypto))
}

function keyList(keys: EvidenceKeys): readonly EvidenceKey[] {
  if (Array.isArray(keys)) return keys as readonly EvidenceKey[]
  return 'keys' in keys ? (keys as { keys: readonly EvidenceKey[] }).keys : [keys as EvidenceKey]
}

/** An Ed25519 key of the JWKS (its `kid` its RFC 7638 thumbprint) signed `text`. */
async function signedBy(text: string, signature: string, key: EvidenceKey, crypto: WebCrypto): Promise<boolean> {
  if (key.kty !== 'OKP' || key.crv !== 'Ed25519' || typeof key.x !== 'string') return false
  const publicKey = fromBase64(key.x)
  const signatureBytes = fromBase64(signature)
  if (publicKey?.length !== 32 || signatureBytes?.length !== 64) return false
  const thumbprint = toBase64Url(await sha256(utf8(`{"crv":"Ed25519","kty":"OKP","x":"${key.x}"}`), crypto))
  if (thumbprint !== key.kid) return false
  try {
    const imported = await crypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify'])
    return await crypto.subtle.verify({ name: 'Ed25519' }, imported, signatureBytes, utf8(text))
  } catch {
    return false
  }
}

/**
 * True when the audit path proves the event (leaf) is at `leafIndex` of the tree of
 * `treeSize` leaves with root `rootHash` (RFC 9162 section 2.1.3.2). With `seal`, the proof is
 * checked against the seal's signed size and root, and must name them.
 */
export function verifyInclusion(
  proof: InclusionInput,
  seal?: TreeHead & { id?: string },
  options?: EvidenceOptions,
): Promise<boolean>
export function verifyInclusion(
  eventHash: string,
  leafIndex: number,
  treeSize: number,
  auditPath: readonly string[],
  rootHash: string,
): Promise<boolean>
export async function verifyInclusion(first: InclusionInput | string, ...rest: unknown[]): Promise<boolean> {
  let proof: InclusionInput
  let head: (TreeHead & { id?: string }) | undefined
  let options: EvidenceOptions = {}
  if (typeof first === 'string') {
    const [leafIndex, treeSize, auditPath, rootHash] = rest as [number, number, string[], string]
    proof = { eventHash: first, leafIndex, treeSize, auditPath, rootHash }
  } else {
    proof = first
    head = rest[0] as (TreeHead & { id?: string }) | undefined
    options = (rest[1] as EvidenceOptions | undefined) ?? {}
  }
  const crypto = webCrypto(options.crypto)
  if (head) {
    if (proof.treeSize !== head.treeSize) return false
    if (proof.rootHash !== undefined && proof.rootHash.toLowerCase() !== head.rootHash.toLowerCase()) return false
    if (proof.sealId !== undefined && head.id !== undefined && proof.sealId !== head.id) return false
  }
  const root = hash32(head?.rootHash ?? proof.rootHash)
  const leaf = await leafOf(proof, crypto)
  const path = proof.auditPath.map(hash32)
  if (!root || !leaf || path.some((node) => !node)) return false
  const { leafIndex, treeSize } = proof
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize) || leafIndex < 0 || leafIndex >= treeSize)
    return false
  let fn = BigInt(leafIndex)
  let sn = BigInt(treeSize - 1)
  let r = leaf
  for (const p of path as Bytes[]) {
    if (sn === 0n) return false
    if ((fn & 1n) === 1n || fn === sn) {
      r = await node(p, r, crypto)
      while ((fn & 1n) === 0n && fn !== 0n) {
        fn >>= 1n
        sn >>= 1n
      }
    } else {
      r = await node(r, p, crypto)
    }
    fn >>= 1n
    sn >>= 1n
  }
  return sn === 0n && equalBytes(r, root)
}

/**
 * True when the proof shows the tree of `toSize` leaves (root `toRoot`) extends the tree of
 * `fromSize` leaves (root `fromRoot`): nothing the older one covered was changed (RFC 9162
 * section 2.1.4.2). With the two seals, the proof is checked against their signed sizes and roots.
 */
export function verifyConsistency(
  proof: ConsistencyInput,
  from?: TreeHead & { id?: string },
  to?: TreeHead & { id?: string },
  options?: EvidenceOptions,
): Promise<boolean>
export function verifyConsistency(
  fromSize: number,
  toSize: number,
  fromRoot: string,
  toRoot: string,
  proof: readonly string[],
): Promise<boolean>
export async function verifyConsistency(first: ConsistencyInput | number, ...rest: unknown[]): Promise<boolean> {
  let proof: ConsistencyInput
  let options: EvidenceOptions = {}
  if (typeof first === 'number') {
    const [toSize, fromRoot, toRoot, hashes] = rest as [number, string, string, string[]]
    proof = { fromSize: first, toSize, fromRoot, toRoot, proof: hashes }
  } else {
    proof = first
    const [from, to] = rest as [(TreeHead & { id?: string }) | undefined, (TreeHead & { id?: string }) | undefined]
    for (const [head, size, root, id] of [
      [from, proof.fromSize, proof.fromRoot, proof.fromSealId],
      [to, proof.toSize, proof.toRoot, proof.toSealId],
    ] as const) {
      if (!head) continue
      if (head.treeSize !== size || head.rootHash.toLowerCase() !== root.toLowerCase()) return false
      if (head.id !== undefined && id !== undefined && head.id !== id) return false
    }
    options = (rest[2] as EvidenceOptions | undefined) ?? {}
  }
  const crypto = webCrypto(options.crypto)
  const { fromSize, toSize } = proof
  const fromRoot = hash32(proof.fromRoot)
  const toRoot = hash32(proof.toRoot)
  const hashes = proof.proof.map(hash32)
  if (!fromRoot || !toRoot || hashes.some((node) => !node)) return false
  if (!Number.isSafeInteger(fromSize) || !Number.isSafeInteger(toSize) || fromSize < 1 || fromSize > toSize)
    return false
  if (fromSize === toSize) return hashes.length === 0 && equalBytes(fromRoot, toRoot)
  if (hashes.length === 0) return false
  // A power-of-two old tree is a complete subtree of the new one: the proof leaves its root out.
  const complete = (BigInt(fromSize) & BigInt(fromSize - 1)) === 0n
  const path = complete ? [fromRoot, ...(hashes as Bytes[])] : (hashes as Bytes[])
  let fn = BigInt(fromSize - 1)
  let sn = BigInt(toSize - 1)
  while ((fn & 1n) === 1n) {
    fn >>= 1n
    sn >>= 1n
  }
  let fr = path[0]!
  let sr = path[0]!
  for (const c of path.slice(1)) {
    if (sn === 0n) return false
    if ((fn & 1n) === 1n || fn === sn) {
      fr = await node(c, fr, crypto)
      sr = await node(c, sr, crypto)
      while ((fn & 1n) === 0n && fn !== 0n) {
        fn >>= 1n
        sn >>= 1n
      }
    } else {
      sr = await node(sr, c, crypto)
    }
    fn >>= 1n
    sn >>= 1n
  }
  return sn === 0n && equalBytes(fr, fromRoot) && equalBytes(sr, toRoot)
}

/** The RFC 6962 leaf hash of an event hash (`sha256:<hex>`), in hex. */
export async function eventLeafHash(eventHash: string, options: EvidenceOptions = {}): Promise<string | undefined> {
  const leaf = await leafOf({ eventHash }, webCrypto(options.crypto))
  return leaf && toHex(leaf)
}

async function leafOf(proof: Pick<InclusionInput, 'eventHash' | 'leafHash'>, crypto: WebCrypto) {
  if (proof.leafHash !== undefined) return hash32(proof.leafHash)
  const match = /^sha256:([0-9a-fA-F]{64})$/.exec(proof.eventHash ?? '')
  return match ? sha256(concat(new Uint8Array([0]), fromHex(match[1]!)!), crypto) : undefined
}

function hash32(hex: string | undefined): Bytes | undefined {
  const bytes = hex === undefined ? undefined : fromHex(hex)
  return bytes?.length === 32 ? bytes : undefined
}

function node(left: Uint8Array, right: Uint8Array, crypto: WebCrypto): Promise<Bytes> {
  return sha256(concat(new Uint8Array([1]), left, right), crypto)
}

/** The `previousHash` of an org's first event (sequence 1). */
export const GENESIS_HASH = `sha256:${'0'.repeat(64)}`

/** An org event as the feed or `oeuvre.events.get` answers it (its `hash` is not hashed). */
export interface ChainEvent {
  id: string
  orgId: string
  sequence: number
  action: string
  userId: string
  createdAt: string
  resource: { type: string; id: string } | null
  data?: unknown
  hash: string
}

/**
 * The hash of an event by the published recipe (docs/audit.md): SHA-256 over the RFC 8785 text
 * of its members (all but `hash`) plus `previousHash`, the hash of the event before it
 * (`GENESIS_HASH` for sequence 1); written `sha256:<64 hex>`. Rejects data JSON cannot hold.
 */
export async function eventHash(
  event: Omit<ChainEvent, 'hash'> & { hash?: string },
  previousHash: string,
  options: EvidenceOptions = {},
): Promise<string> {
  const text = canonicalJson({
    action: event.action,
    createdAt: event.createdAt,
    data: event.data,
    id: event.id,
    orgId: event.orgId,
    previousHash,
    resource: event.resource,
    sequence: event.sequence,
    userId: event.userId,
  })
  return `sha256:${toHex(await sha256(utf8(text), webCrypto(options.crypto)))}`
}

/** The last event a walk of the chain has checked: the next one must follow it. */
export interface ChainHead {
  sequence: number
  hash: string
}

export type ChainVerdict =
  | { ok: true; checked: number; head: ChainHead }
  | {
      ok: false
      /** Events checked before the break. */
      checked: number
      /** The first sequence that does not follow: the one expected (a gap) or the event whose hash differs. */
      sequence: number
      eventId?: string
      reason: 'gap' | 'hash mismatch'
      detail: string
    }

export interface VerifyChainOptions extends EvidenceOptions {
  /** Where the events continue from (the `head` of the previous page's verdict); the chain's start by default. */
  after?: ChainHead
}

/**
 * Walks events in sequence order and recomputes each hash from its fields and the hash before it:
 * ok with the head (the last sequence and hash), or the first broken link and why (a missing or
 * out-of-order sequence, or a hash that does not recompute). Give one page at a time with
 * `after` set to the previous verdict's head to walk a long log.
 */
export async function verifyChain(
  events: Iterable<ChainEvent>,
  options: VerifyChainOptions = {},
): Promise<ChainVerdict> {
  let head: ChainHead = options.after ?? { sequence: 0, hash: GENESIS_HASH }
  let checked = 0
  for (const event of events) {
    if (event.sequence !== head.sequence + 1)
      return {
        ok: false,
        checked,
        sequence: head.sequence + 1,
        reason: 'gap',
        detail: `expected sequence ${head.sequence + 1}, found ${event.sequence} (${event.id})`,
      }
    let expected: string
    try {
      expected = await eventHash(event, head.hash, options)
    } catch (error) {
      expected = `not computable: ${(error as Error).message}`
    }
    if (expected !== event.hash)
      return {
        ok: false,
        checked,
        sequence: event.sequence,
        eventId: event.id,
        reason: 'hash mismatch',
        detail: `the event states ${event.hash}, its fields and the previous hash give ${expected}`,
      }
    head = { sequence: event.sequence, hash: event.hash }
    checked += 1
  }
  return { ok: true, checked, head }
}
