import { sql } from 'kysely'
import type { Database } from '../../database.js'
import { GENESIS_HASH } from '../audit/index.js'
import { startRangeWalkers, type RangeWalkers, type WalkEnd } from './verification.threads.js'
import { walkInParallel, walkRange } from './verification.walk.js'
import { eventLeaf } from '../evidence/index.js'
import type { EvidenceSigner } from '../evidence/index.js'
import { Frontier } from '../../shared/merkle/merkle.tree.js'
import { sealFailure, verifySeals, type SealReport, type SealStart } from '../evidence/index.js'
import { checkBatches, type BatchCheck, type BatchLineReaders } from './verification.batches.js'
import { checkCoverage, type CoverageReport } from './verification.coverage.js'

export interface ChainReport {
  orgId: string
  ok: boolean
  events: number
  /** The first broken link, when there is one. */
  broken?: { sequence: number; eventId: string | null; reason: string }
  /** The seals over the chain (`verifyChainAndSeals`). */
  seals?: SealReport
  /** The batch events' roots against their stored lines. */
  batches?: BatchCheck
  /** The records the log must cover, and those it does not. */
  coverage?: CoverageReport
  /** With `sinceSeal`: the verified seal the check started from (events up to its tree size were not walked again). */
  since?: { sealId: string; treeSize: number }
}

type Broken = NonNullable<ChainReport['broken']>

/** Sequences read per statement: large enough that round trips vanish, small enough to stay flat in memory. */
const BATCH = 10_000

export interface VerifyOptions {
  /** Sequences per read (tests use small ones to cross batch boundaries). */
  batchSize?: number
  /** On PostgreSQL, walk a long chain in ranges on several threads (`oeuvre audit verify`). */
  parallel?: ParallelOptions
  /** Walk on from this event (verified already; its stored hash), instead of from the genesis. */
  from?: { verified: number; previousHash: string }
}

/** Fewest events per range when a chain is walked on several threads. */
const MIN_RANGE = 50_000

