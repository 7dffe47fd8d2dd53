import { sql } from 'kysely'
import type { Database } from '../../database.js'
import type { RequestContext } from '../../platform/context.js'
import { AppError } from '../../platform/errors.js'
import { requireCurrency } from '../../shared/money/money.schemas.js'
import { PayoutPageChanged, type PayoutPageOutcome } from './payouts.batch.js'
import type { PayoutsService } from './payouts.service.js'

export interface PayoutRunOptions {
  orgId: string
  currency?: string
  /** Include revenue whose period ends on or before this date (YYYY-MM-DD). */
  through?: string
  /** Creators paid at once when a page falls back to one payout per creator; default 4, 1 on PGlite. */
  concurrency?: number
  /** Pages paid side by side (each its own transaction and connection); default 2, 1 on PGlite. */
  pageConcurrency?: number
  /** Creators per page (one transaction); default 500. */
  pageSize?: number
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
  /** Pages that could not be paid set-based and were paid one creator at a time, and why (the first few). */
  pagesOneByOne: number
  pageErrors: string[]
}

const PAGE = 500
const FAILURES_KEPT = 10
/** Times a page is run again when revenue for its creators commits while it is written. */
const PAGE_RETRIES = 3

interface PageBounds {
  after: string
  upTo?: string
}

/** The org's creators in pages of `size` by id: each full page's bounds (after the previous page's last id, up to its own). */
async function pageBounds(db: Database, orgId: string, size: number): Promise<PageBounds[]> {
  const lasts = await db.read(orgId, (reader) =>
    reader
      .selectFrom((eb) =>
        eb
          .selectFrom('creators')
          .select(['id', sql<number>`row_number() over (order by id)`.as('position')])
          .where('org_id', '=', orgId)
          .as('numbered'),
      )
      .select('id')
      .where(sql<boolean>`position % ${size} = 0`)
      .orderBy('id')
      .execute(),
  )
  return lasts.map((row, index) => ({ after: index === 0 ? '' : lasts[index - 1]!.id, upTo: row.id }))
}

/** A run under way: who acts, its settings, and the report it fills. */
interface PayoutRun {
  db: Database
  payouts: PayoutsService
  ctx: RequestContext
  options: PayoutRunOptions
  report: PayoutRunReport
  /** Creators paid at once on the one-by-one path. */
  concurrency: number
  pageConcurrency: number
  pageSize: number
  currency: string | undefined
}

/**
 * `oeuvre payouts run`: a payout for every creator of the org with something to pay. Each
 * page of creators is paid set-based in one transaction holding their row locks (so a
 * concurrent API payout cannot take the same allocations); a page that cannot be (revenue
 * keeps arriving, an unexpected error) is paid again one creator at a time through the API's
 * own path, each failure counted on its creator.
 */
export async function runPayouts(
  db: Database,
  payouts: PayoutsService,
  options: PayoutRunOptions,
): Promise<PayoutRunReport> {
  const run = await startRun(db, payouts, options)
  const { pageSize } = run
  // The pages known now, bounded by their last creator ids, are paid side by side (disjoint creators,
  // disjoint locks); then creators added meanwhile, page after page.
  const bounded = await pageBounds(db, options.orgId, pageSize)
  const queue = [...bounded]
  await Promise.all(
    Array.from({ length: Math.min(run.pageConcurrency, queue.length) }, async () => {
      for (let bounds = queue.shift(); bounds !== undefined; bounds = queue.shift()) await payPage(run, bounds)
    }),
  )
  let after = bounded.at(-1)?.upTo ?? ''
  for (;;) {
    const page = await payPage(run, { after })
    if (page.lastId === null || page.creators < pageSize) break
    after = page.lastId
  }
  return run.report
}

