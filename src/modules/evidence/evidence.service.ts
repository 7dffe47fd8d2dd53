import { sql, type Selectable } from 'kysely'
import type { Region } from '../../config.js'
import type { Database, Reader, Tx } from '../../database.js'
import { SECOND, type Clock } from '../../platform/clock.js'
import { AppError, notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import { decodeCursor, olderThan, type Page, toPage } from '../../platform/pagination.js'
import type { AuditLog } from '../audit/index.js'
import type { Job } from '../../worker/worker.js'
import type { EvidenceSigner } from './evidence.keys.js'
import { checkpointText, eventLeaf } from './evidence.checkpoint.js'
import { consistencyProof, Frontier, inclusionProof } from '../../shared/merkle/merkle.tree.js'
import type { ConsistencyProof, InclusionProof, Jwks, Seal, SealListQuery } from './evidence.schemas.js'
import type { EvidenceTables } from './evidence.tables.js'

type SealRow = Selectable<EvidenceTables['evidence_seals']>

const BATCH = 5000

export function presentSeal(row: SealRow, region: Region): Seal {
  return {
    id: row.id,
    orgId: row.org_id,
    region,
    treeSize: Number(row.tree_size),
    rootHash: row.root_hash,
    checkpoint: row.checkpoint,
    signature: row.signature,
    keyId: row.key_id,
    createdAt: row.created_at.toISOString(),
  }
}

export interface EvidenceService {
  /** Seals the org's log as it stands; null when nothing is new. */
  sealOrg(orgId: string): Promise<Seal | null>
  listSeals(orgId: string, query: SealListQuery): Promise<Page<Seal>>
  getSeal(orgId: string, sealId: string): Promise<Seal>
  inclusion(orgId: string, eventId: string, sealId: string | undefined): Promise<InclusionProof>
  consistency(orgId: string, sealId: string, fromId: string): Promise<ConsistencyProof>
  keys(): Jwks
}

/** Event hashes with sequence in (after, upTo], checked to be gapless. */
async function leavesBetween(db: Reader | Tx, orgId: string, after: number, upTo: number): Promise<Buffer[]> {
  const leaves: Buffer[] = []
  for (let from = after; from < upTo; from += BATCH) {
    const rows = await db
      .selectFrom('org_events')
      .select(['sequence', 'hash'])
      .where('org_id', '=', orgId)
      .where('sequence', '>', BigInt(from))
      .where('sequence', '<=', BigInt(Math.min(from + BATCH, upTo)))
      .orderBy('sequence', 'asc')
      .execute()
    for (const row of rows) {
      if (Number(row.sequence) !== after + leaves.length + 1)
        throw new Error(`org ${orgId}: event ${after + leaves.length + 1} is missing from the log`)
      leaves.push(eventLeaf(row.hash))
    }
  }
  if (leaves.length !== upTo - after)
    throw new Error(`org ${orgId}: the log ends at ${after + leaves.length}, before ${upTo}`)
  return leaves
}

export interface EvidenceDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: AuditLog
  signer: EvidenceSigner
  /** This deployment's region: every seal names it. */
  region: Region
}

export function createEvidenceService(deps: EvidenceDeps): EvidenceService {
  const { db, signer, region } = deps
  const present = (row: SealRow) => presentSeal(row, region)
  return {
    sealOrg: (orgId) => sealOrg(deps, orgId),
    listSeals: (orgId, query) => listSeals(deps, orgId, query),
    getSeal: async (orgId, sealId) => present(await db.read(orgId, (reader) => findSeal(reader, orgId, sealId))),
    inclusion: (orgId, eventId, sealId) => db.read(orgId, (reader) => inclusion(reader, orgId, eventId, sealId)),
    consistency: (orgId, sealId, fromId) => db.read(orgId, (reader) => consistency(reader, orgId, sealId, fromId)),
    keys: () => ({ keys: [{ ...signer.jwk, region }], region }),
  }
}

async function findSeal(reader: Reader, orgId: string, sealId: string, param?: string): Promise<SealRow> {
  const row = await reader
    .selectFrom('evidence_seals')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', sealId)
    .executeTakeFirst()
  if (!row) throw param ? new AppError('resource_missing', `No such seal: ${sealId}`, { param }) : notFound('seal')
  return row
}

