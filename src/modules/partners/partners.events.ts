import type { Tx } from '../../database.js'
import type { AuditLog } from '../audit/index.js'
import type { PartnerRow } from './partners.onboarding.js'

/**
 * A partner's org event, on its sandbox org (so it is subscribable as a webhook), and the
 * notification the partner is to get for it, in the caller's transaction.
 */
export async function recordPartnerEvent(
  tx: Tx,
  audit: Pick<AuditLog, 'append'>,
  event: { row: PartnerRow; actorId: string; action: string; data: Record<string, unknown>; at: Date },
): Promise<void> {
  const { row, actorId, action, data } = event
  await audit.append(
    tx,
    { orgId: row.sandbox_org_id, actor: { userId: actorId } },
    action,
    { type: 'partner', id: row.id },
    { partnerId: row.id, company: row.company, status: row.status, ...data },
  )
  const user = await tx.selectFrom('users').select('email').where('id', '=', row.user_id).executeTakeFirst()
  await tx
    .insertInto('partner_notifications')
    .values({
      partner_id: row.id,
      kind: action,
      email: user?.email ?? '',
      data: JSON.stringify({ status: row.status, ...data }),
      created_at: event.at,
    })
    .execute()
}
