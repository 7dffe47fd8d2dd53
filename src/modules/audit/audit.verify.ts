import { sql } from 'kysely'
import type { Database } from '../../db/database.js'
import { eventHash, GENESIS_HASH } from './audit.chain.js'
import { RENDERED_EVENT_COLUMNS, type RenderableEventRow } from './audit.render.js'
import type { EvidenceSigner } from '../evidence/evidence.keys.js'
import { verifySeals, type SealReport } from '../evidence/evidence.verify.js'

export interface ChainReport {
  orgId: string
  ok: boolean
  events: number
  /** The first broken link, when there is one. */
  broken?: { sequence: number; eventId: string | null; reason: string }
  /** The seals over the chain (`verifyChainAndSeals`). */
  seals?: SealReport
}

type Broken = NonNullable<ChainReport['broken']>

/** Sequences read per statement: large enough that round trips vanish, small enough to stay flat in memory. */
const BATCH = 10_000

export interface VerifyOptions {
  /** Sequences per read (tests use small ones to cross batch boundaries). */
  batchSize?: number
}

interface ChainHead {
  sequence: number
  hash: string
  /** The highest sequence stored, read in the same statement (snapshot) as the head. */
  last: number
}

/** The stored columns the recipe needs, as text: no Date, BigInt or jsonb parsing by the driver. */
type StoredEvent = RenderableEventRow

function readRange(db: Database, orgId: string, from: number, to: number): Promise<StoredEvent[]> {
  // A bounded range (not `>= from limit n`): an index range scan whatever the planner's statistics say.
  return db.read(orgId, (reader) =>
    reader
      .selectFrom('org_events')
      .select(['id', 'action', 'user_id', 'hash', 'resource_type', 'resource_id'])
      .select(RENDERED_EVENT_COLUMNS)
      .where('org_id', '=', orgId)
      .where('sequence', '>=', BigInt(from))
      .where('sequence', '<=', BigInt(to))
      .orderBy('sequence', 'asc')
      .execute(),
  )
}

async function readHead(db: Database, orgId: string): Promise<ChainHead | undefined> {
  const row = await db.read(orgId, (reader) =>
    reader
      .selectFrom('org_event_heads as h')
      .select(['h.sequence', 'h.hash'])
      .select(sql<bigint | null>`(select max(e.sequence) from org_events e where e.org_id = h.org_id)`.as('last'))
      .where('h.org_id', '=', orgId)
      .executeTakeFirst(),
  )
  return row && { sequence: Number(row.sequence), hash: row.hash, last: Number(row.last ?? 0) }
}

async function nextPresent(db: Database, orgId: string, after: number): Promise<number | null> {
  const row = await db.read(orgId, (reader) =>
    reader.selectFrom('org_events').select((eb) => eb.fn.min('sequence').as('next')).where('org_id', '=', orgId).where('sequence', '>', BigInt(after)).executeTakeFirst(),
  )
  return row?.next == null ? null : Number(row.next)
}

/** Recomputes one stored event's hash by the published recipe; the reason when it does not match. */
function mismatch(orgId: string, row: StoredEvent, sequence: number, previousHash: string): string | null {
  let recomputed: string
  try {
    recomputed = eventHash(
      {
        id: row.id,
        orgId,
        sequence,
        action: row.action,
        userId: row.user_id,
        createdAt: row.created_at_iso,
        resource: row.resource_type && row.resource_id ? { type: row.resource_type, id: row.resource_id } : null,
        data: JSON.parse(row.data_json) as unknown,
      },
      previousHash,
    )
  } catch (error) {
    return `its content cannot be canonicalised: ${error instanceof Error ? error.message : String(error)}`
  }
  return recomputed === row.hash ? null : `hash mismatch: stored ${row.hash}, recomputed ${recomputed}`
}

/** Walks an org's chain from its first event and names the first broken link. */
export async function verifyChain(db: Database, orgId: string, options: VerifyOptions = {}): Promise<ChainReport> {
  const batch = Math.max(1, options.batchSize ?? BATCH)
  let previousHash = GENESIS_HASH
  let verified = 0
  const fail = (broken: Broken): ChainReport => ({ orgId, ok: false, events: verified, broken })

  /** Verifies sequences verified+1..target; the first broken link, or null when all of them verify. */
  async function walk(target: number, head: ChainHead): Promise<Broken | null> {
    const range = (from: number) => {
      const read = readRange(db, orgId, from, Math.min(from + batch - 1, target))
      // A read started ahead may be abandoned when the walk stops early: never an unhandled rejection.
      read.catch(() => undefined)
      return read
    }
    let pending = verified < target ? range(verified + 1) : null
    while (pending) {
      const rows = await pending
      const end = Math.min(verified + batch, target)
      // The next batch is read while this one is hashed.
      pending = end < target ? range(end + 1) : null
      for (const row of rows) {
        const sequence = Number(row.sequence_digits)
        const expected = verified + 1
        if (sequence !== expected) return { sequence: expected, eventId: null, reason: `event ${expected} is missing (next present is ${sequence})` }
        const reason = mismatch(orgId, row, sequence, previousHash)
        if (reason) return { sequence, eventId: row.id, reason }
        previousHash = row.hash
        verified = sequence
      }
      if (verified < end) {
        const expected = verified + 1
        const next = await nextPresent(db, orgId, verified)
        if (next !== null && next <= head.sequence) return { sequence: expected, eventId: null, reason: `event ${expected} is missing (next present is ${next})` }
        return { sequence: expected, eventId: null, reason: `chain ends at ${verified} but its head records ${head.sequence} (events were removed from the end)` }
      }
    }
    return null
  }

  // Walk to the head, then read it again: events appended meanwhile are verified too.
  let head = await readHead(db, orgId)
  for (;;) {
    if (!head) return fail({ sequence: 0, eventId: null, reason: 'org has no chain head' })
    if (head.sequence < verified) {
      return fail({ sequence: head.sequence + 1, eventId: null, reason: `the chain head went back to ${head.sequence} after events up to ${verified} verified` })
    }
    const broken = await walk(head.sequence, head)
    if (broken) return fail(broken)
    if (head.hash !== previousHash) {
      return fail({ sequence: head.sequence, eventId: null, reason: `the chain head records hash ${head.hash}, event ${head.sequence} has ${previousHash}` })
    }
    if (head.last > head.sequence) {
      return fail({ sequence: head.sequence + 1, eventId: null, reason: `event ${head.sequence + 1} is stored but the chain head records ${head.sequence}` })
    }
    const again = await readHead(db, orgId)
    if (again && again.sequence === head.sequence && again.hash === head.hash && again.last === head.last) return { orgId, ok: true, events: verified }
    head = again
  }
}

/** The chain, then every seal's root and signature: the first broken link of either. */
export async function verifyChainAndSeals(db: Database, orgId: string, signers: readonly EvidenceSigner[]): Promise<ChainReport> {
  const report = await verifyChain(db, orgId)
  report.seals = await verifySeals(db, orgId, signers)
  const broken = report.seals.broken
  if (report.ok && broken) {
    report.ok = false
    report.broken = { sequence: broken.treeSize, eventId: null, reason: `seal ${broken.sealId} (events 1..${broken.treeSize}): ${broken.reason}` }
  }
  return report
}
