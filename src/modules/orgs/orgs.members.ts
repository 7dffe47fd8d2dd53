import { sql } from 'kysely'
import type { Database, Tx } from '../../database.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import { DAY, type Clock } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import type { CredentialCache } from '../../platform/credential-cache.js'
import { hashSecret } from '../../platform/crypto.js'
import { AppError, forbidden, notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import { decodeCursor, olderThan, type Page, toPage } from '../../platform/pagination.js'
import { grantableRoles, type Role } from '../../platform/permissions.js'
import type { AuditLog } from '../audit/index.js'
import { normaliseEmail } from './auth.service.js'
import type { UserContext } from './orgs.provision.js'
import type { Invitation, InviteBody, Member, MemberQuery, MembershipRecord } from './orgs.schemas.js'

export const INVITATION_TTL_MS = 7 * DAY

/** An org's members, its invitations, and which of a user's orgs their session acts in. */
export interface OrgMembers {
  switchActive(user: UserContext, orgId: string): Promise<void>
  listMembers(ctx: RequestContext, query: MemberQuery): Promise<Page<Member>>
  invite(ctx: RequestContext, body: InviteBody, answer?: StoredAnswer): Promise<Invitation>
  accept(user: UserContext & { email: string | null }, token: string, answer?: StoredAnswer): Promise<MembershipRecord>
}

export interface OrgMembersDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: AuditLog
  credentials: CredentialCache
}

export function createOrgMembers(deps: OrgMembersDeps): OrgMembers {
  return {
    switchActive: (user, orgId) => switchActive(deps, user, orgId),
    listMembers: (ctx, query) => listMembers(deps.db, ctx, query),
    invite: (ctx, body, answer) => invite(deps, ctx, body, answer),
    accept: (user, token, answer) => accept(deps, user, token, answer),
  }
}

async function switchActive({ db, credentials }: OrgMembersDeps, user: UserContext, orgId: string): Promise<void> {
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
}

async function listMembers(db: Database, ctx: RequestContext, query: MemberQuery): Promise<Page<Member>> {
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
}

async function invite(
  { db, clock, ids, audit }: OrgMembersDeps,
  ctx: RequestContext,
  body: InviteBody,
  answer?: StoredAnswer,
): Promise<Invitation> {
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
}

async function accept(
  deps: OrgMembersDeps,
  user: UserContext & { email: string | null },
  token: string,
  answer?: StoredAnswer,
): Promise<MembershipRecord> {
  const { db, clock, credentials } = deps
  const tokenHash = hashSecret(token)
  const found = await sql<{ org_id: string | null }>`select invitation_org(${tokenHash}) as org_id`.execute(db.global)
  const orgId = found.rows[0]?.org_id
  if (!orgId) throw notFound('invitation')
  const now = clock.now()
  const changed = [`user:${user.userId}`, ...(user.sessionTokenHash ? [`session:${user.sessionTokenHash}`] : [])]
  const joined = await db.tx(
    { orgId },
    async (tx) => {
      const record = await join(deps, tx, { orgId, tokenHash, now }, user)
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
}

/** The invitation, locked and checked, becomes the user's membership (and `member.joined`). */
async function join(
  { audit }: OrgMembersDeps,
  tx: Tx,
  { orgId, tokenHash, now }: { orgId: string; tokenHash: string; now: Date },
  user: UserContext & { email: string | null },
): Promise<MembershipRecord> {
  const invitation = await tx
    .selectFrom('invitations')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('token_hash', '=', tokenHash)
    .forUpdate()
    .executeTakeFirst()
  if (!invitation) throw notFound('invitation')
  if (invitation.accepted_at !== null) throw new AppError('conflict', 'This invitation has already been accepted')
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
  return record
}
