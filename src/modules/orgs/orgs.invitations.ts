import type { Database, Tx } from '../../database.js'
import { DAY, type Clock } from '../../platform/clock.js'
import type { RequestContext } from '../../platform/context.js'
import type { CredentialCache } from '../../platform/credential-cache.js'
import { hashSecret, type SecretBox } from '../../platform/crypto.js'
import { AppError, forbidden, notFound } from '../../platform/errors.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import { decodeCursor, olderThan, toPage, type Keyset, type Page } from '../../platform/pagination.js'
import { grantableRoles, type Role } from '../../platform/permissions.js'
import type { AuditLog } from '../audit/index.js'
import type { EmailOutbox } from '../email/index.js'
import { normaliseEmail } from './auth.service.js'
import type { InvitationPreview, PendingInvitation, PendingInvitationQuery } from './orgs.invitation-schemas.js'
import type { UserContext } from './orgs.provision.js'
import type { Invitation, InviteBody, MembershipRecord } from './orgs.schemas.js'
import { accept, previewInvitation } from './orgs.invitation-accept.js'

export const INVITATION_TTL_MS = 7 * DAY

/** Invitations: made and sent by email (one live one per email and org), listed, revoked, sent again, previewed, accepted. */
export interface OrgInvitations {
  invite(ctx: RequestContext, body: InviteBody, answer?: StoredAnswer): Promise<Invitation>
  listInvitations(ctx: RequestContext, query: PendingInvitationQuery): Promise<Page<PendingInvitation>>
  revokeInvitation(ctx: RequestContext, id: string): Promise<PendingInvitation>
  resendInvitation(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<Invitation>
  /** What an invitation link leads to, before anyone signs in: the org, who invited, the role. */
  previewInvitation(token: string): Promise<InvitationPreview>
  accept(user: UserContext & { email: string | null }, token: string, answer?: StoredAnswer): Promise<MembershipRecord>
}

export interface OrgInvitationsDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: Pick<AuditLog, 'append'>
  credentials: CredentialCache
  outbox: EmailOutbox
  /** Keeps each invitation's token sealed, so it is sent again with the same link. */
  box: SecretBox
  config: { publicUrl: string }
}

export function createOrgInvitations(deps: OrgInvitationsDeps): OrgInvitations {
  return {
    invite: (ctx, body, answer) => invite(deps, ctx, body, answer),
    listInvitations: (ctx, query) => listInvitations(deps.db, deps.clock, ctx, query),
    revokeInvitation: (ctx, id) => revokeInvitation(deps, ctx, id),
    resendInvitation: (ctx, id, answer) => resendInvitation(deps, ctx, id, answer),
    previewInvitation: (token) => previewInvitation(deps, token),
    accept: (user, token, answer) => accept(deps, user, token, answer),
  }
}

type InvitationRow = Awaited<ReturnType<typeof openInvitation>>

/** The org's live invitation to this email, locked (one at most: a partial unique index). */
function openInvitation(tx: Tx, orgId: string, email: string) {
  return tx
    .selectFrom('invitations')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .forUpdate()
    .executeTakeFirst()
}

/** Invites, or sends the live invitation to this email again (its link renewed for 7 days, in the role asked now). */
async function invite(
  deps: OrgInvitationsDeps,
  ctx: RequestContext,
  body: InviteBody,
  answer: StoredAnswer | undefined,
): Promise<Invitation> {
  const role = ctx.actor.role
  if (!role || !grantableRoles(role).includes(body.role))
    throw forbidden(`The ${role ?? 'current'} role cannot invite a ${body.role}`)
  const email = normaliseEmail(body.email)
  let token = ''
  // The transaction's result is what an idempotent replay shows: never the token.
  const stored = await deps.db.tx(
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
      const sent = await send(deps, tx, ctx, {
        open: await openInvitation(tx, ctx.orgId, email),
        email,
        role: body.role,
      })
      token = sent.token
      return sent.invitation
    },
    { commitWith: answer },
  )
  return { ...stored, token }
}

/**
 * Makes the invitation (or renews the open one: same id, same link, 7 more days), writes its
 * email and `member.invited`, in the caller's transaction.
 */
async function send(
  deps: OrgInvitationsDeps,
  tx: Tx,
  ctx: RequestContext,
  input: { open: InvitationRow; email: string; role: Role },
): Promise<{ invitation: Omit<Invitation, 'token'>; token: string }> {
  const now = deps.clock.now()
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS)
  const { open, email, role } = input
  const token = open?.token_sealed ? deps.box.open(open.token_sealed) : deps.ids.secret('invt_')
  const id = open?.id ?? deps.ids.next('invitation')
  const sealed = { token_hash: hashSecret(token), token_sealed: deps.box.seal(token) }
  if (open)
    await tx
      .updateTable('invitations')
      .set({ ...sealed, role, expires_at: expiresAt, sent_at: now })
      .where('org_id', '=', ctx.orgId)
      .where('id', '=', id)
      .execute()
  else
    await tx
      .insertInto('invitations')
      .values({
        org_id: ctx.orgId,
        id,
        email,
        role,
        ...sealed,
        expires_at: expiresAt,
        created_at: now,
        created_by: ctx.actor.userId,
        sent_at: now,
      })
      .execute()
  const invitation = { id, email, role, expiresAt: expiresAt.toISOString() }
  await deps.audit.append(
    tx,
    ctx,
    'member.invited',
    { type: 'invitation', id },
    { ...invitation, resent: Boolean(open) },
  )
  await emailInvitation(deps, tx, ctx, { ...invitation, token })
  return { invitation, token }
}

