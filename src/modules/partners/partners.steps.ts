import type { Database } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import { AppError, forbidden, notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { AuditLog } from '../audit/index.js'
import { AGREEMENT_SHA256, AGREEMENT_TEXT, AGREEMENT_VERSION } from './partners.agreement.js'
import { recordPartnerEvent, type PartnerEventDeps } from './partners.events.js'
import { missingBeforeReview, presentPartner, presentReview, type PartnerRow } from './partners.onboarding.js'
import { applicationsOf, moveStatus, partnerOfUser } from './partners.repo.js'
import type { Agreement, ApplicationBody, Partner, ReviewRequest, SignAgreementBody } from './partners.schemas.js'

/** A partner user acting: the session's user and active org. */
export interface PartnerCaller {
  userId: string
  activeOrgId: string | null
  requestId: string
}

/** The partner's own onboarding steps: its application, the agreement, the review request. */
export interface PartnerSteps {
  get(caller: PartnerCaller): Promise<Partner>
  submitApplication(caller: PartnerCaller, body: ApplicationBody): Promise<Partner>
  agreement(): Agreement
  signAgreement(caller: PartnerCaller, body: SignAgreementBody, address: string): Promise<Partner>
  requestReview(caller: PartnerCaller): Promise<ReviewRequest>
  /** The feed route's integration_testing marker: a read of the org event feed by a partner's sandbox client. */
  markFeedRead(clientId: string): Promise<void>
}

export interface PartnerStepsDeps extends PartnerEventDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: Pick<AuditLog, 'append'>
}

export function createPartnerSteps(deps: PartnerStepsDeps): PartnerSteps {
  /** Clients whose feed reads need no marker (marked already, or not a sandbox client): no write per read. */
  const feedSettled = new Set<string>()
  return {
    async get(caller) {
      const row = await callerPartner(deps.db, caller, false)
      return presentPartner(row, await applicationsOf(deps.db, row.id))
    },
    submitApplication: (caller, body) => submitApplication(deps, caller, body),
    agreement: () => ({ version: AGREEMENT_VERSION, text: AGREEMENT_TEXT, sha256: AGREEMENT_SHA256 }),
    signAgreement: (caller, body, address) => signAgreement(deps, caller, body, address),
    requestReview: (caller) => requestReview(deps, caller),
    async markFeedRead(clientId) {
      if (feedSettled.has(clientId)) return
      const now = deps.clock.now()
      await deps.db.global
        .updateTable('partners')
        .set({ integration_feed_at: now, updated_at: now })
        .where('sandbox_client_id', '=', clientId)
        .where('integration_feed_at', 'is', null)
        .execute()
      // Marked now, marked before, or not a sandbox client: nothing to write for this client again.
      feedSettled.add(clientId)
    },
  }
}

/** The caller's partner; `manage`: the caller must be an owner or admin of its sandbox org. */
async function callerPartner(db: Database, caller: PartnerCaller, manage: boolean): Promise<PartnerRow> {
  const found = await partnerOfUser(db, caller.userId, caller.activeOrgId)
  if (!found) throw notFound('partner')
  if (manage && found.role !== 'owner' && found.role !== 'admin')
    throw forbidden(`The ${found.role} role cannot act for the partner; ask an owner or admin of its sandbox org`)
  return found.row
}

async function submitApplication(deps: PartnerStepsDeps, caller: PartnerCaller, body: ApplicationBody) {
  const current = await callerPartner(deps.db, caller, true)
  const now = deps.clock.now()
  const application = {
    website: body.website,
    useCase: body.useCase,
    expectedMonthlyRequests: body.expectedMonthlyRequests,
  }
  const row = await deps.db.tx({ orgId: current.sandbox_org_id }, async (tx) => {
    const row = await tx
      .updateTable('partners')
      .set({ application: JSON.stringify(application), application_at: now, updated_at: now })
      .where('id', '=', current.id)
      .where('status', 'in', ['sandbox', 'changes_requested'])
      .returningAll()
      .executeTakeFirst()
    if (!row)
      throw new AppError(
        'invalid_state',
        'The application can be changed only before the review or when changes are requested',
      )
    // Each submission is a new version; the earlier ones stay readable.
    const last = await tx
      .selectFrom('partner_applications')
      .select((eb) => eb.fn.max('version').as('version'))
      .where('partner_id', '=', row.id)
      .executeTakeFirst()
    const version = (last?.version ?? 0) + 1
    await tx
      .insertInto('partner_applications')
      .values({
        partner_id: row.id,
        version,
        application: JSON.stringify(application),
        submitted_at: now,
        submitted_by: caller.userId,
      })
      .execute()
    await deps.audit.append(
      tx,
      { orgId: row.sandbox_org_id, actor: { userId: caller.userId } },
      'partner.application_submitted',
      { type: 'partner', id: row.id },
      { partnerId: row.id, version, ...application },
    )
    return row
  })
  return presentPartner(row, await applicationsOf(deps.db, row.id))
}

