import type { Config, Region } from '../../config.js'
import type { Database, Tx } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import type { CredentialCache } from '../../platform/credential-cache.js'
import { AppError } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import { SCOPES, type Scope } from '../../platform/permissions.js'
import { TIERS } from '../../platform/rate-limit.js'
import { wrongRegion } from '../../platform/region.js'
import type { AuditLog } from '../audit/index.js'
import type { ClientsService } from '../oauth/index.js'
import { presentUser, type AuthService, type OrgsService } from '../orgs/index.js'
import { presentPartner, type PartnerRow } from './partners.onboarding.js'
import { partnerById } from './partners.repo.js'
import type {
  PartnerApplyBody,
  PartnerApplyResponse,
  PartnerSignupBody,
  PartnerSignupResponse,
} from './partners.schemas.js'

/** What the sandbox client may do: read everything, and register webhooks. */
export const SANDBOX_SCOPES: Scope[] = [...SCOPES.filter((scope) => scope.endsWith(':read')), 'webhooks:write']

export interface PartnerSignup {
  /**
   * `answer`: the request's Idempotency-Key, stored with the sign-up's transaction as the
   * answer without the session token and the client secret (neither is ever stored).
   */
  signup(body: PartnerSignupBody, requestId: string, answer?: StoredAnswer): Promise<PartnerSignupResponse>
  /**
   * An existing account becomes a partner: the partner, its sandbox org (made the session's
   * active org) and client, as sign-up makes them, without a new user; 409 for a partner already.
   */
  apply(applicant: Applicant, body: PartnerApplyBody, answer?: StoredAnswer): Promise<PartnerApplyResponse>
}

/** The session applying: its user, the request, and the session to make the sandbox org active in. */
export interface Applicant {
  userId: string
  requestId: string
  sessionTokenHash: string | null
}

export interface PartnerSignupDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  config: Config
  audit: Pick<AuditLog, 'append'>
  auth: Pick<AuthService, 'createPersonIn' | 'startSession'>
  orgs: Pick<OrgsService, 'provisionIn'>
  clients: Pick<ClientsService, 'createIn'>
  credentials: CredentialCache
  /** Writes a new sandbox org's demo records, through the record services (each with its org event). */
  seedSandbox(ctx: RequestContext): Promise<void>
}

/** Sign-up: the user, the partner, its sandbox org with demo data and a sandbox client, at once. */
export function createPartnerSignup(deps: PartnerSignupDeps): PartnerSignup {
  return {
    signup: (body, requestId, answer) => signup(deps, body, requestId, answer),
    apply: (applicant, body, answer) => apply(deps, applicant, body, answer),
  }
}

/** The region asked for is this deployment's, or 421 wrong_region naming where to go. */
function checkRegion(config: Config, asked: Region | undefined): Region {
  const region = asked ?? config.region
  if (region !== config.region) {
    const error = wrongRegion(config, region, `A partner of the ${region} region`)
    throw new AppError('wrong_region', error.message, { param: 'region', extra: error.options.extra ?? {} })
  }
  return region
}

async function signup(
  deps: PartnerSignupDeps,
  body: PartnerSignupBody,
  requestId: string,
  answer: StoredAnswer | undefined,
): Promise<PartnerSignupResponse> {
  const { db, ids, config, auth, credentials } = deps
  const region = checkRegion(config, body.region)
  const orgId = ids.next('org')
  const partnerId = ids.next('partner')
  let secret = ''
  // One transaction: the user, the partner, its sandbox org and the sandbox client, with their org events.
  const stored = await db.tx(
    { orgId },
    async (tx) => {
      const user = await auth.createPersonIn(tx, body)
      const made = await writePartner(deps, tx, { body, region, orgId, partnerId, userId: user.id, requestId })
      secret = made.secret
      await credentials.announce(tx, [`user:${user.id}`])
      // What an idempotent replay answers: no session token, no secret.
      return { user, activeOrgId: orgId, partner: presentPartner(made.row), sandboxClient: made.client }
    },
    { commitWith: answer },
  )
  credentials.forget([`user:${stored.user.id}`])
  // The demo records, through the services (each with its org event), once the org exists.
  await deps.seedSandbox({ orgId, requestId, actor: { userId: stored.user.id, kind: 'person', role: 'owner' } })
  const session = await auth.startSession(stored.user.id, orgId)
  return {
    ...session,
    ...stored,
    // The demo records are there now: the partner as it stands.
    partner: presentPartner((await partnerById(db.global, partnerId))!),
    sandboxClient: { ...stored.sandboxClient, secret },
  }
}

