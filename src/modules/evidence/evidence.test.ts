import { createHash, createPublicKey, verify } from 'node:crypto'
import { BATCH_LINES } from '../../verify.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECOND } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import {
  call,
  eventCount,
  expectProblem,
  memberWithRole,
  ownerWithOrg,
  type OrgAccount,
} from '../../../test/helpers.js'
import { buildWebhookTestApp, type WebhookTestApp } from '../../../test/webhook-helpers.js'
import { eventHash } from '../audit/index.js'
import { presentEvent } from '../audit/index.js'
import { verifyChainAndSeals } from '../verification/index.js'
import { asOwner } from '../../db/sql-backend.js'
import { hex, node, rfcVerifyInclusion, sha256 } from '../../../test/rfc6962.js'

function rfcVerifyConsistency(
  first: number,
  second: number,
  firstRoot: Buffer,
  secondRoot: Buffer,
  proof: string[],
): boolean {
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot)
  const path: Buffer[] = proof.map(hex)
  if ((first & (first - 1)) === 0) path.unshift(firstRoot)
  let fn = first - 1
  let sn = second - 1
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2)
    sn = Math.floor(sn / 2)
  }
  let fr = path[0]!
  let sr = path[0]!
  for (const c of path.slice(1)) {
    if (sn === 0) return false
    if (fn % 2 === 1 || fn === sn) {
      fr = node(c, fr)
      sr = node(c, sr)
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2)
        sn = Math.floor(sn / 2)
      }
    } else {
      sr = node(sr, c)
    }
    fn = Math.floor(fn / 2)
    sn = Math.floor(sn / 2)
  }
  return sn === 0 && fr.equals(firstRoot) && sr.equals(secondRoot)
}

let t: WebhookTestApp
let owner: OrgAccount

beforeAll(async () => {
  t = await buildWebhookTestApp({ env: { SEAL_EVERY_EVENTS: '5', SEAL_EVERY_SECONDS: '60' } })
  owner = await ownerWithOrg(t.app, { environment: 'sandbox' })
})
afterAll(() => t.close())

const ctxOf = (account: OrgAccount): RequestContext => ({
  orgId: account.orgId,
  requestId: 'req_test',
  actor: { userId: account.userId, kind: 'person', role: 'owner' },
})
const addEvents = async (account: OrgAccount, n: number) => {
  for (let i = 0; i < n; i += 1) {
    await t.db.tx(ctxOf(account), (tx) =>
      t.services.audit.append(
        tx,
        ctxOf(account),
        'catalog.created',
        { type: 'catalog', id: `cat_${i}` },
        { title: `Song ${i}` },
      ),
    )
  }
}
const seals = async (account: OrgAccount) => (await t.services.evidence.listSeals(account.orgId, { limit: 100 })).data
const sealJob = () => t.job('evidence-seal')

