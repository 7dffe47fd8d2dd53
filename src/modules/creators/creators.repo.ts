import type { Selectable } from 'kysely'
import type { Reader, Tx } from '../../database.js'
import type { Keyset } from '../../platform/pagination.js'
import type { CreatorsTables } from './creators.tables.js'
import { olderThan } from '../../platform/pagination.js'

export type CreatorRow = Selectable<CreatorsTables['creators']>

export async function insertCreator(tx: Tx, row: CreatorRow): Promise<void> {
  await tx.insertInto('creators').values(row).execute()
}

export function findCreator(db: Reader | Tx, orgId: string, id: string): Promise<CreatorRow | undefined> {
  return db.selectFrom('creators').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst()
}

/** The ids among `ids` that are creators of the org. */
export async function existingCreatorIds(db: Reader | Tx, orgId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows = await db
    .selectFrom('creators')
    .select('id')
    .where('org_id', '=', orgId)
    .where('id', 'in', [...new Set(ids)])
    .execute()
  return new Set(rows.map((row) => row.id))
}

/**
 * Locks the creator row until commit: two payouts for one creator run one after the other.
 * FOR NO KEY UPDATE, which conflicts with itself but not with the key-share lock of a foreign
 * key: revenue allocated to the creator meanwhile is written without waiting for the payout.
 */
export function lockCreator(tx: Tx, orgId: string, id: string): Promise<CreatorRow | undefined> {
  return lockCreatorQuery(tx, orgId, id).executeTakeFirst()
}

/** lockCreator's query, to run in a batch (the statements after it run once the lock is held). */
export function lockCreatorQuery(tx: Tx, orgId: string, id: string) {
  return tx.selectFrom('creators').selectAll().where('org_id', '=', orgId).where('id', '=', id).forNoKeyUpdate()
}

export function listCreators(db: Reader, orgId: string, after: Keyset | null, limit: number): Promise<CreatorRow[]> {
  let select = db.selectFrom('creators').selectAll().where('org_id', '=', orgId)
  if (after) select = select.where(olderThan(after, 'created_at', 'id'))
  return select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()
}