async function sealOrg(deps: EvidenceDeps, orgId: string): Promise<Seal | null> {
  const { ids, clock, signer, audit } = deps
  return deps.db.tx({ orgId }, async (tx) => {
    // The head's row lock holds the org's writers still while the tree is read.
    const head = await tx
      .selectFrom('org_event_heads')
      .select('sequence')
      .where('org_id', '=', orgId)
      .forUpdate()
      .executeTakeFirst()
    if (!head) return null
    const size = Number(head.sequence)
    const last = await tx
      .selectFrom('evidence_seals')
      .selectAll()
      .where('org_id', '=', orgId)
      .orderBy('tree_size', 'desc')
      .limit(1)
      .executeTakeFirst()
    const sealedSize = last ? Number(last.tree_size) : 0
    if (size <= sealedSize) return null
    const frontier = last ? Frontier.restore(sealedSize, last.frontier) : Frontier.empty()
    for (const leaf of await leavesBetween(tx, orgId, sealedSize, size)) frontier.append(leaf)
    const root = frontier.root()
    const checkpoint = checkpointText(orgId, size, root)
    const row = await tx
      .insertInto('evidence_seals')
      .values({
        org_id: orgId,
        id: ids.next('seal'),
        tree_size: BigInt(size),
        root_hash: root.toString('hex'),
        checkpoint,
        signature: signer.sign(checkpoint),
        key_id: signer.keyId,
        frontier: JSON.stringify(frontier.serialize()),
        created_at: clock.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    const seal = presentSeal(row, deps.region)
    const org = await tx
      .selectFrom('orgs')
      .select('system_user_id')
      .where('org_id', '=', orgId)
      .executeTakeFirstOrThrow()
    await audit.append(
      tx,
      { orgId, actor: { userId: org.system_user_id } },
      'evidence.sealed',
      { type: 'seal', id: seal.id },
      seal,
    )
    return seal
  })
}

async function listSeals(deps: EvidenceDeps, orgId: string, query: SealListQuery): Promise<Page<Seal>> {
  const after = decodeCursor(query.cursor, {}, 2)
  const rows = await deps.db.read(orgId, (reader) => {
    let select = reader.selectFrom('evidence_seals').selectAll().where('org_id', '=', orgId)
    if (after) select = select.where(olderThan(after, 'created_at', 'id'))
    return select
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit + 1)
      .execute()
  })
  return toPage(
    rows,
    query.limit,
    (row) => [row.created_at.toISOString(), row.id],
    (row) => presentSeal(row, deps.region),
    {},
  )
}

async function inclusion(
  reader: Reader,
  orgId: string,
  eventId: string,
  sealId: string | undefined,
): Promise<InclusionProof> {
  const event = await reader
    .selectFrom('org_events')
    .select(['sequence', 'hash'])
    .where('org_id', '=', orgId)
    .where('id', '=', eventId)
    .executeTakeFirst()
  if (!event) throw notFound('org event')
  const seal = sealId
    ? await findSeal(reader, orgId, sealId, 'seal')
    : await reader
        .selectFrom('evidence_seals')
        .selectAll()
        .where('org_id', '=', orgId)
        .orderBy('tree_size', 'desc')
        .limit(1)
        .executeTakeFirst()
  const sequence = Number(event.sequence)
  if (!seal || sequence > Number(seal.tree_size)) {
    throw new AppError(
      'unprocessable',
      `Event ${eventId} (sequence ${sequence}) is not sealed ${seal ? `by ${seal.id}, which covers 1..${seal.tree_size}` : 'yet'}; wait for the next seal`,
      { param: 'seal' },
    )
  }
  const leaves = await leavesBetween(reader, orgId, 0, Number(seal.tree_size))
  return {
    sealId: seal.id,
    eventId,
    eventHash: event.hash,
    leafIndex: sequence - 1,
    treeSize: Number(seal.tree_size),
    rootHash: seal.root_hash,
    auditPath: inclusionProof(leaves, sequence - 1).map((node) => node.toString('hex')),
  }
}

async function consistency(reader: Reader, orgId: string, sealId: string, fromId: string): Promise<ConsistencyProof> {
  const to = await findSeal(reader, orgId, sealId)
  const from = await findSeal(reader, orgId, fromId, 'from')
  if (from.tree_size > to.tree_size) {
    throw new AppError(
      'parameter_invalid',
      `from must be an older seal: ${fromId} covers ${from.tree_size} events, ${sealId} only ${to.tree_size}`,
      { param: 'from' },
    )
  }
  const leaves = await leavesBetween(reader, orgId, 0, Number(to.tree_size))
  return {
    fromSealId: from.id,
    toSealId: to.id,
    fromSize: Number(from.tree_size),
    toSize: Number(to.tree_size),
    fromRoot: from.root_hash,
    toRoot: to.root_hash,
    proof: consistencyProof(leaves, Number(from.tree_size)).map((node) => node.toString('hex')),
  }
}

/** Seals every org with SEAL_EVERY_EVENTS unsealed events, or one older than SEAL_EVERY_SECONDS. */
export function createSealJob(deps: {
  db: Database
  clock: Clock
  evidence: EvidenceService
  everyEvents: number
  everySeconds: number
}): Job {
  return {
    name: 'evidence-seal',
    everyMs: Math.min(deps.everySeconds * SECOND, 5 * SECOND),
    async run() {
      const olderThan = new Date(deps.clock.now().getTime() - deps.everySeconds * SECOND)
      const due = await sql<{
        org_id: string
      }>`select org_id from evidence_orgs_due(${deps.everyEvents}, ${olderThan}, 50)`.execute(deps.db.global)
      const failures: string[] = []
      let sealed = 0
      for (const { org_id: orgId } of due.rows) {
        // One org whose log cannot be sealed (tampered with) must not hold the others back.
        try {
          if (await deps.evidence.sealOrg(orgId)) sealed += 1
        } catch (error) {
          failures.push(`${orgId}: ${(error as Error).message}`)
        }
      }
      if (failures.length > 0) throw new Error(`could not seal ${failures.join('; ')}`)
      return sealed
    },
  }
}