describe('sealing', () => {
  it('seals every SEAL_EVERY_EVENTS events or after SEAL_EVERY_SECONDS, and not for its own announcement', async () => {
    const org = await ownerWithOrg(t.app)
    await sealJob().run()
    expect(await seals(org)).toEqual([])
    t.clock.advance(60 * SECOND)
    await sealJob().run()
    expect((await seals(org)).map((s) => s.treeSize)).toEqual([1])
    // Only evidence.sealed is new: no seal, however long we wait.
    t.clock.advance(10 * 60 * SECOND)
    await sealJob().run()
    expect(await seals(org)).toHaveLength(1)
    await addEvents(org, 5)
    await sealJob().run()
    expect((await seals(org)).map((s) => s.treeSize)).toEqual([7, 1])
  })

  it('stores a signed checkpoint and announces it as evidence.sealed', async () => {
    const org = await ownerWithOrg(t.app)
    await addEvents(org, 3)
    const seal = (await t.services.evidence.sealOrg(org.orgId))!
    expect(seal).toMatchObject({
      orgId: org.orgId,
      treeSize: 4,
      keyId: t.services.evidenceSigner.keyId,
      createdAt: t.clock.now().toISOString(),
    })
    expect(seal.id).toMatch(/^seal_/)
    expect(seal.rootHash).toMatch(/^[0-9a-f]{64}$/)
    expect(seal.checkpoint).toBe(`oeuvre/${org.orgId}\n4\n${hex(seal.rootHash).toString('base64')}\n`)
    const jwks = await call(t.app, { url: '/v1/evidence/keys' })
    expect(jwks.statusCode).toBe(200)
    const [jwk] = jwks.json().keys
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid: seal.keyId, alg: 'EdDSA', use: 'sig' })
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' })
    expect(verify(null, Buffer.from(seal.checkpoint), publicKey, Buffer.from(seal.signature, 'base64'))).toBe(true)
    expect(
      verify(
        null,
        Buffer.from(seal.checkpoint.replace('\n4\n', '\n5\n')),
        publicKey,
        Buffer.from(seal.signature, 'base64'),
      ),
    ).toBe(false)
    // RFC 7638 thumbprint
    expect(jwk.kid).toBe(
      createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${jwk.x}"}`).digest('base64url'),
    )

    const last = await t.db.read(org.orgId, (db) =>
      db
        .selectFrom('org_events')
        .selectAll()
        .where('org_id', '=', org.orgId)
        .orderBy('sequence', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow(),
    )
    expect({ ...last, data: JSON.parse(last.data) as unknown }).toMatchObject({
      action: 'evidence.sealed',
      sequence: 5n,
      resource_type: 'seal',
      resource_id: seal.id,
      data: seal,
    })
    expect(await t.services.evidence.sealOrg(org.orgId)).toMatchObject({ treeSize: 5 })
  })
})

