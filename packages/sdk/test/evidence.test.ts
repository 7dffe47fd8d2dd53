import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto'
import {
  eventHash,
  eventLeafHash,
  GENESIS_HASH,
  Oeuvre,
  verifyChain,
  parseCheckpoint,
  verifyCheckpoint,
  verifyConsistency,
  verifyInclusion,
  type Seal,
} from '@oeuvre/sdk'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventHash as serverEventHash } from '../../../src/modules/audit/index.js'
import { consistencyProof, inclusionProof, leafHash, treeRoot } from '../../../src/shared/merkle/merkle.tree.js'
import { credentials, sandboxPartner, startService, type LiveService, type Partner } from './service.js'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const flipHex = (text: string, bit = 0) => {
  const bytes = Buffer.from(text, 'hex')
  bytes[bit >> 3]! ^= 1 << (bit & 7)
  return bytes.toString('hex')
}

/**
 * The RFC 6962 test vectors as transparency-dev/merkle (proof/verify_test.go) carries them: eight
 * leaves, the root of every prefix, inclusion proofs (1-based leaf, tree size) and consistency proofs.
 */
const LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f']
const ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
]
const INCLUSION: [leaf: number, size: number, proof: string[]][] = [
  [1, 1, []],
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [3, 3, ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']],
  [
    2,
    5,
    [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
]
const CONSISTENCY: [from: number, to: number, proof: string[]][] = [
  [1, 1, []],
  [
    1,
    8,
    [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ],
  ],
  [
    6,
    8,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
  [
    2,
    5,
    [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ],
  ],
  [
    6,
    7,
    [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ],
  ],
]
const SOME_HASH = 'abacaba000000000000000000000000000000000000000000060061e00123456'
const EMPTY_TREE = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
const leafHashOf = (index: number) => hex(leafHash(Buffer.from(LEAVES[index]!, 'hex')))

describe('RFC 6962 test vectors', () => {
  it('verifies every inclusion proof of the vectors, and none of its corruptions', async () => {
    for (const [leaf, size, proof] of INCLUSION) {
      const good = {
        leafHash: leafHashOf(leaf - 1),
        leafIndex: leaf - 1,
        treeSize: size,
        rootHash: ROOTS[size - 1]!,
        auditPath: proof,
      }
      expect(await verifyInclusion(good), `leaf ${leaf} of ${size}`).toBe(true)
      const corrupt = [
        { ...good, leafIndex: good.leafIndex - 1 },
        { ...good, leafIndex: good.leafIndex + 1 },
        { ...good, leafIndex: good.leafIndex ^ 2 },
        { ...good, treeSize: size * 2 },
        { ...good, treeSize: Math.floor(size / 2) },
        { ...good, leafHash: hex(Buffer.from('WrongLeaf')) },
        { ...good, rootHash: EMPTY_TREE },
        { ...good, rootHash: SOME_HASH },
        { ...good, auditPath: [...proof, ''] },
        { ...good, auditPath: [...proof, good.rootHash] },
        { ...good, auditPath: ['', ...proof] },
        { ...good, auditPath: [good.rootHash, ...proof] },
        ...proof.map((_, i) => ({ ...good, auditPath: proof.map((node, j) => (i === j ? flipHex(node, 3) : node)) })),
        ...(proof.length > 0 ? [{ ...good, auditPath: proof.slice(0, -1) }] : []),
        ...(proof.length > 1 ? [{ ...good, auditPath: [proof[0]!, SOME_HASH, ...proof.slice(1)] }] : []),
      ]
      for (const probe of corrupt) expect(await verifyInclusion(probe), JSON.stringify(probe)).toBe(false)
    }
  })

  it('verifies every consistency proof of the vectors, and none of its corruptions', async () => {
    for (const [from, to, proof] of CONSISTENCY) {
      const good = { fromSize: from, toSize: to, fromRoot: ROOTS[from - 1]!, toRoot: ROOTS[to - 1]!, proof }
      expect(await verifyConsistency(good), `${from} -> ${to}`).toBe(true)
      if (proof.length === 0) continue
      const corrupt = [
        { ...good, fromSize: from - 1 },
        { ...good, fromSize: from + 1 },
        { ...good, fromSize: from ^ 2 },
        { ...good, toSize: to * 2 },
        { ...good, toSize: Math.floor(to / 2) },
        { ...good, fromRoot: hex(Buffer.from('WrongRoot')) },
        { ...good, toRoot: hex(Buffer.from('WrongRoot')) },
        { ...good, fromRoot: good.toRoot, toRoot: good.fromRoot },
        { ...good, proof: [] },
        { ...good, proof: [...proof, ''] },
        { ...good, proof: [...proof, good.fromRoot] },
        { ...good, proof: [...proof, good.toRoot] },
        { ...good, proof: ['', ...proof] },
        { ...good, proof: [good.fromRoot, ...proof] },
        { ...good, proof: [good.toRoot, ...proof] },
        { ...good, proof: [proof[0]!, ...proof] },
        { ...good, proof: proof.slice(0, -1) },
        ...proof.map((_, i) => ({ ...good, proof: proof.map((node, j) => (i === j ? flipHex(node, 4) : node)) })),
      ]
      for (const probe of corrupt) expect(await verifyConsistency(probe), JSON.stringify(probe)).toBe(false)
    }
  })

  it('takes the positional form of docs/evidence.md as well', async () => {
    const [from, to, proof] = CONSISTENCY[2]!
    expect(await verifyConsistency(from, to, ROOTS[from - 1]!, ROOTS[to - 1]!, proof)).toBe(true)
    expect(await verifyConsistency(from, to, ROOTS[to - 1]!, ROOTS[from - 1]!, proof)).toBe(false)
  })
})

describe('against the service’s own Merkle trees (property)', () => {
  const tree = fc
    .integer({ min: 1, max: 200 })
    .chain((size) =>
      fc.tuple(fc.constant(size), fc.integer({ min: 0, max: size - 1 }), fc.integer({ min: 1, max: size })),
    )

  it('verifies the service’s inclusion proof of every leaf and refuses it once changed', async () => {
    await fc.assert(
      fc.asyncProperty(tree, fc.integer({ min: 0, max: 255 }), async ([size, index], bit) => {
        const leaves = Array.from({ length: size }, (_, i) => leafHash(Buffer.from(`event ${size}/${i}`)))
        const proof = {
          leafHash: hex(leaves[index]!),
          leafIndex: index,
          treeSize: size,
          rootHash: hex(treeRoot(leaves)),
          auditPath: inclusionProof(leaves, index).map(hex),
        }
        expect(await verifyInclusion(proof)).toBe(true)
        expect(await verifyInclusion({ ...proof, rootHash: flipHex(proof.rootHash, bit) })).toBe(false)
        expect(await verifyInclusion({ ...proof, leafHash: flipHex(proof.leafHash, bit) })).toBe(false)
        if (proof.auditPath.length > 0) {
          const at = bit % proof.auditPath.length
          const auditPath = proof.auditPath.map((node, i) => (i === at ? flipHex(node, bit) : node))
          expect(await verifyInclusion({ ...proof, auditPath })).toBe(false)
          expect(await verifyInclusion({ ...proof, leafIndex: (index + 1) % size })).toBe(false)
        }
      }),
      { numRuns: 150 },
    )
  })

  it('verifies the service’s consistency proof between any two sizes and refuses it once changed', async () => {
    await fc.assert(
      fc.asyncProperty(tree, fc.integer({ min: 0, max: 255 }), async ([size, , older], bit) => {
        const leaves = Array.from({ length: size }, (_, i) => leafHash(Buffer.from(`entry ${i}`)))
        const proof = {
          fromSize: older,
          toSize: size,
          fromRoot: hex(treeRoot(leaves.slice(0, older))),
          toRoot: hex(treeRoot(leaves)),
          proof: consistencyProof(leaves, older).map(hex),
        }
        expect(await verifyConsistency(proof)).toBe(true)
        expect(await verifyConsistency({ ...proof, fromRoot: flipHex(proof.fromRoot, bit) })).toBe(false)
        if (older < size) {
          expect(await verifyConsistency({ ...proof, toRoot: flipHex(proof.toRoot, bit) })).toBe(false)
          const at = bit % proof.proof.length
          const hashes = proof.proof.map((node, i) => (i === at ? flipHex(node, bit) : node))
          expect(await verifyConsistency({ ...proof, proof: hashes })).toBe(false)
        }
      }),
      { numRuns: 150 },
    )
  })
})

describe('event hashes against the service’s own recipe (property)', () => {
  const content = fc.record({
    id: fc.string(),
    orgId: fc.string(),
    sequence: fc.integer({ min: 1, max: 2 ** 40 }),
    action: fc.string(),
    userId: fc.string(),
    createdAt: fc.string(),
    resource: fc.option(fc.record({ type: fc.string(), id: fc.string() }), { nil: null }),
    data: fc.jsonValue(),
  })

  it('hashes any event content and previous hash as audit.chain.ts does', async () => {
    await fc.assert(
      fc.asyncProperty(content, fc.string(), async (event, previousHash) => {
        // As the API gives it: JSON text parsed back.
        const presented = JSON.parse(JSON.stringify(event)) as typeof event
        expect(await eventHash(presented, previousHash)).toBe(serverEventHash(presented, previousHash))
      }),
      { numRuns: 300 },
    )
  })
})

describe('checkpoints', () => {
  // RFC 8032 section 7.1, TEST 1: the key pair whose public key is d75a98...511a.
  const secret = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex')
  const privateKey = createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), secret]),
    format: 'der',
    type: 'pkcs8',
  })
  const x = createPublicKey(privateKey).export({ format: 'jwk' }).x!
  const kid = createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url')
  const jwk = { kty: 'OKP', crv: 'Ed25519', x, kid, use: 'sig', alg: 'EdDSA' }
  const root = createHash('sha256').update('some tree').digest()
  const orgId = 'org_01JD2YB6X8Q0W3M5N7P9R1T3V4'
  const checkpoint = `oeuvre/${orgId}\n42\n${root.toString('base64')}\n`
  const seal = {
    orgId,
    treeSize: 42,
    rootHash: root.toString('hex'),
    checkpoint,
    signature: sign(null, Buffer.from(checkpoint), privateKey).toString('base64'),
    keyId: kid,
  }

  it('verifies a checkpoint signed by the RFC 8032 test key, given as a JWKS, a list or one key', async () => {
    expect(Buffer.from(x, 'base64url').toString('hex')).toBe(
      'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    )
    expect(await verifyCheckpoint(seal, { keys: [jwk] })).toBe(true)
    expect(await verifyCheckpoint(seal, [jwk])).toBe(true)
    expect(await verifyCheckpoint(seal, jwk)).toBe(true)
    expect(parseCheckpoint(checkpoint)).toEqual({ origin: `oeuvre/${orgId}`, treeSize: 42, rootHash: seal.rootHash })
    // The checkpoint text and its signature alone: signed by one of the keys.
    expect(await verifyCheckpoint(checkpoint, seal.signature, { keys: [{ ...jwk, kid: 'other', x: 'AA' }, jwk] })).toBe(
      true,
    )
    expect(await verifyCheckpoint(checkpoint.replace('42', '43'), seal.signature, [jwk])).toBe(false)
  })

  it('refuses a changed checkpoint, size, root, org, signature or key', async () => {
    const otherX = Buffer.alloc(32, 7).toString('base64url')
    const probes: [string, typeof seal, object][] = [
      ['size', { ...seal, treeSize: 43 }, jwk],
      ['root', { ...seal, rootHash: flipHex(seal.rootHash) }, jwk],
      ['org', { ...seal, orgId: 'org_01JD2YB6X8Q0W3M5N7P9R1T3V5' }, jwk],
      ['text', { ...seal, checkpoint: checkpoint.replace('\n42\n', '\n43\n'), treeSize: 43 }, jwk],
      ['signature', { ...seal, signature: Buffer.from(seal.signature, 'base64').reverse().toString('base64') }, jwk],
      ['unknown key', { ...seal, keyId: 'another' }, jwk],
      ['key under the same kid', seal, { ...jwk, x: otherX }],
      ['not Ed25519', seal, { ...jwk, crv: 'X25519' }],
      ['no signature', { ...seal, signature: '' }, jwk],
    ]
    for (const [what, probe, key] of probes) expect(await verifyCheckpoint(probe, key as typeof jwk), what).toBe(false)
    expect(parseCheckpoint('oeuvre/x\n042\nAAAA\n')).toBeUndefined()
  })
})

