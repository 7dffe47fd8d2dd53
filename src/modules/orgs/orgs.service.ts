import { sql } from 'kysely'
import type { Config } from '../../config.js'
import type { Database, Tx } from '../../database.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import { DAY, type Clock } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import { hashSecret } from '../../platform/crypto.js'
import { AppError, forbidden, notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import { decodeCursor, olderThan, type Page, toPage } from '../../platform/pagination.js'
import { grantableRoles, type Role } from '../../platform/permissions.js'
import type { AuditLog } from '../audit/index.js'
import { normaliseEmail } from './auth.service.js'
import type {
  CreateOrgBody,
  Invitation,
  InviteBody,
  Member,
  MemberQuery,
  MembershipRecord,
  CreatedOrg,
  Org,
} from './orgs.schemas.js'
import type { CredentialCache } from '../../platform/credential-cache.js'

export const INVITATION_TTL_MS = 7 * DAY

/** The caller of an org-level action before any org is in scope. */
export interface UserContext {
  userId: string
  requestId: string
  sessionTokenHash?: string
}

export interface OrgsService {
  /** Creates an org owned by the user; it becomes the session's active org, and the answer says so. */
  create(user: UserContext, body: CreateOrgBody, answer?: StoredAnswer): Promise<CreatedOrg>
  switchActive(user: UserContext, orgId: string): Promise<void>
  listMembers(ctx: RequestContext, query: MemberQuery): Promise<Page<Member>>
  invite(ctx: RequestContext, body: InviteBody, answer?: StoredAnswer): Promise<Invitation>
  accept(user: UserContext & { email: string | null }, token: string, answer?: StoredAnswer): Promise<MembershipRecord>
  /** Creates an org with an owner, outside any request (seed). */
  provision(input: ProvisionInput): Promise<Org>
  /** Creates an org with an owner inside a transaction scoped to `orgId` (partner sign-up). */
  provisionIn(tx: Tx, input: ProvisionInput & { orgId: string }): Promise<Org>
}

export interface ProvisionInput {
  name: string
  environment: 'sandbox' | 'production'
  ownerId: string
  requestId: string
  /** The partner the org belongs to. */
  partnerId?: string
}

export function createOrgsService(deps: {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: AuditLog
  config: Config
  credentials: CredentialCache
}): OrgsService {
  const { db, clock, ids, audit, config, credentials } = deps

  /** The org, its system user, the owner's membership and `org.created`, inside the caller's transaction (scoped to `orgId`). */
  async function provisionIn(tx: Tx, input: ProvisionInput & { orgId: string }): Promise<Org> {
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
    const record: Org = {
      id: org.org_id,
      name: org.name,
      environment: org.environment,
      region: org.region,
      createdAt: org.created_at.toISOString(),
      createdBy: org.created_by,
    }
    await audit.append(
      tx,
      { orgId, actor: { userId: input.ownerId } },
      'org.created',
      { type: 'org', id: orgId },
      record,
    )
    return record
  }

  async function provision(input: ProvisionInput & { sessionTokenHash?: string }, answer?: StoredAnswer): Promise<Org> {
    const orgId = ids.next('org')
    // The owner's membership (and the session's active org) change what their sessions resolve to.
    const changed = [`user:${input.ownerId}`, ...(input.sessionTokenHash ? [`session:${input.sessionTokenHash}`] : [])]
    const org = await db.tx(
      { orgId },
      async (tx) => {
        const record = await provisionIn(tx, { ...input, orgId })
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

  return {
    provision,
    provisionIn,

    async create(user, body, answer) {
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
    },

    async switchActive(user, orgId) {
      const rows = await sql<{
        org_id: string
      }>`select org_id from user_memberships(${user.userId}) where org_id = ${orgId}`.execute(db.global)
      if (rows.rows.length === 0) throw notFound('org')
      if (!user.sessionTokenHash) throw forbidden('Only a session has an active org')
      await db.global
        .updateTable('sessions')
        .set({ active_org_id: orgId })
        .where('token_hash', '=', user.sessionTokenHash)
        .execute()
      const changed = [`session:${user.sessionTokenHash}`]
      await credentials.announce(db.global, changed)
      credentials.forget(changed)
    },

    async listMembers(ctx, query) {
      const after = decodeCursor(query.cursor, {}, 2)
      const rows = await db.read(ctx.orgId, (reader) => {
        let select = reader
          .selectFrom('memberships as m')
          .innerJoin('users as u', 'u.id', 'm.user_id')
          .select(['m.user_id', 'm.role', 'm.created_at', 'u.name', 'u.email'])
          .where('m.org_id', '=', ctx.orgId)
        if (after) select = select.where(olderThan(after, 'm.created_at', 'm.user_id'))
        return select
          .orderBy('m.created_at', 'desc')
          .orderBy('m.user_id', 'desc')
          .limit(query.limit + 1)
          .execute()
      })
      return toPage(
        rows,
        query.limit,
        (row) => [row.created_at.toISOString(), row.user_id],
        (row) => ({
          userId: row.user_id,
          name: row.name,
          email: row.email,
          role: row.role as Role,
          joinedAt: row.created_at.toISOString(),
        }),
        {},
      )
    },

    async invite(ctx, body, answer) {
      const role = ctx.actor.role
      if (!role || !grantableRoles(role).includes(body.role))
        throw forbidden(`The ${role ?? 'current'} role cannot invite a ${body.role}`)
      const email = normaliseEmail(body.email)
      const token = ids.secret('invt_')
      const now = clock.now()
      const invitation = {
        org_id: ctx.orgId,
        id: ids.next('invitation'),
        email,
        role: body.role,
        token_hash: hashSecret(token),
        expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
        created_at: now,
        created_by: ctx.actor.userId,
      }
      const record: Invitation = {
        id: invitation.id,
        email,
        role: body.role,
        expiresAt: invitation.expires_at.toISOString(),
        token,
      }
      // The transaction's result is what an idempotent replay shows: never the token.
      const stored = await db.tx(
        ctx,
        async (tx) => {
          const member = await tx
            .selectFrom('memberships as m')
            .innerJoin('users as u', 'u.id', 'm.user_id')
            .select('m.user_id')
            .where('m.org_id', '=', ctx.orgId)
            .where('u.email', '=', email)
            .executeTakeFirst()
          if (member) throw new AppError('conflict', `${email} is already a member`, { param: 'email' })
          await tx.insertInto('invitations').values(invitation).execute()
          const { token: _secret, ...visible } = record
          await audit.append(tx, ctx, 'member.invited', { type: 'invitation', id: invitation.id }, visible)
          return visible
        },
        { commitWith: answer },
      )
      return { ...stored, token }
    },

    async accept(user, token, answer) {
      const tokenHash = hashSecret(token)
      const found = await sql<{ org_id: string | null }>`select invitation_org(${tokenHash}) as org_id`.execute(
        db.global,
      )
      const orgId = found.rows[0]?.org_id
      if (!orgId) throw notFound('invitation')
      const now = clock.now()
      const changed = [`user:${user.userId}`, ...(user.sessionTokenHash ? [`session:${user.sessionTokenHash}`] : [])]
      const joined = await db.tx(
        { orgId },
        async (tx) => {
          const invitation = await tx
            .selectFrom('invitations')
            .selectAll()
            .where('org_id', '=', orgId)
            .where('token_hash', '=', tokenHash)
            .forUpdate()
            .executeTakeFirst()
          if (!invitation) throw notFound('invitation')
          if (invitation.accepted_at !== null)
            throw new AppError('conflict', 'This invitation has already been accepted')
          if (invitation.expires_at.getTime() <= now.getTime())
            throw new AppError('invalid_state', 'This invitation has expired; ask for a new one')
          if (user.email === null || normaliseEmail(user.email) !== invitation.email) {
            throw forbidden('This invitation was sent to another email address')
          }
          const existing = await tx
            .selectFrom('memberships')
            .select('role')
            .where('org_id', '=', orgId)
            .where('user_id', '=', user.userId)
            .executeTakeFirst()
          if (existing) throw new AppError('conflict', 'You are already a member of this org')
          await tx
            .insertInto('memberships')
            .values({ org_id: orgId, user_id: user.userId, role: invitation.role, created_at: now })
            .execute()
          await tx
            .updateTable('invitations')
            .set({ accepted_at: now, accepted_by: user.userId })
            .where('org_id', '=', orgId)
            .where('id', '=', invitation.id)
            .execute()
          const record: MembershipRecord = {
            orgId,
            userId: user.userId,
            role: invitation.role as Role,
            joinedAt: now.toISOString(),
          }
          await audit.append(
            tx,
            { orgId, actor: { userId: user.userId } },
            'member.joined',
            { type: 'member', id: user.userId },
            {
              ...record,
              invitationId: invitation.id,
            },
          )
          if (user.sessionTokenHash) {
            await tx
              .updateTable('sessions')
              .set({ active_org_id: orgId })
              .where('token_hash', '=', user.sessionTokenHash)
              .execute()
          }
          await credentials.announce(tx, changed)
          return record
        },
        { commitWith: answer },
      )
      credentials.forget(changed)
      return joined
    },
  }
}
