import { sql } from 'kysely'
import type { Database, Reader, Tx } from '../../database.js'
import type { PartnerRow } from './partners.onboarding.js'
import type { ApplicationVersion, PartnerStatus } from './partners.tables.js'

/** The partner program's queries. Partners are global rows (no org scope); their events go to the sandbox org. */

export async function partnerById(db: Reader | Tx, id: string): Promise<PartnerRow | undefined> {
  return db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst()
}

/**
 * The caller's partner and role: the partner whose sandbox org the user is a member of (the
 * active org's partner first, when the user belongs to several).
 */
export async function partnerOfUser(
  db: Database,
  userId: string,
  activeOrgId: string | null,
): Promise<{ row: PartnerRow; role: string } | null> {
  const found = await sql<{ id: string; role: string }>`
    select p.id, m.role from user_memberships(${userId}) m
    join partners p on p.sandbox_org_id = m.org_id
    order by (m.org_id = ${activeOrgId ?? ''}) desc, p.created_at
    limit 1`.execute(db.global)
  const first = found.rows[0]
  if (!first) return null
  const row = await partnerById(db.global, first.id)
  return row ? { row, role: first.role } : null
}

/**
 * Moves a partner from one of `from` to `to`, in the caller's transaction: a conditional UPDATE
 * whose row count says whether the partner was still where the caller saw it.
 */
export async function moveStatus(
  tx: Tx,
  id: string,
  from: readonly PartnerStatus[],
  to: PartnerStatus,
  set: Partial<Pick<PartnerRow, 'status_reason' | 'rate_per_minute' | 'rate_burst'>>,
  now: Date,
): Promise<PartnerRow | undefined> {
  return tx
    .updateTable('partners')
    .set({ ...set, status: to, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst()
}

export async function isOperator(db: Database, userId: string): Promise<boolean> {
  const row = await db.global.selectFrom('operators').select('user_id').where('user_id', '=', userId).executeTakeFirst()
  return row !== undefined
}

/** Every version of a partner's application, the newest first. */
export async function applicationsOf(db: Database, partnerId: string): Promise<ApplicationVersion[]> {
  const rows = await db.global
    .selectFrom('partner_applications')
    .selectAll()
    .where('partner_id', '=', partnerId)
    .orderBy('version', 'desc')
    .limit(50)
    .execute()
  return rows.map((row) => ({
    version: row.version,
    ...row.application,
    submittedAt: row.submitted_at.toISOString(),
    submittedBy: row.submitted_by,
  }))
}
