import type { Database } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { IdGenerator } from '../../platform/ids.js'
import { tellPayoutStatus, type PayoutNoticeDeps } from './payouts.notices.js'
import type { AuditLog } from '../audit/index.js'
import type { Tx } from '../../database.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import type { RequestContext } from '../../platform/context.js'
import { AppError, notFound } from '../../platform/errors.js'
import { decodeCursor, toPage, type Page } from '../../platform/pagination.js'
import type { AuditActor } from '../audit/index.js'
import { lockCreator, lockCreatorQuery, type CreatorRow } from '../creators/index.js'
import { formatAmount } from '../../shared/money/money.decimal.js'
import { requireCurrency } from '../../shared/money/money.schemas.js'
import { iso, isoOrNull } from '../../shared/records/records.mount.js'
import {
  carriedBy,
  changeStatus,
  findPayout,
  listPayouts,
  livePayoutsQuery,
  payableOf,
  payoutLines,
  payoutInserts,
  pendingPayoutRow,
  releaseItems,
  unpaidAllocationsQuery,
  type PayoutRow,
  type StatusChange,
} from './payouts.repo.js'
import { payPayoutPage, type PayoutPageOutcome, type PayoutPageRequest } from './payouts.batch.js'
import { listBalances } from './payouts.balances.js'
import type {
  Balance,
  BalanceQuery,
  CreatePayoutBody,
  FailPayoutBody,
  Payout,
  PayoutLine,
  PayoutLineQuery,
  PayoutQuery,
} from './payouts.schemas.js'
import { computeStatement } from './payouts.statement.js'
import type { PayoutStatus } from './payouts.tables.js'

