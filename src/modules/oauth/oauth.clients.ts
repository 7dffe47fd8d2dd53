import type { Selectable } from 'kysely'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import type { Config } from '../../config.js'
import type { Database, Tx } from '../../database.js'
import { HOUR, type Clock } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import { hashSecret } from '../../platform/crypto.js'
import { AppError, notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import { decodeCursor, olderThan, type Page, toPage } from '../../platform/pagination.js'
import { TIERS, type RateTier } from '../../platform/rate-limit.js'
import type { Scope } from '../../platform/permissions.js'
import type { AuditLog } from '../audit/index.js'
import type { Client, ClientQuery, ClientTier, ClientWithSecret, CreateClientBody } from './oauth.schemas.js'
import type { OAuthTables } from './oauth.tables.js'
import type { CredentialCache } from '../../platform/credential-cache.js'
import { clientTag } from './oauth.tokens.js'

type ClientRow = Selectable<OAuthTables['oauth_clients']>

/** A granted production access: a platform integrator's partner has default limits for its clients. */
export interface ProductionAccess {
  defaultLimits: RateTier | null
}

/**
 * Whether an org may hold production credentials: its partner must be live (the partner
 * program supplies the check, src/modules/partners). false: not (yet).
 */
export type ProductionAccessPolicy = (orgId: string) => Promise<boolean | ProductionAccess>

/** Without the partner program, no org has passed the review. */
export const productionAccessPending: ProductionAccessPolicy = async () => false

export interface ClientsService {
  create(ctx: RequestContext, body: CreateClientBody, answer?: StoredAnswer): Promise<ClientWithSecret>
  list(ctx: RequestContext, query: ClientQuery): Promise<Page<Client>>
  get(ctx: RequestContext, id: string): Promise<Client>
  rotateSecret(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<ClientWithSecret>
  revoke(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<Client>
  /**
   * A client made inside the caller's transaction of its org (a partner's sandbox client comes
   * with its sign-up): the row, its service user and `client.created`; the secret, once.
   */
  createIn(tx: Tx, spec: ClientSpec): Promise<ClientWithSecret>
}

/** What a client is made from, once its tier and limits are settled. */
export interface ClientSpec {
  /** Its id, when the caller records it ahead (default: a new one). */
  id?: string
  orgId: string
  name: string
  scopes: readonly Scope[]
  tier: ClientTier
  limits: RateTier
  environment: 'sandbox' | 'production'
  createdBy: string
}

export function presentClient(row: ClientRow): Client {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    scopes: row.scopes as Client['scopes'],
    tier: row.tier,
    rateLimit: { perMinute: row.rate_per_minute, burst: row.rate_burst },
    environment: row.environment,
    status: row.revoked_at ? 'revoked' : 'active',
    userId: row.service_user_id,
    secretHint: row.secret_hint,
    secretRotatedAt: row.secret_rotated_at?.toISOString() ?? null,
    previousSecretExpiresAt: row.previous_secret_expires_at?.toISOString() ?? null,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    lastUsedFrom: row.last_used_from,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  }
}

interface IssuedSecret {
  secret: string
  hash: string
  hint: string
}

function issueSecret(ids: IdGenerator, environment: 'sandbox' | 'production'): IssuedSecret {
  const prefix = environment === 'sandbox' ? 'cs_test_' : 'cs_live_'
  const secret = ids.secret(prefix)
  return { secret, hash: hashSecret(secret), hint: `${prefix}…${secret.slice(-4)}` }
}

/** The rate tier a new client gets: fixed by the org's environment, custom only for platform integrators. */
export function resolveTier(
  environment: 'sandbox' | 'production',
  body: CreateClientBody,
  /** A platform integrator's limits set at its approval: the default tier and limits of its production clients. */
  partnerLimits: RateTier | null = null,
): { tier: ClientTier; limits: RateTier } {
  const tier =
    body.tier ??
    (environment === 'sandbox'
      ? 'api_partner_sandbox'
      : partnerLimits
        ? 'platform_integrator'
        : 'api_partner_production')
  if (environment === 'sandbox' && tier !== 'api_partner_sandbox') {
    throw new AppError('parameter_invalid', 'Clients of a sandbox org have the api_partner_sandbox tier', {
      param: 'tier',
    })
  }
  if (environment === 'production' && tier === 'api_partner_sandbox') {
    throw new AppError(
      'parameter_invalid',
      'Clients of a production org have the api_partner_production or platform_integrator tier',
      { param: 'tier' },
    )
  }
  if (tier === 'platform_integrator') {
    if (!body.rateLimit && partnerLimits) return { tier, limits: partnerLimits }
    if (!body.rateLimit)
      throw new AppError('parameter_missing', 'platform_integrator clients need rateLimit { perMinute, burst }', {
        param: 'rateLimit',
      })
    return { tier, limits: body.rateLimit }
  }
  if (body.rateLimit)
    throw new AppError('parameter_invalid', 'Only platform_integrator clients have custom rate limits', {
      param: 'rateLimit',
    })
  return { tier, limits: tier === 'api_partner_sandbox' ? TIERS.sandbox : TIERS.production }
}

/** What the service is built from; `productionAccess` defaults to no org having passed the review. */
export interface ClientsDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: AuditLog
  config: Config
  credentials: CredentialCache
  productionAccess?: ProductionAccessPolicy
}

export function createClientsService(deps: ClientsDeps): ClientsService {
  return {
    create: (ctx, body, answer) => createClient(deps, ctx, body, answer),
    async createIn(tx, spec) {
      const issued = issueSecret(deps.ids, spec.environment)
      return { ...(await insertClient(deps, tx, spec, issued)), secret: issued.secret }
    },
    list: (ctx, query) => listClients(deps.db, ctx, query),
    get: (ctx, id) => getClient(deps.db, ctx, id),
    rotateSecret: (ctx, id, answer) => rotateSecret(deps, ctx, id, answer),
    revoke: (ctx, id, answer) => revokeClient(deps, ctx, id, answer),
  }
}

async function lockClient(tx: Tx, ctx: RequestContext, id: string): Promise<ClientRow> {
  const row = await tx
    .selectFrom('oauth_clients')
    .selectAll()
    .where('org_id', '=', ctx.orgId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
  if (!row) throw notFound('client')
  if (row.revoked_at) throw new AppError('invalid_state', 'This client has been revoked; create a new one')
  return row
}

/** The client's row, its service user and its `client.created` event, in the caller's transaction. */
async function insertClient(
  { clock, ids, audit }: ClientsDeps,
  tx: Tx,
  spec: ClientSpec,
  issued: IssuedSecret,
): Promise<Client> {
  const { hash, hint } = issued
  const now = clock.now()
  const row: ClientRow = {
    org_id: spec.orgId,
    id: spec.id ?? ids.next('client'),
    name: spec.name,
    service_user_id: ids.next('user'),
    scopes: [...spec.scopes],
    tier: spec.tier,
    rate_per_minute: spec.limits.perMinute,
    rate_burst: spec.limits.burst,
    environment: spec.environment,
    secret_hash: hash,
    secret_hint: hint,
    previous_secret_hash: null,
    previous_secret_expires_at: null,
    secret_rotated_at: null,
    created_at: now,
    created_by: spec.createdBy,
    revoked_at: null,
    revoked_by: null,
    last_used_at: null,
    last_used_from: null,
  }
  await tx
    .insertInto('users')
    .values({
      id: row.service_user_id,
      kind: 'service',
      email: null,
      name: `${spec.name} (API client)`,
      password_hash: null,
      home_org_id: spec.orgId,
      created_at: now,
    })
    .execute()
  await tx.insertInto('oauth_clients').values(row).execute()
  const created = presentClient(row)
  await audit.append(
    tx,
    { orgId: spec.orgId, actor: { userId: spec.createdBy } },
    'client.created',
    { type: 'client', id: row.id },
    created,
  )
  return created
}

async function createClient(
  deps: ClientsDeps,
  ctx: RequestContext,
  body: CreateClientBody,
  answer?: StoredAnswer,
): Promise<ClientWithSecret> {
  const { db, ids } = deps
  const productionAccess = deps.productionAccess ?? productionAccessPending
  const org = await db.read(ctx.orgId, (reader) =>
    reader.selectFrom('orgs').select('environment').where('org_id', '=', ctx.orgId).executeTakeFirstOrThrow(),
  )
  const access = org.environment === 'production' ? await productionAccess(ctx.orgId) : true
  if (access === false) {
    throw new AppError(
      'production_access_pending',
      'Production credentials are issued once your partner onboarding review has passed. Until then, integrate ' +
        'against a sandbox org: create one with POST /api/orgs {"name": "...", "environment": "sandbox"} ' +
        '(it becomes your active org) and create the client there.',
    )
  }
  const { tier, limits } = resolveTier(org.environment, body, typeof access === 'object' ? access.defaultLimits : null)
  const spec: ClientSpec = {
    orgId: ctx.orgId,
    name: body.name.trim(),
    scopes: body.scopes,
    tier,
    limits,
    environment: org.environment,
    createdBy: ctx.actor.userId,
  }
  const issued = issueSecret(ids, org.environment)
  // The transaction's result is what an idempotent replay shows: never the secret.
  const client = await db.tx(ctx, (tx) => insertClient(deps, tx, spec, issued), { commitWith: answer })
  return { ...client, secret: issued.secret }
}

async function listClients(db: Database, ctx: RequestContext, query: ClientQuery): Promise<Page<Client>> {
  const after = decodeCursor(query.cursor, {}, 2)
  const rows = await db.read(ctx.orgId, (reader) => {
    let select = reader.selectFrom('oauth_clients').selectAll().where('org_id', '=', ctx.orgId)
    if (after) select = select.where(olderThan(after, 'created_at', 'id'))
    return select
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit + 1)
      .execute()
  })
  return toPage(rows, query.limit, (row) => [row.created_at.toISOString(), row.id], presentClient, {})
}

async function getClient(db: Database, ctx: RequestContext, id: string): Promise<Client> {
  const row = await db.read(ctx.orgId, (reader) =>
    reader
      .selectFrom('oauth_clients')
      .selectAll()
      .where('org_id', '=', ctx.orgId)
      .where('id', '=', id)
      .executeTakeFirst(),
  )
  if (!row) throw notFound('client')
  return presentClient(row)
}

async function rotateSecret(
  { db, clock, ids, audit, config }: ClientsDeps,
  ctx: RequestContext,
  id: string,
  answer?: StoredAnswer,
): Promise<ClientWithSecret> {
  let secret = ''
  const client = await db.tx(
    ctx,
    async (tx) => {
      const row = await lockClient(tx, ctx, id)
      const issued = issueSecret(ids, row.environment)
      secret = issued.secret
      const { hash, hint } = issued
      const now = clock.now()
      // Only the secret in use until now gets a grace period; an older one ends here.
      const updated = await tx
        .updateTable('oauth_clients')
        .set({
          secret_hash: hash,
          secret_hint: hint,
          previous_secret_hash: row.secret_hash,
          previous_secret_expires_at: new Date(now.getTime() + config.clientSecretGraceHours * HOUR),
          secret_rotated_at: now,
        })
        .where('org_id', '=', ctx.orgId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      const rotated = presentClient(updated)
      await audit.append(tx, ctx, 'client.secret_rotated', { type: 'client', id }, rotated)
      return rotated
    },
    { commitWith: answer },
  )
  return { ...client, secret }
}

async function revokeClient(
  { db, clock, audit, credentials }: ClientsDeps,
  ctx: RequestContext,
  id: string,
  answer?: StoredAnswer,
): Promise<Client> {
  const tags = [clientTag(id)]
  const revoked = await db.tx(
    ctx,
    async (tx) => {
      await lockClient(tx, ctx, id)
      const updated = await tx
        .updateTable('oauth_clients')
        .set({ revoked_at: clock.now(), revoked_by: ctx.actor.userId })
        .where('org_id', '=', ctx.orgId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      const client = presentClient(updated)
      await audit.append(tx, ctx, 'client.revoked', { type: 'client', id }, client)
      // Every node drops the client's access tokens when this commits; this one at once, below.
      await credentials.announce(tx, tags)
      return client
    },
    { commitWith: answer },
  )
  credentials.forget(tags)
  return revoked
}
