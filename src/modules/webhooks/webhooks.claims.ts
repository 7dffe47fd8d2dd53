import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { Database } from '../../database.js'
import type { DeliveryStatus, WebhookTables } from './webhooks.tables.js'

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
  /** The lease runs out then: no attempt may start that could outlast it. */
  leasedUntil: Date
}

/**
 * A CTE that makes the statement's transaction commit without waiting for the WAL flush
 * (about 3 ms a commit on the reference disk, which serialised every claim and recording).
 * The commit is visible to every other worker at once, which is all exclusivity needs; an
 * OS crash of the database host can lose the last fraction of a second of leases and
 * outcomes, and a lost outcome means the delivery is sent again under the same id, as
 * after a worker crash before recording (at least once). A lost lease is no weaker than a
 * kept one there: the restarted server has lost the owners' advisory locks anyway.
 */
export const relaxedCommit = sql`relaxed as materialized (select set_config(${'synchronous_commit'}, ${'off'}, true) as off)`

/**
 * Claims up to `limit` due deliveries across orgs; concurrent claimers skip each other's
 * rows. The claimed rows are updated by key (`= any(array(...))`): joined to the CTE, the
 * planner read the whole queue, finished entries included, at every claim.
 */
export async function claimDue(
  db: Database,
  owner: LeaseOwner,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<Claim[]> {
  const token = randomBytes(12).toString('base64url')
  const ownerAlive =
    db.kind === 'pg'
      ? sql<boolean>`not pg_try_advisory_xact_lock(q.lease_owner)`
      : sql<boolean>`q.lease_owner::text = any(${[...liveOwners].map(String)}::text[])`
  const result = await sql<{ delivery_id: string; tenant_org: string }>`
    with ${relaxedCommit}, due as (
      select q.delivery_id from webhook_queue q
      where q.due_at <= ${now}
        and (q.leased_until is null or q.leased_until <= ${now} or (q.lease_owner <> ${owner.key.toString()}::bigint and not (${ownerAlive})))
      order by q.due_at
      limit ${limit}
      for update skip locked
    )
    update webhook_queue w
    set leased_until = ${leaseUntil}, lease_owner = ${owner.key.toString()}::bigint, lease_token = ${token}
    from relaxed
    where w.delivery_id = any(array(select due.delivery_id from due))
    returning w.delivery_id, w.tenant_org
  `.execute(db.global)
  return result.rows.map((row) => ({
    deliveryId: row.delivery_id,
    orgId: row.tenant_org,
    token,
    leasedUntil: leaseUntil,
  }))
}

/** A claimed delivery with what sending it needs from its endpoint. */
export interface ClaimedDelivery {
  id: string
  endpoint_id: string
  event_type: string
  payload: string
  status: DeliveryStatus
  /** Whether this attempt answers a redelivery request (unchanged while the lease is held: a redelivery resets the lease). */
  redelivery_requested: boolean
  url: string
  endpoint_status: WebhookTables['webhook_endpoints']['status']
  deleted_at: Date | null
  secret_sealed: string | null
  previous_secret_sealed: string | null
  previous_secret_expires_at: Date | null
}

/**
 * One org's claimed deliveries and their endpoints, in one statement. Each delivery is a
 * primary-key probe from the id list (the LATERAL ... OFFSET 0 keeps the planner from
 * walking every delivery of the endpoint when its statistics are stale, as after a burst).
 */
export async function loadClaimed(db: Database, orgId: string, ids: readonly string[]): Promise<ClaimedDelivery[]> {
  return db.read(orgId, async (reader) => {
    const result = await sql<ClaimedDelivery>`
      select d.id, d.endpoint_id, d.event_type, d.payload, d.status, d.redelivery_requested, e.url, e.status as endpoint_status, e.deleted_at,
             e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at
      from unnest(${ids}::text[]) as c (id)
      cross join lateral (
        select d.id, d.endpoint_id, d.event_type, d.payload, d.status, d.redelivery_requested from webhook_deliveries d where d.org_id = ${orgId} and d.id = c.id offset 0
      ) d
      join webhook_endpoints e on e.org_id = ${orgId} and e.id = d.endpoint_id
    `.execute(reader)
    return result.rows
  })
}
