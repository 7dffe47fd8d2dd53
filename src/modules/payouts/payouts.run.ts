import type { Database } from '../../db/database.js'
import type { RequestContext } from '../../platform/context.js'
import { AppError } from '../../platform/errors.js'
import type { PayoutsService } from './payouts.service.js'

export interface PayoutRunOptions {
  orgId: string
  currency?: string
  /** Include revenue whose period ends on or before this date (YYYY-MM-DD). */
  through?: string
  /** Creators paid at once (each payout is its own transaction); default 4, 1 on PGlite. */
  concurrency?: number
  onProgress?(report: PayoutRunReport): void
}

export interface PayoutRunReport {
  creators: number
  created: number
  nothingToPay: number
  belowMinimum: number
  failed: number
  /** The first few failures other than the two expected ones. */
  failures: { creatorId: string; reason: string }[]
}

const PAGE = 500
const FAILURES_KEPT = 10

/**
 * `oeuvre payouts run`: a payout for every creator of the org with something to pay,
 * through the payouts service so each one locks its creator and commits alone (a
 * concurrent API payout cannot take the same allocations).
 */
export async function runPayouts(db: Database, payouts: PayoutsService, options: PayoutRunOptions): Promise<PayoutRunReport> {
  const { orgId } = options
  if (options.through !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.through)) throw new AppError('parameter_invalid', 'through must be a date YYYY-MM-DD', { param: 'through' })
  const org = await db.read(orgId, (reader) => reader.selectFrom('orgs').select('system_user_id').where('org_id', '=', orgId).executeTakeFirst())
  if (!org) throw new AppError('resource_missing', `org ${orgId} does not exist`)
  const ctx: RequestContext = { orgId, requestId: `cli_payouts_run_${Date.now()}`, actor: { userId: org.system_user_id, kind: 'system' } }
  const report: PayoutRunReport = { creators: 0, created: 0, nothingToPay: 0, belowMinimum: 0, failed: 0, failures: [] }
  const concurrency = Math.max(1, options.concurrency ?? (db.kind === 'pglite' ? 1 : 4))

  async function pay(creatorId: string): Promise<void> {
    try {
      await payouts.create(ctx, { creatorId, ...(options.currency ? { currency: options.currency } : {}), ...(options.through ? { through: options.through } : {}) })
      report.created += 1
    } catch (error) {
      if (error instanceof AppError && error.code === 'nothing_to_pay') report.nothingToPay += 1
      else if (error instanceof AppError && error.code === 'balance_below_minimum') report.belowMinimum += 1
      else {
        report.failed += 1
        if (report.failures.length < FAILURES_KEPT) report.failures.push({ creatorId, reason: error instanceof Error ? error.message : String(error) })
      }
    }
  }

  let after = ''
  for (;;) {
    const page = await db.read(orgId, (reader) =>
      reader.selectFrom('creators').select('id').where('org_id', '=', orgId).where('id', '>', after).orderBy('id').limit(PAGE).execute(),
    )
    const queue = page.map((row) => row.id)
    const workers = Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) await pay(id)
    })
    await Promise.all(workers)
    report.creators += page.length
    options.onProgress?.(report)
    const last = page.at(-1)
    if (!last || page.length < PAGE) break
    after = last.id
  }
  return report
}
