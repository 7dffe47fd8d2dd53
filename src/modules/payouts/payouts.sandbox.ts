import { sql } from 'kysely'
import type { Database } from '../../database.js'
import { SECOND, type Clock } from '../../platform/clock.js'
import type { Job } from '../../worker/worker.js'
import { findPayout } from './payouts.repo.js'
import type { PayoutsService } from './payouts.service.js'

/** How long a sandbox payout stays in each state before the rail moves it on. */
export const SANDBOX_STEP_MS = 2 * SECOND
const BATCH = 100

/**
 * The sandbox rail: pending -> in_transit -> paid, one step per SANDBOX_STEP_MS, each an
 * org event by the org's system user, so integrations see the whole lifecycle.
 */
export function createSandboxRail(deps: { db: Database; clock: Clock; payouts: PayoutsService }): Job {
  const { db, clock, payouts } = deps

  async function run(): Promise<number> {
    const cutoff = new Date(clock.now().getTime() - SANDBOX_STEP_MS)
    const due = await sql<{
      org_id: string
      payout_id: string
    }>`select org_id, payout_id from sandbox_payouts_due(${cutoff}, ${BATCH})`.execute(db.global)
    let moved = 0
    for (const { org_id: orgId, payout_id: payoutId } of due.rows) {
      moved += await db.tx({ orgId }, async (tx) => {
        const payout = await findPayout(tx, orgId, payoutId)
        // Another worker, or a user's cancel, may have moved it since it was listed.
        if (!payout || payout.method !== 'sandbox' || payout.status_changed_at > cutoff) return 0
        if (payout.status !== 'pending' && payout.status !== 'in_transit') return 0
        const org = await tx
          .selectFrom('orgs')
          .select('system_user_id')
          .where('org_id', '=', orgId)
          .executeTakeFirstOrThrow()
        const status = payout.status === 'pending' ? 'in_transit' : 'paid'
        await payouts.advance(tx, { orgId, actor: { userId: org.system_user_id } }, payout, { status, at: clock.now() })
        return 1
      })
    }
    return moved
  }

  return { name: 'sandbox-payouts', everyMs: SECOND, run }
}
