import { sql } from 'kysely'
import type { Database, Tx } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import type { CredentialCache } from '../../platform/credential-cache.js'
import { AppError, forbidden, notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import { decodeCursor, olderThan, type Page, toPage } from '../../platform/pagination.js'
import { grantableRoles, type Role } from '../../platform/permissions.js'
import type { AuditLog } from '../audit/index.js'
import type { UserContext } from './orgs.provision.js'
import type { Member, MemberQuery } from './orgs.schemas.js'

/** An org's members, its invitations, and which of a user's orgs their session acts in. */
export interface OrgMembers {
  switchActive(user: UserContext, orgId: string): Promise<void>
  listMembers(ctx: RequestContext, query: MemberQuery): Promise<Page<Member>>
  /** A member's new role (`member.role_changed`); an org keeps at least one owner. */
  changeRole(ctx: RequestContext, userId: string, role: Role): Promise<Member>
  /** Removes a member (`member.removed`): their sessions leave the org; never the last owner. */
  removeMember(ctx: RequestContext, userId: string): Promise<void>
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
    changeRole: (ctx, userId, role) => changeRole(deps, ctx, userId, role),
    removeMember: (ctx, userId) => removeMember(deps, ctx, userId),
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

/** The member, locked, when the caller may manage their role (admins manage all but owners). */
async function manageable(tx: Tx, ctx: RequestContext, userId: string) {
  const row = await tx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'm.role', 'm.created_at', 'u.name', 'u.email'])
    .where('m.org_id', '=', ctx.orgId)
    .where('m.user_id', '=', userId)
    .forUpdate(['m'])
    .executeTakeFirst()
  if (!row) throw notFound('member')
  const role = ctx.actor.role
  if (!role || !grantableRoles(role).includes(row.role as Role))
    throw forbidden(`The ${role ?? 'current'} role cannot change a member who is ${row.role}`)
  return row
}

/** Refuses to leave the org without an owner (owners' rows locked, so two demotions cannot pass each other). */
async function keepAnOwner(tx: Tx, orgId: string, userId: string): Promise<void> {
  const owners = await tx
    .selectFrom('memberships')
    .select('user_id')
    .where('org_id', '=', orgId)
    .where('role', '=', 'owner')
    .forUpdate()
    .execute()
  if (owners.every((owner) => owner.user_id === userId))
    throw new AppError('conflict', 'An org keeps at least one owner: make someone else owner first')
}

async function changeRole(deps: OrgMembersDeps, ctx: RequestContext, userId: string, role: Role): Promise<Member> {
  const actorRole = ctx.actor.role
  if (!actorRole || !grantableRoles(actorRole).includes(role))
    throw forbidden(`The ${actorRole ?? 'current'} role cannot make a member ${role}`)
  const member = await deps.db.tx(ctx, async (tx) => {
    const row = await manageable(tx, ctx, userId)
    if (row.role === 'owner' && role !== 'owner') await keepAnOwner(tx, ctx.orgId, userId)
    if (row.role !== role) {
      await tx
        .updateTable('memberships')
        .set({ role })
        .where('org_id', '=', ctx.orgId)
        .where('user_id', '=', userId)
        .execute()
      await deps.audit.append(
        tx,
        ctx,
        'member.role_changed',
        { type: 'member', id: userId },
        { userId, from: row.role, to: role },
      )
      await deps.credentials.announce(tx, [`user:${userId}`])
    }
    return { userId, name: row.name, email: row.email, role, joinedAt: row.created_at.toISOString() }
  })
  deps.credentials.forget([`user:${userId}`])
  return member
}

async function removeMember(deps: OrgMembersDeps, ctx: RequestContext, userId: string): Promise<void> {
  await deps.db.tx(ctx, async (tx) => {
    const row = await manageable(tx, ctx, userId)
    if (row.role === 'owner') await keepAnOwner(tx, ctx.orgId, userId)
    await tx.deleteFrom('memberships').where('org_id', '=', ctx.orgId).where('user_id', '=', userId).execute()
    // Their sessions in this org have no org to act in any more.
    await tx
      .updateTable('sessions')
      .set({ active_org_id: null })
      .where('user_id', '=', userId)
      .where('active_org_id', '=', ctx.orgId)
      .execute()
    const data = { userId, role: row.role, name: row.name, email: row.email }
    await deps.audit.append(tx, ctx, 'member.removed', { type: 'member', id: userId }, data)
    await deps.credentials.announce(tx, [`user:${userId}`])
  })
  deps.credentials.forget([`user:${userId}`])
}