describe('evidence fetched from the service, verified offline', () => {
  let service: LiveService
  let partner: Partner
  let oeuvre: Oeuvre
  let older: Seal
  let newer: Seal

  beforeAll(async () => {
    service = await startService()
    partner = await sandboxPartner(service)
    oeuvre = new Oeuvre(credentials(service, partner))
    const make = (name: string) =>
      oeuvre.creators.create(partner.orgId, { name, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' })
    await make('First')
    older = (await service.t.services.evidence.sealOrg(partner.orgId))!
    for (const name of ['Second', 'Third', 'Fourth']) await make(name)
    newer = (await service.t.services.evidence.sealOrg(partner.orgId))!
  })
  afterAll(() => service.close())

  it('a seal’s checkpoint verifies against /v1/evidence/keys', async () => {
    const keys = await oeuvre.evidence.getKeys()
    const seal = await oeuvre.seals.get(partner.orgId, newer.id)
    expect(await verifyCheckpoint(seal, keys)).toBe(true)
    expect(await verifyCheckpoint({ ...seal, treeSize: seal.treeSize - 1 }, keys)).toBe(false)
    expect(
      await verifyCheckpoint({ ...seal, signature: (await oeuvre.seals.get(partner.orgId, older.id)).signature }, keys),
    ).toBe(false)
  })

  it('every event’s inclusion proof verifies against the seal, and only for its own event', async () => {
    const seal = await oeuvre.seals.get(partner.orgId, newer.id)
    const events = await oeuvre.events.list(partner.orgId, { limit: 100 }).toArray()
    const covered = events.filter((event) => event.sequence <= seal.treeSize)
    expect(covered).toHaveLength(seal.treeSize)
    for (const event of covered) {
      const proof = await oeuvre.events.getProof(partner.orgId, event.id, { seal: seal.id })
      expect(proof.eventHash).toBe(event.hash)
      expect(await verifyInclusion(proof, seal)).toBe(true)
      expect(await verifyInclusion(event.hash, proof.leafIndex, seal.treeSize, proof.auditPath, seal.rootHash)).toBe(
        true,
      )
      const other = covered.find((candidate) => candidate.id !== event.id)!
      expect(await verifyInclusion({ ...proof, eventHash: other.hash }, seal)).toBe(false)
      expect(await verifyInclusion(proof, await oeuvre.seals.get(partner.orgId, older.id))).toBe(false)
    }
    expect(await eventLeafHash(covered[0]!.hash)).toBe(hex(leafHash(Buffer.from(covered[0]!.hash.slice(7), 'hex'))))
  })

  it('recomputes every event’s hash from the feed, walks the chain page by page, and finds a tampered event', async () => {
    const events = await oeuvre.events.list(partner.orgId, { limit: 100 }).toArray()
    expect(events.length).toBeGreaterThanOrEqual(5)
    let previous = GENESIS_HASH
    for (const event of events) {
      expect(await eventHash(event, previous)).toBe(event.hash)
      previous = event.hash
    }
    const whole = await verifyChain(events)
    expect(whole).toEqual({ ok: true, checked: events.length, head: { sequence: events.length, hash: previous } })
    // Two pages of the feed, the second continuing from the first's head.
    const first = await oeuvre.events.list(partner.orgId, { limit: 2 })
    const firstVerdict = await verifyChain(first.data)
    expect(firstVerdict).toMatchObject({ ok: true, checked: 2 })
    const rest = await verifyChain(events.slice(2), { after: firstVerdict.ok ? firstVerdict.head : undefined })
    expect(rest).toEqual({ ok: true, checked: events.length - 2, head: { sequence: events.length, hash: previous } })

    const third = events[2]!
    const tampered = (change: Partial<(typeof events)[number]>) =>
      events.map((event) => (event.id === third.id ? { ...event, ...change } : event))
    for (const change of [
      { data: { ...(third.data as object), name: 'Someone else' } },
      { createdAt: new Date(Date.parse(third.createdAt) + 1).toISOString() },
      { userId: events[0]!.orgId.replace('org_', 'usr_') },
      { action: 'creator.deleted' },
      { hash: events[1]!.hash },
    ])
      expect(await verifyChain(tampered(change)), JSON.stringify(change)).toMatchObject({
        ok: false,
        checked: 2,
        sequence: 3,
        eventId: third.id,
        reason: 'hash mismatch',
      })
    // A removed event is a gap; an event after a changed one no longer follows its (stated) hash.
    expect(await verifyChain(events.filter((event) => event.id !== third.id))).toMatchObject({
      ok: false,
      checked: 2,
      sequence: 3,
      reason: 'gap',
    })
    const rehashed = tampered({ data: { changed: true } })
    rehashed[2] = { ...rehashed[2]!, hash: await eventHash(rehashed[2]!, events[1]!.hash) }
    expect(await verifyChain(rehashed)).toMatchObject({ ok: false, checked: 3, sequence: 4, reason: 'hash mismatch' })
    expect(await verifyChain(events.slice(1))).toMatchObject({ ok: false, checked: 0, sequence: 1, reason: 'gap' })
  })

  it('the newer seal’s consistency proof from the older verifies, and not the other way round', async () => {
    const from = await oeuvre.seals.get(partner.orgId, older.id)
    const to = await oeuvre.seals.get(partner.orgId, newer.id)
    const proof = await oeuvre.seals.getConsistency(partner.orgId, to.id, { from: from.id })
    expect(await verifyConsistency(proof, from, to)).toBe(true)
    expect(await verifyConsistency(proof.fromSize, proof.toSize, proof.fromRoot, proof.toRoot, proof.proof)).toBe(true)
    expect(await verifyConsistency(proof, to, from)).toBe(false)
    expect(await verifyConsistency({ ...proof, toRoot: from.rootHash }, from)).toBe(false)
  })
})
