import type { Database } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import { AppError, notFound } from '../../platform/errors.js'
import { decodeCursor, olderThan, toPage, type Page } from '../../platform/pagination.js'
import type { AuditLog } from '../audit/index.js'
import { normaliseEmail, OPERATOR_LINK_MS, type AuthService, type PasswordResets } from '../orgs/index.js'
import { recordPartnerEvent, type PartnerEventDeps } from './partners.events.js'
import { presentPartner, presentReview, type PartnerRow } from './partners.onboarding.js'
import { applicationsOf, isOperator, moveStatus, partnerById } from './partners.repo.js'
import type { ApproveBody, OperatorPartner, OperatorPartnerQuery, Partner } from './partners.schemas.js'
import type { PartnerStatus } from './partners.tables.js'

/** An operator acting (HTTP or CLI). */
export interface OperatorCaller {
  userId: string
  requestId: string
}

/** The operators' side: the partners to review, and each decision, named in the partner's org events. */
export interface OperatorDecisions {
  isOperator(userId: string): Promise<boolean>
  /** Makes a user an operator (the CLI; no HTTP route makes one); `create` makes the account when there is none. */
  addOperator(
    email: string,
    create?: { name: string } | null,
  ): Promise<{ userId: string; added: boolean; created: boolean; link?: string }>
  list(query: OperatorPartnerQuery): Promise<Page<Partner>>
  show(id: string): Promise<OperatorPartner>
  approve(operator: OperatorCaller, id: string, body: ApproveBody): Promise<OperatorPartner>
  requestChanges(operator: OperatorCaller, id: string, reason: string): Promise<OperatorPartner>
  reject(operator: OperatorCaller, id: string, reason: string): Promise<OperatorPartner>
  suspend(operator: OperatorCaller, id: string, reason: string): Promise<OperatorPartner>
  resume(operator: OperatorCaller, id: string): Promise<OperatorPartner>
}

export interface OperatorDecisionsDeps extends PartnerEventDeps {
  db: Database
  clock: Clock
  audit: Pick<AuditLog, 'append'>
  auth: Pick<AuthService, 'createPersonIn'>
  /** A set-password link for a new operator (the password reset's tokens). */
  issueLink: PasswordResets['issueLink']
}

type Decision = 'approve' | 'request-changes' | 'reject' | 'suspend' | 'resume'

/** Each decision: the statuses it moves a partner from and to, its org event, and what it does to the open review. */
const DECISIONS: Record<
  Decision,
  {
    from: readonly PartnerStatus[]
    to: PartnerStatus
    action: string
    review?: 'approved' | 'changes_requested' | 'rejected'
  }
> = {
  approve: { from: ['in_review'], to: 'live', action: 'partner.approved', review: 'approved' },
  'request-changes': {
    from: ['in_review'],
    to: 'changes_requested',
    action: 'partner.changes_requested',
    review: 'changes_requested',
  },
  reject: { from: ['in_review'], to: 'rejected', action: 'partner.rejected', review: 'rejected' },
  suspend: { from: ['live'], to: 'suspended', action: 'partner.suspended' },
  resume: { from: ['suspended'], to: 'live', action: 'partner.resumed' },
}

export function createOperatorDecisions(deps: OperatorDecisionsDeps): OperatorDecisions {
  const { db } = deps
  return {
    isOperator: (userId) => isOperator(db, userId),
    addOperator: (email, create) => addOperator(deps, email, create ?? null),
    list: (query) => listPartners(db, query),
    async show(id) {
      const row = await partnerById(db.global, id)
      if (!row) throw notFound('partner')
      return operatorView(db, row)
    },
    approve: (operator, id, body) => approve(deps, operator, id, body),
    requestChanges: (operator, id, reason) => decide(deps, { operator, id, decision: 'request-changes', reason }),
    reject: (operator, id, reason) => decide(deps, { operator, id, decision: 'reject', reason }),
    suspend: (operator, id, reason) => decide(deps, { operator, id, decision: 'suspend', reason }),
    resume: (operator, id) => decide(deps, { operator, id, decision: 'resume', reason: null }),
  }
}

/**
 * Makes a user an operator. With `create`, an email that has no account gets one (no password)
 * and an operator_invite email with a single-use link to set it; the link is answered too.
 */
async function addOperator(deps: OperatorDecisionsDeps, email: string, create: { name: string } | null) {
  const normalised = normaliseEmail(email)
  const existing = await deps.db.global
    .selectFrom('users')
    .select('id')
    .where('email', '=', normalised)
    .where('kind', '=', 'person')
    .executeTakeFirst()
  if (!existing && !create)
    throw new AppError(
      'resource_missing',
      `No user with the email ${email}: add --create to make the account (they set a password from an email), or they sign up first`,
    )
  const { userId, added } = await deps.db.globalTx(async (tx) => {
    const userId = existing?.id ?? (await deps.auth.createPersonIn(tx, { email, name: create!.name })).id
    const inserted = await tx
      .insertInto('operators')
      .values({ user_id: userId, added_at: deps.clock.now() })
      .onConflict((conflict) => conflict.column('user_id').doNothing())
      .returning('user_id')
      .executeTakeFirst()
    return { userId, added: inserted !== undefined }
  })
  if (existing) return { userId, added, created: false }
  const { link, expiresInMinutes } = await deps.issueLink(userId, OPERATOR_LINK_MS)
  await deps.db.globalTx((tx) =>
    deps.outbox.enqueue(tx, {
      kind: 'operator_invite',
      to: { address: normalised, name: create!.name },
      variables: { expiresInMinutes: String(expiresInMinutes) },
      secret: { link },
    }),
  )
  return { userId, added: true, created: true, link }
}