async function signAgreement(deps: PartnerStepsDeps, caller: PartnerCaller, body: SignAgreementBody, address: string) {
  const current = await callerPartner(deps.db, caller, true)
  if (body.version !== AGREEMENT_VERSION)
    throw new AppError('parameter_invalid', `The agreement in force is version ${AGREEMENT_VERSION}`, {
      param: 'version',
    })
  const now = deps.clock.now()
  const evidence = {
    version: AGREEMENT_VERSION,
    signerName: body.signerName.trim(),
    userId: caller.userId,
    signedAt: now.toISOString(),
    address,
    textSha256: AGREEMENT_SHA256,
  }
  const row = await deps.db.tx({ orgId: current.sandbox_org_id }, async (tx) => {
    const row = await tx
      .updateTable('partners')
      .set({ agreement: JSON.stringify(evidence), agreement_at: now, updated_at: now })
      .where('id', '=', current.id)
      .where('agreement_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
    if (!row) throw new AppError('conflict', 'The agreement has been signed already')
    // In the org's hash chain (and so in its seals): the evidence of who signed which text.
    await deps.audit.append(
      tx,
      { orgId: row.sandbox_org_id, actor: { userId: caller.userId } },
      'partner.agreement_signed',
      { type: 'partner', id: row.id },
      { partnerId: row.id, ...evidence },
    )
    return row
  })
  return presentPartner(row, await applicationsOf(deps.db, row.id))
}

const REVIEW_OPEN = 'A review request is open already; wait for the operator’s decision'

async function requestReview(deps: PartnerStepsDeps, caller: PartnerCaller): Promise<ReviewRequest> {
  const current = await callerPartner(deps.db, caller, true)
  if (current.status === 'in_review') throw new AppError('conflict', REVIEW_OPEN)
  if (current.status !== 'sandbox' && current.status !== 'changes_requested')
    throw new AppError(
      'invalid_state',
      `The partner is ${current.status}; a review can be requested only before going live`,
    )
  const missing = missingBeforeReview(current)
  if (missing.length > 0)
    throw new AppError('invalid_state', `Complete these steps first: ${missing.join(', ')}`, {
      extra: { currentlyDue: missing },
    })
  const now = deps.clock.now()
  const review = {
    id: deps.ids.next('reviewRequest'),
    partner_id: current.id,
    status: 'open' as const,
    requested_at: now,
    requested_by: caller.userId,
    decided_at: null,
    decided_by: null,
    reason: null,
  }
  try {
    await deps.db.tx({ orgId: current.sandbox_org_id }, async (tx) => {
      // Only the request that finds the partner still where it was moves it (the other sees 0 rows).
      const row = await moveStatus(tx, current.id, ['sandbox', 'changes_requested'], 'in_review', {}, now)
      if (!row) throw new AppError('conflict', REVIEW_OPEN)
      // The database keeps one open request per partner whatever the code does.
      await tx.insertInto('partner_review_requests').values(review).execute()
      const data = { reviewRequestId: review.id }
      await recordPartnerEvent(tx, deps, {
        row,
        actorId: caller.userId,
        action: 'partner.review_requested',
        data,
        at: now,
      })
    })
  } catch (error) {
    const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown }
    if (code === '23505' && constraint === 'partner_review_requests_open') throw new AppError('conflict', REVIEW_OPEN)
    throw error
  }
  return presentReview(review)
}
