import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { Database } from '../../db/database.js'

/**
 * Who holds a claim. While a worker round runs, its owner key is provably alive: on
 * PostgreSQL it holds a session advisory lock on the key (gone the moment its process
 * dies); on PGlite, which one process owns exclusively, it is in this process's set.
 * A lease whose owner is not alive is recovered at once; an expired lease always is.
 */
export interface LeaseOwner {
  readonly key: bigint
  release(): Promise<void>
}

/** PGlite: the owners alive in this process (no other process can open the database). */
const liveOwners = new Set<bigint>()

function newOwnerKey(): bigint {
  return BigInt.asUintN(62, randomBytes(8).readBigUInt64BE()) + 1n
}

export async function takeLeaseOwner(db: Database): Promise<LeaseOwner> {
  const key = newOwnerKey()
  if (db.kind !== 'pg') {
    liveOwners.add(key)
    return { key, release: async () => void liveOwners.delete(key) }
  }
  const session = await db.backend.acquire()
  try {
    await session.query('select pg_advisory_lock($1::bigint)', [key.toString()])
  } catch (error) {
    session.release()
    throw error
  }
  return {
    key,
    async release() {
      try {
        await session.query('select pg_advisory_unlock($1::bigint)', [key.toString()])
      } finally {
        session.release()
      }
    },
  }
}

export interface Claim {
  deliveryId: string
  orgId: string
  token: string
}

/** Claims up to `limit` due deliveries across orgs; concurrent claimers skip each other's rows. */
export async function claimDue(db: Database, owner: LeaseOwner, now: Date, leaseUntil: Date, limit: number): Promise<Claim[]> {
  const token = randomBytes(12).toString('base64url')
  const ownerAlive =
    db.kind === 'pg'
      ? sql<boolean>`not pg_try_advisory_xact_lock(q.lease_owner)`
      : sql<boolean>`q.lease_owner::text = any(${[...liveOwners].map(String)}::text[])`
  const result = await sql<{ delivery_id: string; tenant_org: string }>`
    with due as (
      select q.delivery_id from webhook_queue q
      where q.due_at <= ${now}
        and (q.leased_until is null or q.leased_until <= ${now} or (q.lease_owner <> ${owner.key.toString()}::bigint and not (${ownerAlive})))
      order by q.due_at
      limit ${limit}
      for update skip locked
    )
    update webhook_queue w
    set leased_until = ${leaseUntil}, lease_owner = ${owner.key.toString()}::bigint, lease_token = ${token}
    from due where w.delivery_id = due.delivery_id
    returning w.delivery_id, w.tenant_org
  `.execute(db.global)
  return result.rows.map((row) => ({ deliveryId: row.delivery_id, orgId: row.tenant_org, token }))
}