async function apply(
  deps: PartnerSignupDeps,
  applicant: Applicant,
  body: PartnerApplyBody,
  answer: StoredAnswer | undefined,
): Promise<PartnerApplyResponse> {
  const { db, ids, config, credentials } = deps
  const region = checkRegion(config, body.region)
  const { userId, requestId, sessionTokenHash } = applicant
  const orgId = ids.next('org')
  const partnerId = ids.next('partner')
  const changed = [`user:${userId}`, ...(sessionTokenHash ? [`session:${sessionTokenHash}`] : [])]
  let secret = ''
  const stored = await db.tx(
    { orgId },
    async (tx) => {
      // The user's row locked: two applications at once are one partner and a 409.
      const user = await tx
        .selectFrom('users')
        .selectAll()
        .where('id', '=', userId)
        .forUpdate()
        .executeTakeFirstOrThrow()
      const existing = await tx.selectFrom('partners').select('id').where('user_id', '=', userId).executeTakeFirst()
      if (existing) throw new AppError('conflict', 'This account is a partner already: open the portal')
      const made = await writePartner(deps, tx, { body, region, orgId, partnerId, userId, requestId })
      secret = made.secret
      if (sessionTokenHash)
        await tx
          .updateTable('sessions')
          .set({ active_org_id: orgId })
          .where('token_hash', '=', sessionTokenHash)
          .execute()
      await credentials.announce(tx, changed)
      return {
        user: presentUser(user),
        activeOrgId: orgId,
        partner: presentPartner(made.row),
        sandboxClient: made.client,
      }
    },
    { commitWith: answer },
  )
  credentials.forget(changed)
  await deps.seedSandbox({ orgId, requestId, actor: { userId, kind: 'person', role: 'owner' } })
  return {
    ...stored,
    partner: presentPartner((await partnerById(db.global, partnerId))!),
    sandboxClient: { ...stored.sandboxClient, secret },
  }
}

interface NewPartner {
  body: PartnerApplyBody
  region: string
  orgId: string
  partnerId: string
  userId: string
  requestId: string
}

/** The partner row, its sandbox org and its sandbox client, with their org events, in the sign-up's transaction. */
async function writePartner(
  deps: PartnerSignupDeps,
  tx: Tx,
  partner: NewPartner,
): Promise<{ row: PartnerRow; client: { id: string; scopes: Scope[]; tier: 'api_partner_sandbox' }; secret: string }> {
  const { body, orgId, partnerId, userId } = partner
  const company = body.company.trim()
  const now = deps.clock.now()
  const clientId = deps.ids.next('client')
  const row = await tx
    .insertInto('partners')
    .values({
      id: partnerId,
      user_id: userId,
      company,
      tier: body.tier,
      region: partner.region,
      status: 'sandbox',
      sandbox_org_id: orgId,
      sandbox_client_id: clientId,
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
  const sandbox = { orgId, environment: 'sandbox' as const, ownerId: userId, requestId: partner.requestId, partnerId }
  await deps.orgs.provisionIn(tx, { ...sandbox, name: `${company} Sandbox` })
  const client = await deps.clients.createIn(tx, {
    id: clientId,
    orgId,
    name: `${company} sandbox`,
    scopes: SANDBOX_SCOPES,
    tier: 'api_partner_sandbox',
    limits: TIERS.sandbox,
    environment: 'sandbox',
    createdBy: userId,
  })
  const event = { partnerId, company, tier: body.tier, region: partner.region, status: 'sandbox' }
  await deps.audit.append(
    tx,
    { orgId, actor: { userId } },
    'partner.created',
    { type: 'partner', id: partnerId },
    event,
  )
  return {
    row,
    client: { id: client.id, scopes: [...client.scopes], tier: 'api_partner_sandbox' },
    secret: client.secret,
  }
}
