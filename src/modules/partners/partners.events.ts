import type { Tx } from '../../database.js'
import type { AuditLog } from '../audit/index.js'
import { EMAIL_KIND_SPECS, type EmailOutbox } from '../email/index.js'
import type { PartnerRow } from './partners.onboarding.js'

/** What recording a partner's step needs: its org event, and the email that tells the partner. */
export interface PartnerEventDeps {
  audit: Pick<AuditLog, 'append'>
  outbox: EmailOutbox
  config: { publicUrl: string }
}

/** The review's decisions as the partner_review email names them. */
const DECISION_OF: Record<string, string> = {
  'partner.review_requested': 'submitted',
  'partner.changes_requested': 'changes_requested',
  'partner.approved': 'approved',
  'partner.rejected': 'rejected',
  'partner.suspended': 'suspended',
  'partner.resumed': 'resumed',
}

/**
 * A partner's org event, on its sandbox org (so it is subscribable as a webhook), and the
 * partner_review email to the partner's owner (unless they chose not to get it), in the
 * caller's transaction.
 */
export async function recordPartnerEvent(
  tx: Tx,
  deps: PartnerEventDeps,
  event: { row: PartnerRow; actorId: string; action: string; data: Record<string, unknown>; at: Date },
): Promise<void> {
  const { row, actorId, action, data } = event
  await deps.audit.append(
    tx,
    { orgId: row.sandbox_org_id, actor: { userId: actorId } },
    action,
    { type: 'partner', id: row.id },
    { partnerId: row.id, company: row.company, status: row.status, ...data },
  )
  const decision = DECISION_OF[action]
  if (!decision) return
  const owner = await tx
    .selectFrom('users as u')
    .leftJoin('email_preferences as p', (join) =>
      join.onRef('p.user_id', '=', 'u.id').on('p.kind', '=', 'partner_review'),
    )
    .select(['u.email', 'u.name', 'p.receive'])
    .where('u.id', '=', row.user_id)
    .executeTakeFirst()
  if (!owner?.email || !(owner.receive ?? EMAIL_KIND_SPECS.partner_review.receivedByDefault)) return
  await deps.outbox.enqueue(tx, {
    kind: 'partner_review',
    to: { address: owner.email, name: owner.name },
    orgId: row.sandbox_org_id,
    variables: {
      partner: { company: row.company },
      decision,
      reason: typeof data.reason === 'string' ? data.reason : '',
      link: `${deps.config.publicUrl}/portal`,
    },
  })
}
