import { sql } from 'kysely'
import type { Database, Tx } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { CredentialCache } from '../../platform/credential-cache.js'
import { hashSecret } from '../../platform/crypto.js'
import { AppError, forbidden, notFound } from '../../platform/errors.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import type { Role } from '../../platform/permissions.js'
import type { AuditLog } from '../audit/index.js'
import { normaliseEmail } from './auth.service.js'
import type { InvitationPreview } from './orgs.invitation-schemas.js'
import type { UserContext } from './orgs.provision.js'
import type { MembershipRecord } from './orgs.schemas.js'

/** What previewing and accepting an invitation reads and writes. */
export interface AcceptDeps {
  db: Database
  clock: Clock
  credentials: CredentialCache
  audit: Pick<AuditLog, 'append'>
}

/** The org an invitation token belongs to (a security-definer lookup: the token is the only key anyone has). */
async function invitationOrg(db: Database, tokenHash: string): Promise<string> {
  const found = await sql<{ org_id: string | null }>`select invitation_org(${tokenHash}) as org_id`.execute(db.global)
  const orgId = found.rows[0]?.org_id
  if (!orgId) throw notFound('invitation')
  return orgId
}

export async function previewInvitation(deps: AcceptDeps, token: string): Promise<InvitationPreview> {
  const tokenHash = hashSecret(token)
  const orgId = await invitationOrg(deps.db, tokenHash)
  const row = await deps.db.read(orgId, (reader) =>
    reader
      .selectFrom('invitations as i')
      .innerJoin('orgs as o', 'o.org_id', 'i.org_id')
      .innerJoin('users as u', 'u.id', 'i.created_by')
      .select([
        'i.email',
        'i.role',
        'i.expires_at',
        'i.accepted_at',
        'i.revoked_at',
        'o.name as org_name',
        'u.name',
        'u.email as inviter_email',
      ])
      .where('i.org_id', '=', orgId)
      .where('i.token_hash', '=', tokenHash)
      .executeTakeFirst(),
  )
  if (!row) throw notFound('invitation')
  const status =
    row.accepted_at !== null
      ? 'accepted'
      : row.revoked_at !== null
        ? 'revoked'
        : row.expires_at.getTime() <= deps.clock.now().getTime()
          ? 'expired'
          : 'pending'
  return {
    orgName: row.org_name,
    email: row.email,
    role: row.role as Role,
    inviter: { name: row.name, email: row.inviter_email },
    expiresAt: row.expires_at.toISOString(),
    status,
  }
}

export async function accept(
  deps: AcceptDeps,
  user: UserContext & { email: string | null },
  token: string,
  answer: StoredAnswer | undefined,
): Promise<MembershipRecord> {
  const { db, clock, credentials } = deps
  const tokenHash = hashSecret(token)
  const orgId = await invitationOrg(db, tokenHash)
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
  { audit }: AcceptDeps,
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
  if (invitation.revoked_at !== null)
    throw new AppError('invalid_state', 'This invitation was revoked; ask for a new one')
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