/** The run's options checked, its actor (the org's system user) and settings, and an empty report. */
async function startRun(db: Database, payouts: PayoutsService, options: PayoutRunOptions): Promise<PayoutRun> {
  const { orgId } = options
  if (options.through !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.through))
    throw new AppError('parameter_invalid', 'through must be a date YYYY-MM-DD', { param: 'through' })
  const org = await db.read(orgId, (reader) =>
    reader.selectFrom('orgs').select('system_user_id').where('org_id', '=', orgId).executeTakeFirst(),
  )
  if (!org) throw new AppError('resource_missing', `org ${orgId} does not exist`)
  const ctx: RequestContext = {
    orgId,
    requestId: `cli_payouts_run_${Date.now()}`,
    actor: { userId: org.system_user_id, kind: 'system' },
  }
  const report: PayoutRunReport = {
    creators: 0,
    created: 0,
    nothingToPay: 0,
    belowMinimum: 0,
    failed: 0,
    failures: [],
    pagesOneByOne: 0,
    pageErrors: [],
  }
  return {
    db,
    payouts,
    ctx,
    options,
    report,
    concurrency: Math.max(1, options.concurrency ?? (db.kind === 'pglite' ? 1 : 4)),
    pageConcurrency: Math.max(1, options.pageConcurrency ?? (db.kind === 'pglite' ? 1 : 2)),
    pageSize: Math.max(1, options.pageSize ?? PAGE),
    currency: options.currency === undefined ? undefined : requireCurrency(options.currency),
  }
}

/** One payout through the API's path; refusals counted on the page, failures on the report. */
async function pay(run: PayoutRun, creatorId: string, page: PayoutPageOutcome): Promise<void> {
  const { currency, options, report } = run
  try {
    await run.payouts.create(run.ctx, {
      creatorId,
      ...(currency ? { currency } : {}),
      ...(options.through ? { through: options.through } : {}),
    })
    page.created += 1
  } catch (error) {
    if (error instanceof AppError && error.code === 'nothing_to_pay') page.nothingToPay += 1
    else if (error instanceof AppError && error.code === 'balance_below_minimum') page.belowMinimum += 1
    else {
      report.failed += 1
      if (report.failures.length < FAILURES_KEPT)
        report.failures.push({ creatorId, reason: error instanceof Error ? error.message : String(error) })
    }
  }
}

async function payOneByOne(run: PayoutRun, bounds: PageBounds): Promise<PayoutPageOutcome> {
  const { orgId } = run.ctx
  const creators = await run.db.read(orgId, (reader) => {
    let select = reader.selectFrom('creators').select('id').where('org_id', '=', orgId).where('id', '>', bounds.after)
    if (bounds.upTo !== undefined) select = select.where('id', '<=', bounds.upTo)
    return select.orderBy('id').limit(run.pageSize).execute()
  })
  const page: PayoutPageOutcome = {
    creators: creators.length,
    lastId: creators.at(-1)?.id ?? null,
    created: 0,
    nothingToPay: 0,
    belowMinimum: 0,
  }
  const queue = creators.map((row) => row.id)
  const workers = Array.from({ length: Math.min(run.concurrency, queue.length) }, async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) await pay(run, id, page)
  })
  await Promise.all(workers)
  return page
}

async function payPage(run: PayoutRun, bounds: PageBounds): Promise<PayoutPageOutcome> {
  const { currency, options, report } = run
  let page: PayoutPageOutcome | undefined
  for (let attempt = 0; !page; attempt += 1) {
    try {
      page = await run.payouts.runPage(run.ctx, {
        ...bounds,
        limit: run.pageSize,
        ...(currency ? { currency } : {}),
        ...(options.through ? { through: options.through } : {}),
      })
    } catch (error) {
      if (error instanceof PayoutPageChanged && attempt < PAGE_RETRIES) continue
      report.pagesOneByOne += 1
      if (report.pageErrors.length < FAILURES_KEPT)
        report.pageErrors.push(error instanceof Error ? error.message : String(error))
      page = await payOneByOne(run, bounds)
    }
  }
  report.creators += page.creators
  report.created += page.created
  report.nothingToPay += page.nothingToPay
  report.belowMinimum += page.belowMinimum
  options.onProgress?.(report)
  return page
}
