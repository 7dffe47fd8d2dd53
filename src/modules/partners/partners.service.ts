import { sql } from 'kysely'
import type { Config } from '../../config.js'
import type { Database, Tx } from '../../database.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import type { Clock } from '../../platform/clock.js'
import type { CredentialCache } from '../../platform/credential-cache.js'
import { hashSecret, type PasswordHasher } from '../../platform/crypto.js'
import { AppError, forbidden, notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import { decodeCursor, olderThan, toPage, type Page } from '../../platform/pagination.js'
import { SCOPES, type Scope } from '../../platform/permissions.js'
import { TIERS } from '../../platform/rate-limit.js'
import { wrongRegion } from '../../platform/region.js'
import { seedRecords, type DemoServices } from '../../seed.js'
import type { AuditLog } from '../audit/audit.service.js'
import { presentClient, type ProductionAccessPolicy } from '../oauth/oauth.clients.js'
import { normaliseEmail, presentUser, type AuthService } from '../orgs/auth.service.js'
import type { OrgsService } from '../orgs/orgs.service.js'
import { AGREEMENT_SHA256, AGREEMENT_TEXT, AGREEMENT_VERSION } from './partners.agreement.js'
import { missingBeforeReview, presentPartner, productionLimits, type PartnerRow } from './partners.onboarding.js'
import { isOperator, moveStatus, partnerById, partnerOfUser } from './partners.repo.js'
import type {
  Agreement,
  ApplicationBody,
  ApproveBody,
  OperatorPartner,
  OperatorPartnerQuery,
  Partner,
  PartnerSignupBody,
  PartnerSignupResponse,
  ReviewRequest,
  SignAgreementBody,
} from './partners.schemas.js'
import type { PartnerStatus } from './partners.tables.js'

/** What the sandbox client may do: read everything, and register webhooks. */
export const SANDBOX_SCOPES: Scope[] = [...SCOPES.filter((scope) => scope.endsWith(':read')), 'webhooks:write']

/** A partner user acting: the session's user and active org. */
export interface PartnerCaller {
  userId: string
  activeOrgId: string | null
  requestId: string
}

/** An operator acting (HTTP or CLI). */
export interface OperatorCaller {
  userId: string
  requestId: string
}

export interface PartnersService {
  /**
   * `answer`: the request's Idempotency-Key, stored with the sign-up's transaction as the
   * answer without the session token and the client secret (neither is ever stored).
   */
  signup(body: PartnerSignupBody, requestId: string, answer?: StoredAnswer): Promise<PartnerSignupResponse>
  get(caller: PartnerCaller): Promise<Partner>
  submitApplication(caller: PartnerCaller, body: ApplicationBody): Promise<Partner>
  agreement(): Agreement
  signAgreement(caller: PartnerCaller, body: SignAgreementBody, address: string): Promise<Partner>
  requestReview(caller: PartnerCaller): Promise<ReviewRequest>
  isOperator(userId: string): Promise<boolean>
  /** Makes an existing user an operator (the CLI; no HTTP route makes one). */
  addOperator(email: string): Promise<{ userId: string; added: boolean }>
  list(query: OperatorPartnerQuery): Promise<Page<Partner>>
  show(id: string): Promise<OperatorPartner>
  approve(operator: OperatorCaller, id: string, body: ApproveBody): Promise<OperatorPartner>
  requestChanges(operator: OperatorCaller, id: string, reason: string): Promise<OperatorPartner>
  reject(operator: OperatorCaller, id: string, reason: string): Promise<OperatorPartner>
  suspend(operator: OperatorCaller, id: string, reason: string): Promise<OperatorPartner>
  resume(operator: OperatorCaller, id: string): Promise<OperatorPartner>
  /** The clients service's production gate: orgs of a live partner only. */
  productionAccess: ProductionAccessPolicy
  /** The feed route's integration_testing marker: a read of the org event feed by a partner's sandbox client. */
  markFeedRead(clientId: string): Promise<void>
}

type Decision = 'approve' | 'request-changes' | 'reject' | 'suspend' | 'resume'

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

export function createPartnersService(deps: {
  db: Database
  clock: Clock
  ids: IdGenerator
  config: Config
  audit: AuditLog
  auth: AuthService
  orgs: OrgsService
  passwords: PasswordHasher
  credentials: CredentialCache
  demo: DemoServices
}): PartnersService {
  const { db, clock, ids, config, audit, auth, orgs, passwords, credentials } = deps
  /** Clients whose feed reads need no marker (marked already, or not a sandbox client): no write per read. */
  const feedSettled = new Set<string>()

  async function callerPartner(caller: PartnerCaller, manage: boolean): Promise<PartnerRow> {
    const found = await partnerOfUser(db, caller.userId, caller.activeOrgId)
    if (!found) throw notFound('partner')
    if (manage && found.role !== 'owner' && found.role !== 'admin')
      throw forbidden(`The ${found.role} role cannot act for the partner; ask an owner or admin of its sandbox org`)
    return found.row
  }

  /** Appends the partner's org event (on its sandbox org) and records the email the partner is to get. */
  async function record(
    tx: Tx,
    row: PartnerRow,
    actorId: string,
    action: string,
    data: Record<string, unknown>,
  ): Promise<void> {
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
        created_at: clock.now(),
      })
      .execute()
  }

  async function operatorView(row: PartnerRow): Promise<OperatorPartner> {
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
      ...presentPartner(row),
      user,
      application:
        row.application && row.application_at
          ? { ...row.application, submittedAt: row.application_at.toISOString() }
          : null,
      agreement: row.agreement,
      reviewRequests: reviews.map(presentReview),
    }
  }

  async function decide(
    operator: OperatorCaller,
    id: string,
    decision: Decision,
    reason: string | null,
    limits: { perMinute: number; burst: number } | null = null,
  ): Promise<OperatorPartner> {
    const current = await partnerById(db.global, id)
    if (!current) throw notFound('partner')
    const rule = DECISIONS[decision]
    const who = await db.global
      .selectFrom('users')
      .select(['id', 'email', 'name'])
      .where('id', '=', operator.userId)
      .executeTakeFirstOrThrow()
    const now = clock.now()
    const moved = await db.tx({ orgId: current.sandbox_org_id }, async (tx) => {
      const set = {
        ...(decision === 'resume' || decision === 'approve' ? { status_reason: null } : { status_reason: reason }),
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
      await record(tx, row, operator.userId, rule.action, {
        operator: { userId: who.id, email: who.email, name: who.name },
        ...(reason !== null ? { reason } : {}),
        ...(limits ? { limits } : {}),
      })
      return row
    })
    return operatorView(moved)
  }

  return {
    async signup(body, requestId, answer) {
      const region = body.region ?? config.region
      if (region !== config.region) {
        const error = wrongRegion(config, region, `A partner of the ${region} region`)
        throw new AppError('wrong_region', error.message, { param: 'region', extra: error.options.extra ?? {} })
      }
      const email = normaliseEmail(body.email)
      const passwordHash = await passwords.hash(body.password)
      const now = clock.now()
      const user = { id: ids.next('user'), kind: 'person' as const, email, name: body.name.trim(), created_at: now }
      const orgId = ids.next('org')
      const partnerId = ids.next('partner')
      const company = body.company.trim()
      const clientSecret = ids.secret('cs_test_')
      const client = {
        org_id: orgId,
        id: ids.next('client'),
        name: `${company} sandbox`,
        service_user_id: ids.next('user'),
        scopes: [...SANDBOX_SCOPES],
        tier: 'api_partner_sandbox' as const,
        rate_per_minute: TIERS.sandbox.perMinute,
        rate_burst: TIERS.sandbox.burst,
        environment: 'sandbox' as const,
        secret_hash: hashSecret(clientSecret),
        secret_hint: `cs_test_…${clientSecret.slice(-4)}`,
        previous_secret_hash: null,
        previous_secret_expires_at: null,
        secret_rotated_at: null,
        created_at: now,
        created_by: user.id,
        revoked_at: null,
        revoked_by: null,
        last_used_at: null,
        last_used_from: null,
      }
      const changed = [`user:${user.id}`]
      // One transaction: the user, the partner, its sandbox org and the sandbox client, with their org events.
      const stored = await db.tx(
        { orgId },
        async (tx) => {
          const inserted = await tx
            .insertInto('users')
            .values({ ...user, password_hash: passwordHash, home_org_id: null })
            // A literal, not a parameter: a prepared statement's generic plan could not infer the partial unique index.
            .onConflict((conflict) => conflict.column('email').where('kind', '=', sql.lit('person')).doNothing())
            .returning('id')
            .executeTakeFirst()
          if (!inserted) throw new AppError('conflict', 'An account with this email already exists', { param: 'email' })
          const row = await tx
            .insertInto('partners')
            .values({
              id: partnerId,
              user_id: user.id,
              company,
              tier: body.tier,
              region,
              status: 'sandbox',
              sandbox_org_id: orgId,
              sandbox_client_id: client.id,
              rate_per_minute: null,
              rate_burst: null,
              application: null,
              application_at: null,
              agreement: null,
              agreement_at: null,
              integration_token_at: null,
              integration_feed_at: null,
              integration_webhook_at: null,
              provisioning_requested_at: null,
              status_reason: null,
              created_at: now,
              updated_at: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow()
          await orgs.provisionIn(tx, {
            orgId,
            name: `${company} Sandbox`,
            environment: 'sandbox',
            ownerId: user.id,
            requestId,
            partnerId,
          })
          await tx
            .insertInto('users')
            .values({
              id: client.service_user_id,
              kind: 'service',
              email: null,
              name: `${client.name} (API client)`,
              password_hash: null,
              home_org_id: orgId,
              created_at: now,
            })
            .execute()
          await tx.insertInto('oauth_clients').values(client).execute()
          const actor = { orgId, actor: { userId: user.id } }
          await audit.append(tx, actor, 'client.created', { type: 'client', id: client.id }, presentClient(client))
          await audit.append(
            tx,
            actor,
            'partner.created',
            { type: 'partner', id: partnerId },
            {
              partnerId,
              company,
              tier: body.tier,
              region,
              status: 'sandbox',
            },
          )
          await credentials.announce(tx, changed)
          // What an idempotent replay answers: no session token, no secret.
          return {
            user: presentUser(user),
            activeOrgId: orgId,
            partner: presentPartner(row),
            sandboxClient: { id: client.id, scopes: client.scopes, tier: client.tier },
          }
        },
        { commitWith: answer },
      )
      credentials.forget(changed)
      // The demo records, through the services (each with its org event), once the org exists.
      await seedRecords(deps.demo, {
        orgId,
        requestId,
        actor: { userId: user.id, kind: 'person', role: 'owner' },
      })
      const session = await auth.startSession(user.id, orgId)
      return {
        ...session,
        ...stored,
        // The demo records are there now: the partner as it stands.
        partner: presentPartner((await partnerById(db.global, partnerId))!),
        sandboxClient: { ...stored.sandboxClient, secret: clientSecret },
      }
    },

    async get(caller) {
      return presentPartner(await callerPartner(caller, false))
    },

    async submitApplication(caller, body) {
      const current = await callerPartner(caller, true)
      const now = clock.now()
      const application = {
        website: body.website,
        useCase: body.useCase,
        expectedMonthlyRequests: body.expectedMonthlyRequests,
      }
      const row = await db.tx({ orgId: current.sandbox_org_id }, async (tx) => {
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
        await audit.append(
          tx,
          { orgId: row.sandbox_org_id, actor: { userId: caller.userId } },
          'partner.application_submitted',
          { type: 'partner', id: row.id },
          { partnerId: row.id, ...application },
        )
        return row
      })
      return presentPartner(row)
    },

    agreement() {
      return { version: AGREEMENT_VERSION, text: AGREEMENT_TEXT, sha256: AGREEMENT_SHA256 }
    },

    async signAgreement(caller, body, address) {
      const current = await callerPartner(caller, true)
      if (body.version !== AGREEMENT_VERSION)
        throw new AppError('parameter_invalid', `The agreement in force is version ${AGREEMENT_VERSION}`, {
          param: 'version',
        })
      const now = clock.now()
      const evidence = {
        version: AGREEMENT_VERSION,
        signerName: body.signerName.trim(),
        userId: caller.userId,
        signedAt: now.toISOString(),
        address,
        textSha256: AGREEMENT_SHA256,
      }
      const row = await db.tx({ orgId: current.sandbox_org_id }, async (tx) => {
        const row = await tx
          .updateTable('partners')
          .set({ agreement: JSON.stringify(evidence), agreement_at: now, updated_at: now })
          .where('id', '=', current.id)
          .where('agreement_at', 'is', null)
          .returningAll()
          .executeTakeFirst()
        if (!row) throw new AppError('conflict', 'The agreement has been signed already')
        // In the org's hash chain (and so in its seals): the evidence of who signed which text.
        await audit.append(
          tx,
          { orgId: row.sandbox_org_id, actor: { userId: caller.userId } },
          'partner.agreement_signed',
          { type: 'partner', id: row.id },
          { partnerId: row.id, ...evidence },
        )
        return row
      })
      return presentPartner(row)
    },

    async requestReview(caller) {
      const current = await callerPartner(caller, true)
      if (current.status === 'in_review')
        throw new AppError('conflict', 'A review request is open already; wait for the operator’s decision')
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
      const now = clock.now()
      const review = {
        id: ids.next('reviewRequest'),
        partner_id: current.id,
        status: 'open' as const,
        requested_at: now,
        requested_by: caller.userId,
        decided_at: null,
        decided_by: null,
        reason: null,
      }
      try {
        await db.tx({ orgId: current.sandbox_org_id }, async (tx) => {
          // Only the request that finds the partner still where it was moves it (the other sees 0 rows).
          const row = await moveStatus(tx, current.id, ['sandbox', 'changes_requested'], 'in_review', {}, now)
          if (!row) throw new AppError('conflict', 'A review request is open already; wait for the operator’s decision')
          // The database keeps one open request per partner whatever the code does.
          await tx.insertInto('partner_review_requests').values(review).execute()
          await record(tx, row, caller.userId, 'partner.review_requested', { reviewRequestId: review.id })
        })
      } catch (error) {
        const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown }
        if (code === '23505' && constraint === 'partner_review_requests_open')
          throw new AppError('conflict', 'A review request is open already; wait for the operator’s decision')
        throw error
      }
      return presentReview(review)
    },

    isOperator: (userId) => isOperator(db, userId),

    async addOperator(email) {
      const user = await db.global
        .selectFrom('users')
        .select('id')
        .where('email', '=', normaliseEmail(email))
        .where('kind', '=', 'person')
        .executeTakeFirst()
      // There is no set-password flow yet: an operator signs up first, then is promoted.
      if (!user)
        throw new AppError(
          'resource_missing',
          `No user with the email ${email}: they sign up first (the app, or POST /api/auth/signup), then run this again`,
        )
      const inserted = await db.global
        .insertInto('operators')
        .values({ user_id: user.id, added_at: clock.now() })
        .onConflict((conflict) => conflict.column('user_id').doNothing())
        .returning('user_id')
        .executeTakeFirst()
      return { userId: user.id, added: inserted !== undefined }
    },

    async list(query) {
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
      return toPage(rows, query.limit, (row) => [row.created_at.toISOString(), row.id], presentPartner, filters)
    },

    async show(id) {
      const row = await partnerById(db.global, id)
      if (!row) throw notFound('partner')
      return operatorView(row)
    },

    async approve(operator, id, body) {
      const current = await partnerById(db.global, id)
      if (!current) throw notFound('partner')
      const given = body.rateLimit !== undefined || body.burst !== undefined
      let limits: { perMinute: number; burst: number } | null = null
      if (current.tier === 'platform_integrator') {
        if (body.rateLimit === undefined)
          throw new AppError('parameter_missing', 'A platform integrator is approved with its rateLimit and burst', {
            param: 'rateLimit',
          })
        if (body.burst === undefined)
          throw new AppError('parameter_missing', 'A platform integrator is approved with its rateLimit and burst', {
            param: 'burst',
          })
        limits = { perMinute: body.rateLimit, burst: body.burst }
      } else if (given) {
        throw new AppError('parameter_invalid', 'Only platform integrators have limits set at approval', {
          param: body.rateLimit !== undefined ? 'rateLimit' : 'burst',
        })
      }
      return decide(operator, id, 'approve', null, limits)
    },
    requestChanges: (operator, id, reason) => decide(operator, id, 'request-changes', reason),
    reject: (operator, id, reason) => decide(operator, id, 'reject', reason),
    suspend: (operator, id, reason) => decide(operator, id, 'suspend', reason),
    resume: (operator, id) => decide(operator, id, 'resume', null),

    async productionAccess(orgId) {
      const org = await db.read(orgId, (reader) =>
        reader.selectFrom('orgs').select('partner_id').where('org_id', '=', orgId).executeTakeFirst(),
      )
      if (!org?.partner_id) return false
      const partner = await partnerById(db.global, org.partner_id)
      if (!partner || partner.status !== 'live') return false
      return { defaultLimits: partner.tier === 'platform_integrator' ? productionLimits(partner) : null }
    },

    async markFeedRead(clientId) {
      if (feedSettled.has(clientId)) return
      const now = clock.now()
      await db.global
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

function presentReview(row: {
  id: string
  partner_id: string
  status: ReviewRequest['status']
  requested_at: Date
  requested_by: string
  decided_at: Date | null
  decided_by: string | null
  reason: string | null
}): ReviewRequest {
  return {
    id: row.id,
    partnerId: row.partner_id,
    status: row.status,
    requestedAt: row.requested_at.toISOString(),
    requestedBy: row.requested_by,
    decidedAt: row.decided_at?.toISOString() ?? null,
    decidedBy: row.decided_by,
    reason: row.reason,
  }
}