describe('proofs over HTTP, checked by an independent verifier', () => {
  it('proves every event of the log in the newest seal and in an older one', async () => {
    await addEvents(owner, 12)
    const older = (await t.services.evidence.sealOrg(owner.orgId))!
    await addEvents(owner, 9)
    const newer = (await t.services.evidence.sealOrg(owner.orgId))!
    const events = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('org_events')
        .select(['id', 'sequence', 'hash'])
        .where('org_id', '=', owner.orgId)
        .orderBy('sequence')
        .execute(),
    )
    for (const event of events.filter((e) => Number(e.sequence) <= newer.treeSize)) {
      const response = await call(t.app, { url: `/api/org-events/${event.id}/proof`, token: owner.token })
      expect(response.statusCode, response.body).toBe(200)
      const proof = response.json()
      expect(proof).toMatchObject({
        sealId: newer.id,
        eventId: event.id,
        eventHash: event.hash,
        leafIndex: Number(event.sequence) - 1,
        treeSize: newer.treeSize,
        rootHash: newer.rootHash,
      })
      const leaf = sha256(Buffer.from([0]), hex(event.hash.slice(7)))
      expect(rfcVerifyInclusion(proof.leafIndex, proof.treeSize, leaf, proof.auditPath, hex(proof.rootHash))).toBe(true)
      expect(rfcVerifyInclusion(proof.leafIndex, proof.treeSize, leaf, proof.auditPath, hex(older.rootHash))).toBe(
        false,
      )
    }
    const early = events[3]!
    const inOlder = (
      await call(t.app, { url: `/api/org-events/${early.id}/proof?seal=${older.id}`, token: owner.token })
    ).json()
    expect(inOlder).toMatchObject({ sealId: older.id, treeSize: older.treeSize })
    expect(
      rfcVerifyInclusion(
        3,
        older.treeSize,
        sha256(Buffer.from([0]), hex(early.hash.slice(7))),
        inOlder.auditPath,
        hex(older.rootHash),
      ),
    ).toBe(true)
    // The root in the signed checkpoint is the one the proof reaches.
    expect(Buffer.from(newer.checkpoint.split('\n')[2]!, 'base64').toString('hex')).toBe(newer.rootHash)

    const consistency = await call(t.app, {
      url: `/api/seals/${newer.id}/consistency?from=${older.id}`,
      token: owner.token,
    })
    expect(consistency.statusCode, consistency.body).toBe(200)
    const body = consistency.json()
    expect(body).toMatchObject({
      fromSealId: older.id,
      toSealId: newer.id,
      fromSize: older.treeSize,
      toSize: newer.treeSize,
      fromRoot: older.rootHash,
      toRoot: newer.rootHash,
    })
    expect(rfcVerifyConsistency(body.fromSize, body.toSize, hex(body.fromRoot), hex(body.toRoot), body.proof)).toBe(
      true,
    )
    const same = (
      await call(t.app, { url: `/api/seals/${newer.id}/consistency?from=${newer.id}`, token: owner.token })
    ).json()
    expect(same.proof).toEqual([])
  })

  it('lists and fetches seals, newest first', async () => {
    const list = await call(t.app, { url: '/api/seals?limit=1', token: owner.token })
    expect(list.statusCode).toBe(200)
    const [newest] = list.json().data
    expect(list.json().pagination.hasMore).toBe(true)
    const next = await call(t.app, {
      url: `/api/seals?limit=1&cursor=${list.json().pagination.cursor}`,
      token: owner.token,
    })
    expect(next.json().data[0].treeSize).toBeLessThan(newest.treeSize)
    expect((await call(t.app, { url: `/api/seals/${newest.id}`, token: owner.token })).json()).toEqual(newest)
  })

  it('answers errors with problem details and writes nothing', async () => {
    const before = await eventCount(t.db, owner.orgId)
    const [newest] = await seals(owner)
    const oldest = (await seals(owner)).at(-1)!
    await addEvents(owner, 1)
    const unsealed = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('org_events')
        .select('id')
        .where('org_id', '=', owner.orgId)
        .orderBy('sequence', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow(),
    )
    const notYet = await call(t.app, { url: `/api/org-events/${unsealed.id}/proof`, token: owner.token })
    expectProblem(notYet, 422, 'unprocessable')
    expect(notYet.json().detail).toMatch(/not sealed/)
    expectProblem(
      await call(t.app, { url: `/api/org-events/${unsealed.id}/proof?seal=seal_nope`, token: owner.token }),
      404,
      'resource_missing',
    )
    expectProblem(
      await call(t.app, { url: '/api/org-events/evt_nope/proof', token: owner.token }),
      404,
      'resource_missing',
    )
    expectProblem(
      await call(t.app, { url: `/api/org-events/${unsealed.id}/proof?bogus=1`, token: owner.token }),
      400,
      'parameter_unknown',
    )
    expectProblem(
      await call(t.app, { url: `/api/seals/${oldest.id}/consistency?from=${newest!.id}`, token: owner.token }),
      400,
      'parameter_invalid',
    )
    expectProblem(
      await call(t.app, { url: `/api/seals/${newest!.id}/consistency`, token: owner.token }),
      400,
      'parameter_missing',
    )
    expectProblem(await call(t.app, { url: '/api/seals/seal_nope', token: owner.token }), 404, 'resource_missing')
    expect(await eventCount(t.db, owner.orgId)).toBe(before + 1)
  })

  it('needs a token, lets any member read, and hides other orgs’ seals and events', async () => {
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    const stranger = await ownerWithOrg(t.app)
    const [seal] = await seals(owner)
    const event = await t.db.read(owner.orgId, (db) =>
      db
        .selectFrom('org_events')
        .select('id')
        .where('org_id', '=', owner.orgId)
        .orderBy('sequence')
        .limit(1)
        .executeTakeFirstOrThrow(),
    )
    expectProblem(await call(t.app, { url: '/api/seals' }), 401, 'authentication_required')
    expect((await call(t.app, { url: `/api/seals/${seal!.id}`, token: viewer.token })).statusCode).toBe(200)
    expect((await call(t.app, { url: `/api/org-events/${event.id}/proof`, token: viewer.token })).statusCode).toBe(200)
    expectProblem(await call(t.app, { url: `/api/seals/${seal!.id}`, token: stranger.token }), 404, 'resource_missing')
    expectProblem(
      await call(t.app, { url: `/api/seals/${seal!.id}/consistency?from=${seal!.id}`, token: stranger.token }),
      404,
      'resource_missing',
    )
    expectProblem(
      await call(t.app, { url: `/api/org-events/${event.id}/proof`, token: stranger.token }),
      404,
      'resource_missing',
    )
    expect((await call(t.app, { url: '/api/seals', token: stranger.token })).json().data).toEqual([])
  })
})