async function listPartners(db: Database, query: OperatorPartnerQuery): Promise<Page<Partner>> {
  const filters = query.status ? { status: query.status } : {}
  const after = decodeCursor(query.cursor, filters, 2)
  let select = db.global.selectFrom('partners').selectAll()
  if (query.status) select = select.where('status', '=', query.status)
  if (after) select = select.where(olderThan(after, 'created_at', 'id'))
  const rows = await select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute()
  return toPage(
    rows,
    query.limit,
    (row) => [row.created_at.toISOString(), row.id],
    (row) => presentPartner(row),
    filters,
  )
}

/** A partner as operators see it: with its user, application, agreement evidence and review requests. */
async function operatorView(db: Database, row: PartnerRow): Promise<OperatorPartner> {
  const [user, reviews] = await Promise.all([
    db.global
      .selectFrom('users')
      .select(['id', 'email', 'name'])
      .where('id', '=', row.user_id)
      .executeTakeFirstOrThrow(),
    db.global
      .selectFrom('partner_review_requests')
      .selectAll()
      .where('partner_id', '=', row.id)
      .orderBy('requested_at', 'desc')
      .orderBy('id', 'desc')
      .limit(20)
      .execute(),
  ])
  return {
    ...presentPartner(row, await applicationsOf(db, row.id)),
    user,
    application:
      row.application && row.application_at
        ? { ...row.application, submittedAt: row.application_at.toISOString() }
        : null,
    agreement: row.agreement,
    reviewRequests: reviews.map(presentReview),
  }
}

/** Approval: a platform integrator's needs its limits; nobody else's may set any. */
async function approve(deps: OperatorDecisionsDeps, operator: OperatorCaller, id: string, body: ApproveBody) {
  const current = await partnerById(deps.db.global, id)
  if (!current) throw notFound('partner')
  let limits: { perMinute: number; burst: number } | null = null
  if (current.tier === 'platform_integrator') {
    for (const param of ['rateLimit', 'burst'] as const)
      if (body[param] === undefined)
        throw new AppError('parameter_missing', 'A platform integrator is approved with its rateLimit and burst', {
          param,
        })
    limits = { perMinute: body.rateLimit!, burst: body.burst! }
  } else if (body.rateLimit !== undefined || body.burst !== undefined) {
    throw new AppError('parameter_invalid', 'Only platform integrators have limits set at approval', {
      param: body.rateLimit !== undefined ? 'rateLimit' : 'burst',
    })
  }
  return decide(deps, { operator, id, decision: 'approve', reason: null, limits })
}

interface DecisionInput {
  operator: OperatorCaller
  id: string
  decision: Decision
  reason: string | null
  limits?: { perMinute: number; burst: number } | null
}

/** Moves the partner as the decision says (only from where it stood), closes its open review, and records it naming the operator. */
async function decide(deps: OperatorDecisionsDeps, input: DecisionInput): Promise<OperatorPartner> {
  const { db } = deps
  const { operator, id, decision, reason } = input
  const limits = input.limits ?? null
  const current = await partnerById(db.global, id)
  if (!current) throw notFound('partner')
  const rule = DECISIONS[decision]
  const who = await db.global
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('id', '=', operator.userId)
    .executeTakeFirstOrThrow()
  const now = deps.clock.now()
  const moved = await db.tx({ orgId: current.sandbox_org_id }, async (tx) => {
    const set = {
      status_reason: decision === 'resume' || decision === 'approve' ? null : reason,
      ...(limits ? { rate_per_minute: limits.perMinute, rate_burst: limits.burst } : {}),
    }
    const row = await moveStatus(tx, id, rule.from, rule.to, set, now)
    if (!row)
      throw new AppError(
        'invalid_state',
        `The partner is ${(await partnerById(tx, id))?.status ?? current.status}; ${decision} needs ${rule.from.join(' or ')}`,
      )
    if (rule.review) {
      await tx
        .updateTable('partner_review_requests')
        .set({ status: rule.review, decided_at: now, decided_by: operator.userId, reason })
        .where('partner_id', '=', id)
        .where('status', '=', 'open')
        .execute()
    }
    const data = {
      operator: { userId: who.id, email: who.email, name: who.name },
      ...(reason !== null ? { reason } : {}),
      ...(limits ? { limits } : {}),
    }
    await recordPartnerEvent(tx, deps, { row, actorId: operator.userId, action: rule.action, data, at: now })
    return row
  })
  return operatorView(db, moved)
}
