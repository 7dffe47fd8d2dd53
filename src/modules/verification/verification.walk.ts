import type { Database } from '../../database.js'
import { quoteLiteral, setOrgStatement } from '../../db/sql-text.js'
import { LinkChecker, linkQuery, type LinkState } from './verification.links.js'
import type { RangeResult, RangeWalker, RangeWalkers, WalkEnd } from './verification.threads.js'

/**
 * Walking a range of an org's chain: in this thread (`walkRange`, also what each worker thread
 * runs) or split among worker threads (`walkInParallel`).
 */

async function nextPresent(db: Database, orgId: string, after: number): Promise<number | null> {
  const row = await db.read(orgId, (reader) =>
    reader
      .selectFrom('org_events')
      .select((eb) => eb.fn.min('sequence').as('next'))
      .where('org_id', '=', orgId)
      .where('sequence', '>', BigInt(after))
      .executeTakeFirst(),
  )
  return row?.next == null ? null : Number(row.next)
}

/**
 * Checks the links `from`..`to` as PostgreSQL's binary COPY of them arrives (the next bytes are
 * produced while these are hashed), in a transaction of the org's tenant scope, so RLS applies.
 */
async function checkLinks(
  db: Database,
  orgId: string,
  from: number,
  to: number,
  start: { verified: number; previousHash: string },
): Promise<LinkState> {
  const scope = setOrgStatement(orgId)
  const checker = new LinkChecker(orgId, start)
  const session = await db.backend.acquire()
  try {
    await session.simple(`begin; ${scope}`)
    try {
      await session.copyOut(linkQuery(quoteLiteral(orgId), from, to), (bytes, start, end) =>
        checker.push(bytes, start, end),
      )
      await session.simple('commit')
    } catch (error) {
      await session.simple('rollback').catch(() => undefined)
      throw error
    }
  } finally {
    session.release()
  }
  return checker.finish()
}

/**
 * Verifies sequences `start.verified + 1` to `target`, each against the stored hash of the one
 * before it (`start.previousHash` for the first). Every link needs only its own row and the
 * previous row's stored hash, so separate ranges can be walked at once (`parallel`) and give
 * exactly what one walk over all of them gives: the first broken link is the lowest one met.
 */
export async function walkRange(
  db: Database,
  orgId: string,
  start: { verified: number; previousHash: string },
  target: number,
  headSequence: number,
  batch: number,
): Promise<WalkEnd> {
  let { verified, previousHash } = start
  while (verified < target) {
    const end = Math.min(verified + batch, target)
    const state = await checkLinks(db, orgId, verified + 1, end, { verified, previousHash })
    verified = state.verified
    previousHash = state.previousHash
    if (state.broken) return { verified, previousHash, broken: state.broken }
    if (verified < end) {
      const expected = verified + 1
      const next = await nextPresent(db, orgId, verified)
      const reason =
        next !== null && next <= headSequence
          ? `event ${expected} is missing (next present is ${next})`
          : `chain ends at ${verified} but its head records ${headSequence} (events were removed from the end)`
      return { verified, previousHash, broken: { sequence: expected, eventId: null, reason } }
    }
  }
  return { verified, previousHash, broken: null }
}

/** The stored hash of one event, or null when it is missing. */
export async function storedHash(db: Database, orgId: string, sequence: number): Promise<string | null> {
  const row = await db.read(orgId, (reader) =>
    reader
      .selectFrom('org_events')
      .select('hash')
      .where('org_id', '=', orgId)
      .where('sequence', '=', BigInt(sequence))
      .executeTakeFirst(),
  )
  return row?.hash ?? null
}

/** Walks verified+1..target in `threads` ranges at once: this thread takes the first, worker threads the rest. */
export async function walkInParallel(
  db: Database,
  orgId: string,
  start: { verified: number; previousHash: string },
  target: number,
  headSequence: number,
  batch: number,
  threads: number,
  walkers: RangeWalkers,
): Promise<WalkEnd> {
  const size = Math.ceil((target - start.verified) / threads)
  const ranges: { walker: RangeWalker; result: Promise<RangeResult> }[] = []
  for (let first = start.verified + size; first < target; first += size) {
    const walker = walkers.take()
    const result = walker.walk({ orgId, verified: first, target: Math.min(first + size, target), headSequence, batch })
    // Settled by whoever awaits it; a walk that stops early abandons the others.
    result.catch(() => undefined)
    ranges.push({ walker, result })
  }
  const answered = new Set<RangeWalker>()
  try {
    let end = await walkRange(db, orgId, start, Math.min(start.verified + size, target), headSequence, batch)
    for (const range of ranges) {
      if (end.broken) return end
      const answer = await range.result
      answered.add(range.walker)
      if (!answer.ok) throw new Error(`verifying a range of the chain failed: ${answer.message}`)
      // A range whose first event's predecessor is missing follows a range that reported it.
      if (answer.end === null)
        throw new Error(
          `a range of the chain had no event before it, but the range before it verified to ${end.verified}`,
        )
      end = answer.end
    }
    return end
  } finally {
    // A walker still walking a range nobody waits for is stopped; the others can walk again.
    for (const { walker } of ranges) {
      if (answered.has(walker)) walkers.give(walker)
      else walkers.abandon(walker)
    }
  }
}