describe('tamper detection (audit verify)', () => {
  const signers = () => [t.services.evidenceSigner]

  async function sealedOrg(events: number) {
    const org = await ownerWithOrg(t.app)
    await addEvents(org, events)
    await t.services.evidence.sealOrg(org.orgId)
    await addEvents(org, 3)
    await t.services.evidence.sealOrg(org.orgId)
    return org
  }

  async function ownerStatement(statement: string, params: unknown[]): Promise<void> {
    await asOwner(t.db.backend, statement, params)
  }

  it('verifies an untouched log and all its seals', async () => {
    const org = await sealedOrg(6)
    expect(await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })).toMatchObject({
      ok: true,
      events: 12,
      seals: { ok: true, seals: 2 },
    })
  })

  it('finds an altered event row at its sequence', async () => {
    const org = await sealedOrg(6)
    await ownerStatement(`update org_events set data = '{"title":"Forged"}' where org_id = $1 and sequence = 4`, [
      org.orgId,
    ])
    const report = await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })
    expect(report).toMatchObject({ ok: false, broken: { sequence: 4, reason: expect.stringMatching(/hash mismatch/) } })
    expect(report.seals).toMatchObject({ ok: true })
  })

  it('finds a deleted event row at its sequence', async () => {
    const org = await sealedOrg(6)
    await ownerStatement('delete from org_events where org_id = $1 and sequence = 5', [org.orgId])
    const report = await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })
    expect(report).toMatchObject({
      ok: false,
      broken: { sequence: 5, eventId: null, reason: 'event 5 is missing (next present is 6)' },
    })
    expect(report.seals).toMatchObject({ ok: false, broken: { treeSize: 7, reason: 'event 5 is missing' } })
  })

  it('catches a rewrite that recomputed the whole hash chain, through the seals', async () => {
    const org = await sealedOrg(6)
    const rows = await t.db.read(org.orgId, (db) =>
      db.selectFrom('org_events').selectAll().where('org_id', '=', org.orgId).orderBy('sequence').execute(),
    )
    let previous = rows[2]!.hash
    for (const row of rows.slice(3)) {
      const content = presentEvent(row)
      if (content.sequence === 4) content.data = { title: 'Forged' }
      const hash = eventHash(content, previous)
      await ownerStatement('update org_events set data = $3, hash = $4 where org_id = $1 and sequence = $2', [
        org.orgId,
        row.sequence.toString(),
        JSON.stringify(content.data),
        hash,
      ])
      previous = hash
    }
    await ownerStatement('update org_event_heads set hash = $2 where org_id = $1', [org.orgId, previous])
    const report = await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })
    expect(report).toMatchObject({
      ok: false,
      broken: { sequence: 7, reason: expect.stringMatching(/an event at or before 7 was changed/) },
    })
    expect(report.seals?.broken?.treeSize).toBe(7)
  })

  it('rejects a seal signed by a key the deployment does not know, or with a forged signature', async () => {
    const org = await sealedOrg(2)
    expect(await verifyChainAndSeals(t.db, org.orgId, [], { batchLines: BATCH_LINES })).toMatchObject({
      ok: false,
      seals: { broken: { reason: expect.stringMatching(/does not know/) } },
    })
    await ownerStatement(`update evidence_seals set signature = $2 where org_id = $1`, [
      org.orgId,
      Buffer.alloc(64).toString('base64'),
    ])
    expect(await verifyChainAndSeals(t.db, org.orgId, signers(), { batchLines: BATCH_LINES })).toMatchObject({
      ok: false,
      seals: { broken: { reason: 'the signature does not verify' } },
    })
  })
})
