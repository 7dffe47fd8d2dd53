import type { CompiledQuery } from 'kysely'
import { inOrder, mergedWrites, type CommitWrites } from './commit-writes.js'
import type { SqlSession } from './sql-backend.js'
import type { StatementCache } from './statement-cache.js'

/** Commits sent together at most: bounds one message's size and the wait behind it. */
export const MAX_GROUP = 64

/** One transaction's writes, to be committed (with others of its org, when they arrive together). */
interface Unit {
  session: SqlSession
  /** BEGIN and the tenant scope; then the writes, then the chain's statements. */
  begin: string
  writes: CommitWrites
  resolve(): void
  reject(error: unknown): void
}

export interface GroupCommitStats {
  /** Commit messages sent. */
  flushes: number
  /** Transactions committed through them. */
  units: number
  /** Groups that failed and were committed one by one instead. */
  retried: number
  /** Commits waiting now behind one of their org's in flight, for the next group. */
  queued: number
}

/**
 * Group commit for one process. An org's writes are serialised by its event chain (every
 * write appends to it): a transaction whose work only read until commit hands its writes
 * here, and those of one org that arrive while another of its commits is in flight are sent
 * together, as one transaction, by the first of them on its own connection: one chain lock,
 * one chain append (their keyed writes merged, `mergedWrites`) and one WAL flush
 * for the group. A group that fails is rolled back and its transactions are committed one by
 * one, so one transaction's failure (a unique key raced) never fails another; each caller
 * hears only its own outcome.
 */
export interface GroupCommit {
  commit(session: SqlSession, orgId: string, begin: string, writes: CommitWrites): Promise<void>
  readonly stats: GroupCommitStats
}

export function createGroupCommit(statements: StatementCache): GroupCommit {
  const waiting = new Map<string, Unit[]>()
  const stats: GroupCommitStats = { flushes: 0, units: 0, retried: 0, queued: 0 }

  /** BEGIN, the writes as text for `session` (no transaction is open on it yet, so they may be prepared), COMMIT. */
  async function message(session: SqlSession, begin: string, writes: readonly CompiledQuery[]): Promise<string> {
    return [begin, ...(await statements.texts(session, writes, true)), 'commit'].join('; ')
  }

  async function commitAlone(unit: Unit): Promise<void> {
    try {
      await unit.session.simple(await message(unit.session, unit.begin, inOrder(unit.writes)))
      unit.resolve()
    } catch (error) {
      await unit.session.simple('rollback').catch(() => undefined)
      unit.reject(error)
    }
  }

  async function flush(group: Unit[]): Promise<void> {
    stats.flushes += 1
    stats.units += group.length
    if (group.length === 1) return commitAlone(group[0]!)
    const leader = group[0]!
    try {
      // Every transaction's rows first, then every chain statement, each phase's mergeable
      // writes merged: the chain lock is taken once the rows are written.
      const writes = [
        ...mergedWrites(group.flatMap((unit) => unit.writes.rows)),
        ...mergedWrites(group.flatMap((unit) => unit.writes.chain)),
      ]
      await leader.session.simple(await message(leader.session, leader.begin, writes))
    } catch {
      await leader.session.simple('rollback').catch(() => undefined)
      stats.retried += 1
      for (const unit of group) await commitAlone(unit)
      return
    }
    for (const unit of group) unit.resolve()
  }

  /** Sends the org's waiting commits, group after group, until none is left. */
  async function drain(orgId: string): Promise<void> {
    for (;;) {
      const queue = waiting.get(orgId)
      if (!queue || queue.length === 0) {
        waiting.delete(orgId)
        return
      }
      const group = queue.splice(0, MAX_GROUP)
      stats.queued -= group.length
      await flush(group)
    }
  }

  return {
    stats,
    commit(session, orgId, begin, writes) {
      return new Promise<void>((resolve, reject) => {
        const unit: Unit = { session, begin, writes, resolve, reject }
        const queue = waiting.get(orgId)
        stats.queued += 1
        if (queue) {
          // A commit of this org is in flight: this one goes with the next group.
          queue.push(unit)
          return
        }
        waiting.set(orgId, [unit])
        void drain(orgId)
      })
    },
  }
}
