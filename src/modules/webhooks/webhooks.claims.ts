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
  endpointId: string
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
 * Claims up to `limit` due deliveries, shared out fairly across orgs and their endpoints,
 * no endpoint beyond `endpointCap` leased at once (all workers together) and none whose
 * circuit is open (claim_webhook_deliveries, migration 0013). In the fair order.
 */
export async function claimDue(
  db: Database,
  owner: LeaseOwner,
  input: { now: Date; leaseUntil: Date; limit: number; endpointCap: number },
): Promise<Claim[]> {
  const token = randomBytes(12).toString('base64url')
  const live = db.kind === 'pg' ? null : [...liveOwners].map(String)
  const result = await sql<{ delivery_id: string; tenant_org: string; endpoint_id: string; place: string }>`
    select delivery_id, tenant_org, endpoint_id, place from claim_webhook_deliveries(
      ${owner.key.toString()}::bigint, ${token}, ${input.now}, ${input.leaseUntil}, ${input.limit}::int, ${input.endpointCap}::int, ${live}::bigint[]
    )
  `.execute(db.global)
  return result.rows
    .sort((a, b) => Number(a.place) - Number(b.place))
    .map((row) => ({
      deliveryId: row.delivery_id,
      orgId: row.tenant_org,
      endpointId: row.endpoint_id,
      token,
      leasedUntil: input.leaseUntil,
    }))
}

/** Gives claims back unattempted (their endpoint's circuit opened): due as they were, claimable at once. */
export async function releaseClaims(db: Database, claims: readonly Claim[]): Promise<void> {
  if (claims.length === 0) return
  await sql`
    with ${relaxedCommit}
    update webhook_queue q set leased_until = null, lease_owner = null, lease_token = null
    from unnest(${claims.map((claim) => claim.deliveryId)}::text[], ${claims.map((claim) => claim.token)}::text[]) as c (delivery_id, token), relaxed
    where q.delivery_id = c.delivery_id and q.lease_token = c.token and q.delivery_id = any(${claims.map((claim) => claim.deliveryId)}::text[])
  `.execute(db.global)
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
