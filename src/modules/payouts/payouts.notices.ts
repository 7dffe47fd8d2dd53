import type { Tx } from '../../database.js'
import type { EmailOutbox } from '../email/index.js'
import { findCreator } from '../creators/index.js'
import type { Payout } from './payouts.schemas.js'

/** What telling a payout's move needs: the outbox, and the app's address for the link. */
export interface PayoutNoticeDeps {
  outbox: EmailOutbox
  config: { publicUrl: string }
}

/**
 * Tells a payout's move (created, in transit, paid, failed, canceled) by email, in the
 * transaction of the move: to the creator's contact email when one is set, and to the org's
 * owners and admins who chose payout emails.
 */
export async function tellPayoutStatus(deps: PayoutNoticeDeps, tx: Tx, orgId: string, payout: Payout): Promise<void> {
  const creator = await findCreator(tx, orgId, payout.creatorId)
  const org = await tx.selectFrom('orgs').select('name').where('org_id', '=', orgId).executeTakeFirstOrThrow()
  const email = {
    kind: 'payout_status' as const,
    variables: {
      org: { name: org.name },
      creator: { name: creator?.name ?? payout.creatorId },
      payout: {
        id: payout.id,
        amount: payout.amount,
        currency: payout.currency,
        status: payout.status,
        failureMessage: payout.failureMessage ?? '',
      },
      link: `${deps.config.publicUrl}/payouts/${payout.id}`,
    },
  }
  if (creator?.email)
    await deps.outbox.enqueue(tx, { ...email, orgId, to: { address: creator.email, name: creator.name } })
  await deps.outbox.enqueueToMembers(tx, { orgId, roles: ['owner', 'admin'] }, email)
}