export interface PayoutsService {
  create(ctx: RequestContext, body: CreatePayoutBody, answer?: StoredAnswer): Promise<Payout>
  get(ctx: RequestContext, id: string): Promise<Payout>
  list(ctx: RequestContext, query: PayoutQuery): Promise<Page<Payout>>
  /** The allocations of a payout's statement, a page at a time. */
  lines(ctx: RequestContext, id: string, query: PayoutLineQuery): Promise<Page<PayoutLine>>
  /** What a payout created now would pay, per creator and currency (payouts.balances.ts). */
  balances(ctx: RequestContext, query: BalanceQuery): Promise<Page<Balance>>
  cancel(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<Payout>
  markInTransit(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<Payout>
  markPaid(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<Payout>
  markFailed(ctx: RequestContext, id: string, body: FailPayoutBody, answer?: StoredAnswer): Promise<Payout>
  /** One page of `oeuvre payouts run`: the page's creators paid set-based in one transaction (payouts.batch.ts). */
  runPage(ctx: RequestContext, request: PayoutPageRequest): Promise<PayoutPageOutcome>
  /** Moves a payout along, as a rail or the system would; used by the sandbox rail. */
  advance(tx: Tx, actor: AuditActor, payout: PayoutRow, change: StatusChange): Promise<Payout>
}

export function presentPayout(row: PayoutRow): Payout {
  const money = (micros: bigint) => formatAmount(micros, row.currency)
  return {
    id: row.id,
    creatorId: row.creator_id,
    amount: money(row.amount_micros),
    currency: row.currency,
    status: row.status,
    statement: {
      openingBalance: money(row.opening_balance_micros),
      earnings: money(row.earnings_micros),
      recouped: money(row.recouped_micros),
      carriedForward: money(row.carried_forward_micros),
      entries: row.entries,
      periodStart: row.period_start,
      periodEnd: row.period_end,
    },
    method: row.method,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    createdAt: iso(row.created_at),
    paidAt: isoOrNull(row.paid_at),
    batchId: row.batch_id,
  }
}

/** The state machine of docs/money.md, "States": where each status may be reached from. */
const REACHABLE_FROM: Record<Exclude<PayoutStatus, 'pending'>, readonly PayoutStatus[]> = {
  in_transit: ['pending'],
  paid: ['in_transit'],
  failed: ['pending', 'in_transit'],
  canceled: ['pending'],
}

/** What the service is built from: the database, time, ids, and the audit log's append. */
export interface PayoutsDeps extends PayoutNoticeDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: Pick<AuditLog, 'append'>
}

export function createPayoutsService(deps: PayoutsDeps): PayoutsService {
  const { db } = deps
  return {
    advance: (tx, actor, payout, change) => advance(deps, tx, actor, payout, change),
    runPage: (ctx, request) => payPayoutPage(deps, ctx, request, presentPayout),
    create: (ctx, body, answer) => createPayout(deps, ctx, body, answer),
    async get(ctx, id) {
      const row = await db.read(ctx.orgId, (reader) => findPayout(reader, ctx.orgId, id))
      if (!row) throw notFound('payout')
      return presentPayout(row)
    },
    async list(ctx, query) {
      const filters = { batchId: query.batchId, status: query.status }
      const after = decodeCursor(query.cursor, filters, 2)
      const rows = await db.read(ctx.orgId, (reader) => listPayouts(reader, ctx.orgId, filters, after, query.limit))
      return toPage(rows, query.limit, (row) => [iso(row.created_at), row.id], presentPayout, filters)
    },
    lines: (ctx, id, query) => lines(db, ctx, id, query),
    balances: (ctx, query) => db.read(ctx.orgId, (reader) => listBalances(reader, ctx.orgId, query)),
    cancel: (ctx, id, answer) => act(deps, ctx, id, { status: 'canceled' }, answer),
    markInTransit: (ctx, id, answer) => act(deps, ctx, id, { status: 'in_transit' }, answer, manualOnly),
    markPaid: (ctx, id, answer) => act(deps, ctx, id, { status: 'paid' }, answer, manualOnly),
    markFailed: (ctx, id, body, answer) =>
      act(
        deps,
        ctx,
        id,
        { status: 'failed', failureCode: body.failureCode ?? 'manual', failureMessage: body.failureMessage },
        answer,
      ),
  }
}

async function advance(
  deps: PayoutsDeps,
  tx: Tx,
  actor: AuditActor,
  payout: PayoutRow,
  change: StatusChange,
): Promise<Payout> {
  const to = change.status as Exclude<PayoutStatus, 'pending'>
  const from = REACHABLE_FROM[to]
  if (!from.includes(payout.status))
    throw new AppError('invalid_state', `A ${payout.status} payout cannot become ${to}`)
  const returnsMoney = to === 'failed' || to === 'canceled'
  // Lock the creator row: a payout being computed must see either all or none of this release.
  if (returnsMoney) await lockCreator(tx, actor.orgId, payout.creator_id)
  const updated = await changeStatus(tx, actor.orgId, payout.id, from, change)
  if (!updated) throw new AppError('invalid_state', `The payout is no longer ${from.join(' or ')}`)
  if (returnsMoney) await releaseItems(tx, actor.orgId, payout.id, change.at)
  const record = presentPayout(updated)
  await deps.audit.append(tx, actor, `payout.${to}`, { type: 'payout', id: payout.id }, record)
  await tellPayoutStatus(deps, tx, actor.orgId, record)
  return record
}

/** A status change asked for over the API: the payout found, the route's rule checked, then advanced. */
function act(
  deps: PayoutsDeps,
  ctx: RequestContext,
  id: string,
  change: Omit<StatusChange, 'at'>,
  answer: StoredAnswer | undefined,
  rule?: (payout: PayoutRow) => void,
): Promise<Payout> {
  return deps.db.tx(
    ctx,
    async (tx) => {
      const payout = await findPayout(tx, ctx.orgId, id)
      if (!payout) throw notFound('payout')
      rule?.(payout)
      return advance(deps, tx, ctx, payout, { ...change, at: deps.clock.now() })
    },
    { commitWith: answer },
  )
}

const manualOnly = (payout: PayoutRow) => {
  if (payout.method !== 'manual')
    throw new AppError('invalid_state', 'The sandbox rail moves sandbox payouts by itself')
}

async function createPayout(
  deps: PayoutsDeps,
  ctx: RequestContext,
  body: CreatePayoutBody,
  answer?: StoredAnswer,
): Promise<Payout> {
  const { db, clock, ids, audit } = deps
  return db.tx(
    ctx,
    async (tx) => {
      const { creator, org } = await lockCreatorWithOrg(db, tx, ctx.orgId, body.creatorId)
      const currency = requireCurrency(body.currency ?? creator.payout_currency)
      const inPayoutCurrency = currency === creator.payout_currency
      // Read under the lock, in one round trip: what the creator's live payouts carried, and what none of them holds.
      const [live, unpaid] = await db.batch(tx, [
        livePayoutsQuery(tx, ctx.orgId, creator.id, currency),
        unpaidAllocationsQuery(tx, ctx.orgId, creator.id, currency, body.through ?? null),
      ])
      const openingBalance = (inPayoutCurrency ? creator.opening_balance_micros : 0n) + carriedBy(live ?? [])
      const allocations = payableOf(unpaid ?? [])
      const statement = computeStatement({
        currency,
        openingBalance,
        allocations,
        minimum: inPayoutCurrency ? creator.minimum_payout_micros : null,
      })
      const now = clock.now()
      const row = pendingPayoutRow({
        orgId: ctx.orgId,
        id: ids.next('payout'),
        creatorId: creator.id,
        currency,
        statement,
        sandbox: org.environment === 'sandbox',
        now,
        createdBy: ctx.actor.userId,
        batchId: null,
      })
      // Nothing reads them back: they go with the commit (payout_items_live still refuses an allocation held twice).
      for (const insert of payoutInserts(
        tx,
        row,
        allocations.map((allocation) => allocation.revenueId),
      ))
        db.atCommit(tx, insert.compile())
      const payout = presentPayout(row)
      await audit.append(tx, ctx, 'payout.created', { type: 'payout', id: row.id }, payout)
      await tellPayoutStatus(deps, tx, ctx.orgId, payout)
      return payout
    },
    { commitWith: answer },
  )
}

/** Lock the creator row: two payouts must never take the same allocation. The org's environment comes in the same round trip. */
async function lockCreatorWithOrg(
  db: Database,
  tx: Tx,
  orgId: string,
  creatorId: string,
): Promise<{ creator: CreatorRow; org: { environment: string } }> {
  const [locked, orgs] = await db.batch(tx, [
    lockCreatorQuery(tx, orgId, creatorId),
    tx.selectFrom('orgs').select('environment').where('org_id', '=', orgId),
  ])
  const creator = locked?.[0] as CreatorRow | undefined
  if (!creator)
    throw new AppError('unprocessable', `creatorId ${creatorId} is not a creator of this org`, {
      param: 'creatorId',
    })
  const org = orgs?.[0] as { environment: string } | undefined
  if (!org) throw new Error(`org ${orgId} not found in its own scope`)
  return { creator, org }
}

async function lines(db: Database, ctx: RequestContext, id: string, query: PayoutLineQuery): Promise<Page<PayoutLine>> {
  const after = decodeCursor(query.cursor, {}, 1)
  return db.read(ctx.orgId, async (reader) => {
    const payout = await findPayout(reader, ctx.orgId, id)
    if (!payout) throw notFound('payout')
    const rows = await payoutLines(reader, ctx.orgId, id, after ? String(after[0]) : null, query.limit)
    return toPage(
      rows,
      query.limit,
      (row) => [row.revenue_id],
      (row) => ({
        revenueId: row.revenue_id,
        amount: formatAmount(row.amount_micros, payout.currency),
        catalogId: row.catalog_id,
        source: row.source,
        type: row.type,
        territory: row.territory,
        periodStart: row.period_start,
        periodEnd: row.period_end,
      }),
      {},
    )
  })
}