async function emailInvitation(
  deps: OrgInvitationsDeps,
  tx: Tx,
  ctx: RequestContext,
  invitation: { email: string; role: Role; expiresAt: string; token: string },
): Promise<void> {
  const org = await tx.selectFrom('orgs').select('name').where('org_id', '=', ctx.orgId).executeTakeFirstOrThrow()
  const inviter = await tx
    .selectFrom('users')
    .select(['name', 'email'])
    .where('id', '=', ctx.actor.userId)
    .executeTakeFirstOrThrow()
  const link = `${deps.config.publicUrl}/invitations/accept?token=${encodeURIComponent(invitation.token)}`
  await deps.outbox.enqueue(tx, {
    kind: 'invitation',
    to: { address: invitation.email },
    orgId: ctx.orgId,
    variables: {
      org: { name: org.name },
      inviter: { name: inviter.name, email: inviter.email ?? '' },
      role: invitation.role,
      expiresAt: invitation.expiresAt,
    },
    secret: { link },
  })
}

async function resendInvitation(
  deps: OrgInvitationsDeps,
  ctx: RequestContext,
  id: string,
  answer: StoredAnswer | undefined,
): Promise<Invitation> {
  let token = ''
  const stored = await deps.db.tx(
    ctx,
    async (tx) => {
      const open = await lockedInvitation(tx, ctx, id)
      const sent = await send(deps, tx, ctx, { open, email: open.email, role: open.role as Role })
      token = sent.token
      return sent.invitation
    },
    { commitWith: answer },
  )
  return { ...stored, token }
}

/** An invitation still open, locked; the caller may grant its role. */
async function lockedInvitation(tx: Tx, ctx: RequestContext, id: string): Promise<NonNullable<InvitationRow>> {
  const row = await tx
    .selectFrom('invitations')
    .selectAll()
    .where('org_id', '=', ctx.orgId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()
  if (!row) throw notFound('invitation')
  if (row.accepted_at !== null) throw new AppError('invalid_state', 'This invitation has been accepted already')
  if (row.revoked_at !== null) throw new AppError('invalid_state', 'This invitation was revoked; invite again')
  const role = ctx.actor.role
  if (!role || !grantableRoles(role).includes(row.role as Role))
    throw forbidden(`The ${role ?? 'current'} role cannot manage an invitation as ${row.role}`)
  return row
}

async function revokeInvitation(deps: OrgInvitationsDeps, ctx: RequestContext, id: string): Promise<PendingInvitation> {
  const now = deps.clock.now()
  await deps.db.tx(ctx, async (tx) => {
    const row = await lockedInvitation(tx, ctx, id)
    await tx
      .updateTable('invitations')
      .set({ revoked_at: now, revoked_by: ctx.actor.userId })
      .where('org_id', '=', ctx.orgId)
      .where('id', '=', id)
      .execute()
    const data = { id, email: row.email, role: row.role }
    await deps.audit.append(tx, ctx, 'member.invitation_revoked', { type: 'invitation', id }, data)
  })
  const [revoked] = await invitationsView(deps.db, deps.clock, ctx, { ids: [id], includeClosed: true })
  return revoked!
}

async function listInvitations(
  db: Database,
  clock: Clock,
  ctx: RequestContext,
  query: PendingInvitationQuery,
): Promise<Page<PendingInvitation>> {
  const after = decodeCursor(query.cursor, {}, 2)
  const rows = await invitationsView(db, clock, ctx, { after, limit: query.limit + 1 })
  return toPage(
    rows,
    query.limit,
    (row) => [row.createdAt, row.id],
    (row) => row,
    {},
  )
}

/** Invitations with who invited, newest first: the open ones, or exactly these ids. */
async function invitationsView(
  db: Database,
  clock: Clock,
  ctx: RequestContext,
  options: { after?: Keyset | null; limit?: number; ids?: string[]; includeClosed?: boolean },
): Promise<PendingInvitation[]> {
  const rows = await db.read(ctx.orgId, (reader) => {
    let select = reader
      .selectFrom('invitations as i')
      .innerJoin('users as u', 'u.id', 'i.created_by')
      .select([
        'i.id',
        'i.email',
        'i.role',
        'i.created_at',
        'i.sent_at',
        'i.expires_at',
        'i.created_by',
        'u.name',
        'u.email as inviter_email',
      ])
      .where('i.org_id', '=', ctx.orgId)
    if (!options.includeClosed) select = select.where('i.accepted_at', 'is', null).where('i.revoked_at', 'is', null)
    if (options.ids) select = select.where('i.id', 'in', options.ids)
    if (options.after) select = select.where(olderThan(options.after, 'i.created_at', 'i.id'))
    return select
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id', 'desc')
      .limit(options.limit ?? 100)
      .execute()
  })
  const now = clock.now().getTime()
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role as Role,
    invitedBy: { userId: row.created_by, name: row.name, email: row.inviter_email },
    createdAt: row.created_at.toISOString(),
    sentAt: (row.sent_at ?? row.created_at).toISOString(),
    expiresAt: row.expires_at.toISOString(),
    expired: row.expires_at.getTime() <= now,
  }))
}