interface ChainHead {
  sequence: number
  hash: string
  /** The highest sequence stored, read in the same statement (snapshot) as the head. */
  last: number
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

export interface ParallelOptions {
  /** The server the worker threads connect to (the same as `db`'s); PGlite cannot be shared, so it walks in one thread. */
  databaseUrl: string
  /** Threads in all, this one included. */
  threads: number
  /** Fewest events per range (default 50,000): a worker thread's start-up is worth it only for many events. */
  minRange?: number
  /** Worker threads already started on `databaseUrl` (`startRangeWalkers`), closed by whoever started them; without, the walk starts its own. */
  walkers?: RangeWalkers
}

/** Walks an org's chain from its first event and names the first broken link. */
export async function verifyChain(db: Database, orgId: string, options: VerifyOptions = {}): Promise<ChainReport> {
  const batch = Math.max(1, options.batchSize ?? BATCH)
  let previousHash = options.from?.previousHash ?? GENESIS_HASH
  let verified = options.from?.verified ?? 0
  const fail = (broken: Broken): ChainReport => ({ orgId, ok: false, events: verified, broken })

  // Started on the first walk that needs them when none were given, and closed when the chain is walked.
  const own: { walkers: RangeWalkers | null } = { walkers: null }

  /** Verifies sequences verified+1..target; the first broken link, or null when all of them verify. */
  async function walk(target: number, head: ChainHead): Promise<Broken | null> {
    const start = { verified, previousHash }
    const parallel = options.parallel
    const threads =
      parallel && db.kind === 'pg'
        ? Math.min(Math.floor(parallel.threads), Math.floor((target - verified) / (parallel.minRange ?? MIN_RANGE)))
        : 1
    let end: WalkEnd
    if (parallel && threads > 1) {
      const walkers = parallel.walkers ?? (own.walkers ??= startRangeWalkers(parallel.databaseUrl, 0))
      end = await walkInParallel(db, orgId, start, target, head.sequence, batch, threads, walkers)
    } else {
      end = await walkRange(db, orgId, start, target, head.sequence, batch)
    }
    verified = end.verified
    previousHash = end.previousHash
    return end.broken
  }

  try {
    // Walk to the head, then read it again: events appended meanwhile are verified too.
    let head = await readHead(db, orgId)
    for (;;) {
      if (!head) return fail({ sequence: 0, eventId: null, reason: 'org has no chain head' })
      if (head.sequence < verified) {
        return fail({
          sequence: head.sequence + 1,
          eventId: null,
          reason: `the chain head went back to ${head.sequence} after events up to ${verified} verified`,
        })
      }
      const broken = await walk(head.sequence, head)
      if (broken) return fail(broken)
      if (head.hash !== previousHash) {
        return fail({
          sequence: head.sequence,
          eventId: null,
          reason: `the chain head records hash ${head.hash}, event ${head.sequence} has ${previousHash}`,
        })
      }
      if (head.last > head.sequence) {
        return fail({
          sequence: head.sequence + 1,
          eventId: null,
          reason: `event ${head.sequence + 1} is stored but the chain head records ${head.sequence}`,
        })
      }
      const again = await readHead(db, orgId)
      if (again && again.sequence === head.sequence && again.hash === head.hash && again.last === head.last)
        return { orgId, ok: true, events: verified }
      head = again
    }
  } finally {
    await own.walkers?.close()
  }
}

export interface FullVerifyOptions extends VerifyOptions {
  /**
   * Check only what was appended after the last seal a verify recorded (its signed root, with
   * the stored hash of its last event, vouches for the events before): the chain from there, the
   * later seals, batches and records. Without such a record, the whole chain is walked.
   */
  sinceSeal?: boolean
  /** When this verify ran (recorded with the seal it verified); default now. */
  now?: Date
  /** How the bulk actions' lines are read back, to check each batch event's root. */
  batchLines: BatchLineReaders
}

/** Where `--since-seal` starts: the last recorded seal, its last event bound to its signed root. */
interface SealedStart {
  sealId: string
  from: { verified: number; previousHash: string }
  seals: SealStart
  /** When the seal's last event was written: records from then on are checked for coverage. */
  since: Date
}

async function lastVerifiedSeal(
  db: Database,
  orgId: string,
  signers: readonly EvidenceSigner[],
): Promise<SealedStart | { broken: Broken } | null> {
  const found = await db.read(orgId, (reader) =>
    reader
      .selectFrom('chain_verifications as v')
      .innerJoin('evidence_seals as s', (join) =>
        join.onRef('s.org_id', '=', 'v.org_id').onRef('s.id', '=', 'v.seal_id'),
      )
      .leftJoin('org_events as e', (join) =>
        join.onRef('e.org_id', '=', 'v.org_id').onRef('e.sequence', '=', 'v.tree_size'),
      )
      .select([
        'v.frontier_before_last',
        's.id',
        's.tree_size',
        's.root_hash',
        's.checkpoint',
        's.signature',
        's.key_id',
        'e.hash as last_hash',
        'e.created_at as last_created_at',
      ])
      .where('v.org_id', '=', orgId)
      .orderBy('v.tree_size', 'desc')
      .limit(1)
      .executeTakeFirst(),
  )
  if (!found) return null
  const size = Number(found.tree_size)
  if (found.last_hash === null || found.last_created_at === null)
    return {
      broken: { sequence: size, eventId: null, reason: `event ${size}, the last of seal ${found.id}, is missing` },
    }
  // The recorded right edge is not trusted: with the last event's stored hash it must give the signed root.
  const frontier = Frontier.restore(size - 1, found.frontier_before_last)
  frontier.append(eventLeaf(found.last_hash))
  const failure = sealFailure(orgId, found, frontier.root(), signers)
  if (failure)
    return { broken: { sequence: size, eventId: null, reason: `seal ${found.id} (events 1..${size}): ${failure}` } }
  return {
    sealId: found.id,
    from: { verified: size, previousHash: found.last_hash },
    seals: { treeSize: size, frontier },
    since: found.last_created_at,
  }
}

/** The first failure of the checks after the chain's, as the report's broken link. */
function firstFailure(report: ChainReport): Broken | undefined {
  const seal = report.seals?.broken
  if (seal)
    return {
      sequence: seal.treeSize,
      eventId: null,
      reason: `seal ${seal.sealId} (events 1..${seal.treeSize}): ${seal.reason}`,
    }
  if (report.batches?.broken) return report.batches.broken
  const missing = report.coverage?.uncovered ?? []
  if (missing.length > 0)
    return {
      sequence: 0,
      eventId: null,
      reason: `records the log does not cover: ${missing.map((record) => `${record.table} ${record.id} (${record.reason})`).join('; ')}`,
    }
  return undefined
}

/**
 * The chain, then every seal's root and signature, every batch event's root against its stored
 * lines, and whether every record the log must cover is covered: the first failure of any.
 * When all hold, the last seal verified is recorded, for the next `sinceSeal` check to start from.
 */
export async function verifyChainAndSeals(
  db: Database,
  orgId: string,
  signers: readonly EvidenceSigner[],
  options: FullVerifyOptions,
): Promise<ChainReport> {
  const start = options.sinceSeal ? await lastVerifiedSeal(db, orgId, signers) : null
  if (start && 'broken' in start) return { orgId, ok: false, events: 0, broken: start.broken }
  const report = await verifyChain(db, orgId, { ...options, ...(start ? { from: start.from } : {}) })
  if (start) report.since = { sealId: start.sealId, treeSize: start.from.verified }
  report.seals = await verifySeals(db, orgId, signers, start?.seals)
  report.batches = await checkBatches(db, orgId, options.batchLines, start?.from.verified ?? 0)
  report.coverage = await checkCoverage(db, orgId, start?.since ?? null)
  // The chain's own first broken link comes first; then the seals', the batches', the records'.
  if (!report.ok) return report
  const broken = firstFailure(report)
  if (broken) return { ...report, ok: false, broken }
  const last = report.seals.last
  if (last) {
    await db.tx({ orgId }, (tx) =>
      tx
        .insertInto('chain_verifications')
        .values({
          org_id: orgId,
          tree_size: BigInt(last.treeSize),
          seal_id: last.sealId,
          frontier_before_last: JSON.stringify(last.frontierBeforeLast),
          verified_at: options.now ?? new Date(),
        })
        .onConflict((conflict) => conflict.doNothing())
        .execute(),
    )
  }
  return report
}
