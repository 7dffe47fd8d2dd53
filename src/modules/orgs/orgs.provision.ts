import type { Selectable } from 'kysely'
import type { Config } from '../../config.js'
import type { Database, Tx } from '../../database.js'
import type { DB } from '../../schema.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import type { Clock } from '../../platform/clock.js'
import type { CredentialCache } from '../../platform/credential-cache.js'
import { AppError, notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { AuditLog } from '../audit/index.js'
import type { CreateOrgBody, CreatedOrg, Org } from './orgs.schemas.js'

/** The caller of an org-level action before any org is in scope. */
export interface UserContext {
  userId: string
  requestId: string
  sessionTokenHash?: string
}

export interface ProvisionInput {
  name: string
  environment: 'sandbox' | 'production'
  ownerId: string
  requestId: string
  /** The partner the org belongs to. */
  partnerId?: string
}

/** Orgs coming into being: by a user, by the seed, or inside a partner's sign-up. */
export interface OrgProvisioning {
  /** Creates an org owned by the user; it becomes the session's active org, and the answer says so. */
  create(user: UserContext, body: CreateOrgBody, answer?: StoredAnswer): Promise<CreatedOrg>
  /** Creates an org with an owner, outside any request (seed). */
  provision(input: ProvisionInput): Promise<Org>
  /** Creates an org with an owner inside a transaction scoped to `orgId` (partner sign-up). */
  provisionIn(tx: Tx, input: ProvisionInput & { orgId: string }): Promise<Org>
  /** The org record (404 when it does not exist). */
  get(orgId: string): Promise<Org>
}

export interface OrgProvisioningDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: AuditLog
  config: Config
  credentials: CredentialCache
}

export function createOrgProvisioning(deps: OrgProvisioningDeps): OrgProvisioning {
  return {
    provision: (input) => provision(deps, input),
    provisionIn: (tx, input) => provisionIn(deps, tx, input),
    create: (user, body, answer) => createOrg(deps, user, body, answer),
    async get(orgId) {
      const row = await deps.db.read(orgId, (reader) =>
        reader.selectFrom('orgs').selectAll().where('org_id', '=', orgId).executeTakeFirst(),
      )
      if (!row) throw notFound('org')
      return presentOrg(row)
    },
  }
}

function presentOrg(org: Selectable<DB['orgs']>): Org {
  return {
    id: org.org_id,
    name: org.name,
    environment: org.environment,
    region: org.region,
    createdAt: org.created_at.toISOString(),
    createdBy: org.created_by,
  }
}

/** The org, its system user, the owner's membership and `org.created`, inside the caller's transaction (scoped to `orgId`). */
async function provisionIn(
  { clock, ids, audit, config }: OrgProvisioningDeps,
  tx: Tx,
  input: ProvisionInput & { orgId: string },
): Promise<Org> {
  const { orgId } = input
  const systemUserId = ids.next('user')
  const now = clock.now()
  await tx
    .insertInto('users')
    .values({
      id: systemUserId,
      kind: 'system',
      email: null,
      name: `${input.name} (system)`,
      password_hash: null,
      home_org_id: orgId,
      created_at: now,
    })
    .execute()
  const org = await tx
    .insertInto('orgs')
    .values({
      org_id: orgId,
      name: input.name,
      environment: input.environment,
      region: config.region,
      system_user_id: systemUserId,
      created_at: now,
      created_by: input.ownerId,
      partner_id: input.partnerId ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await tx
    .insertInto('memberships')
    .values({ org_id: orgId, user_id: input.ownerId, role: 'owner', created_at: now })
    .execute()
  await audit.startChain(tx, orgId)
  const record = presentOrg(org)
  await audit.append(tx, { orgId, actor: { userId: input.ownerId } }, 'org.created', { type: 'org', id: orgId }, record)
  return record
}

async function provision(
  deps: OrgProvisioningDeps,
  input: ProvisionInput & { sessionTokenHash?: string },
  answer?: StoredAnswer,
): Promise<Org> {
  const { db, ids, credentials } = deps
  const orgId = ids.next('org')
  // The owner's membership (and the session's active org) change what their sessions resolve to.
  const changed = [`user:${input.ownerId}`, ...(input.sessionTokenHash ? [`session:${input.sessionTokenHash}`] : [])]
  const org = await db.tx(
    { orgId },
    async (tx) => {
      const record = await provisionIn(deps, tx, { ...input, orgId })
      if (input.sessionTokenHash) {
        await tx
          .updateTable('sessions')
          .set({ active_org_id: orgId })
          .where('token_hash', '=', input.sessionTokenHash)
          .execute()
      }
      await credentials.announce(tx, changed)
      return record
    },
    { commitWith: answer },
  )
  credentials.forget(changed)
  return org
}

async function createOrg(
  deps: OrgProvisioningDeps,
  user: UserContext,
  body: CreateOrgBody,
  answer?: StoredAnswer,
): Promise<CreatedOrg> {
  const { db, config } = deps
  const region = body.region ?? config.region
  if (region !== config.region) {
    const baseUrl = config.regionUrls[region]
    throw new AppError(
      'wrong_region',
      `This deployment serves ${config.region}; create ${region} orgs at ${baseUrl ?? `the ${region} deployment`}`,
      {
        param: 'region',
        ...(baseUrl ? { extra: { baseUrl } } : {}),
      },
    )
  }
  // An org created by a partner's user belongs to that partner (its production credentials follow the partner's review).
  const partner = await db.global
    .selectFrom('partners')
    .select('id')
    .where('user_id', '=', user.userId)
    .executeTakeFirst()
  const org = await provision(
    deps,
    {
      name: body.name.trim(),
      ...(partner ? { partnerId: partner.id } : {}),
      environment: body.environment ?? 'production',
      ownerId: user.userId,
      requestId: user.requestId,
      ...(user.sessionTokenHash ? { sessionTokenHash: user.sessionTokenHash } : {}),
    },
    answer,
  )
  return { ...org, activeOrgId: user.sessionTokenHash ? org.id : null }
}
