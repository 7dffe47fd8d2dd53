import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DAY, HOUR } from '../../platform/clock.js'
import {
  call,
  eventCount,
  expectProblem,
  memberWithRole,
  ownerWithOrg,
  signup,
  uniqueEmail,
  type OrgAccount,
} from '../../../test/helpers.js'
import { buildMailTestApp, type MailTestApp } from '../../../test/smtp-helpers.js'

let t: MailTestApp

beforeAll(async () => {
  t = await buildMailTestApp()
})
afterAll(() => t.close())

const members = async (token: string) => (await call(t.app, { url: '/api/members', token })).json().data
const setRole = (token: string, userId: string, role: string) =>
  call(t.app, { method: 'PATCH', url: `/api/members/${userId}`, token, body: { role } })
const remove = (token: string, userId: string) =>
  call(t.app, { method: 'DELETE', url: `/api/members/${userId}`, token })
const invite = (token: string, email: string, role = 'viewer') =>
  call(t.app, { method: 'POST', url: '/api/members/invitations', token, body: { email, role } })
const preview = (token: string) => call(t.app, { method: 'POST', url: '/api/invitations/preview', body: { token } })
const accept = (token: string, invitationToken: string) =>
  call(t.app, { method: 'POST', url: '/api/invitations/accept', token, body: { token: invitationToken } })
const lastAction = async (token: string) =>
  (await call(t.app, { url: '/api/org-events?limit=100', token })).json().data.at(-1)
/** A new session of the account (the clock moved past the last one's idle limit). */
async function signIn<A extends { email: string }>(account: A): Promise<A> {
  const login = await call(t.app, {
    method: 'POST',
    url: '/api/auth/login',
    body: { email: account.email, password: 'correct horse battery' },
  })
  expect(login.statusCode, login.body).toBe(200)
  return { ...account, token: login.json().token }
}
/** The link in an email's text part. */
const linkIn = (text: string) => /https?:\/\/\S+\/invitations\/accept\?token=\S+/.exec(text)?.[0]

describe('members', () => {
  it('lists the active org’s members with name, email and role', async () => {
    const owner = await ownerWithOrg(t.app)
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    const listed = await members(owner.token)
    expect(listed.map((m: { email: string; role: string }) => `${m.email} ${m.role}`).sort()).toEqual(
      [`${owner.email} owner`, `${viewer.email} viewer`].sort(),
    )
    expect(listed.find((m: { userId: string }) => m.userId === viewer.userId)).toMatchObject({ name: 'viewer' })
  })

  it('changes a role (member.role_changed), and the member acts with it on the next request', async () => {
    const owner = await ownerWithOrg(t.app)
    const member = await memberWithRole(t.app, owner, 'viewer')
    expectProblem(await invite(member.token, uniqueEmail()), 403, 'forbidden')
    const changed = await setRole(owner.token, member.userId, 'admin')
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json()).toMatchObject({ userId: member.userId, role: 'admin', email: member.email })
    expect(await lastAction(owner.token)).toMatchObject({
      action: 'member.role_changed',
      data: { userId: member.userId, from: 'viewer', to: 'admin' },
    })
    expect((await invite(member.token, uniqueEmail())).statusCode).toBe(201)
  })

  it('lets admins manage every role but owner, and only owners make or unmake owners', async () => {
    const owner = await ownerWithOrg(t.app)
    const admin = await memberWithRole(t.app, owner, 'admin')
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(await setRole(admin.token, viewer.userId, 'owner'), 403, 'forbidden')
    expectProblem(await setRole(admin.token, owner.userId, 'viewer'), 403, 'forbidden')
    expectProblem(await remove(admin.token, owner.userId), 403, 'forbidden')
    expectProblem(await setRole(viewer.token, viewer.userId, 'admin'), 403, 'forbidden')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    expect((await setRole(admin.token, viewer.userId, 'editor')).json().role).toBe('editor')
    expect((await setRole(owner.token, admin.userId, 'owner')).json().role).toBe('owner')
  })

  it('keeps at least one owner: the last owner cannot step down or be removed (409), and nothing is written', async () => {
    const owner = await ownerWithOrg(t.app)
    const before = await eventCount(t.db, owner.orgId)
    const demoted = await setRole(owner.token, owner.userId, 'admin')
    expectProblem(demoted, 409, 'conflict')
    expect(demoted.json().detail).toContain('at least one owner')
    expectProblem(await remove(owner.token, owner.userId), 409, 'conflict')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
    expect((await members(owner.token))[0]).toMatchObject({ userId: owner.userId, role: 'owner' })
  })

  it('lets exactly one of two owners stepping down at once through', async () => {
    const first = await ownerWithOrg(t.app)
    const second = await memberWithRole(t.app, first, 'owner')
    const answers = await Promise.all([
      setRole(first.token, first.userId, 'admin'),
      setRole(second.token, second.userId, 'admin'),
    ])
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409])
    const roles = (await members(answers[0]!.statusCode === 200 ? second.token : first.token)).map(
      (m: { role: string }) => m.role,
    )
    expect(roles.sort()).toEqual(['admin', 'owner'])
  })

  it('removes a member (member.removed): their session has no org to act in any more', async () => {
    const owner = await ownerWithOrg(t.app)
    const editor = await memberWithRole(t.app, owner, 'editor')
    expect((await call(t.app, { url: '/api/creators', token: editor.token })).statusCode).toBe(200)
    expect((await remove(owner.token, editor.userId)).statusCode).toBe(204)
    expect(await lastAction(owner.token)).toMatchObject({
      action: 'member.removed',
      data: { userId: editor.userId, role: 'editor', email: editor.email },
    })
    expectProblem(await call(t.app, { url: '/api/creators', token: editor.token }), 403, 'forbidden')
    const me = (await call(t.app, { url: '/api/me', token: editor.token })).json()
    expect(me).toMatchObject({ activeOrgId: null, memberships: [] })
    expectProblem(await remove(owner.token, editor.userId), 404, 'resource_missing')
  })

  it('answers 404 for a member of another org, changing nothing', async () => {
    const owner = await ownerWithOrg(t.app)
    const other = await ownerWithOrg(t.app)
    const outsider = await memberWithRole(t.app, other, 'viewer')
    expectProblem(await setRole(owner.token, outsider.userId, 'admin'), 404, 'resource_missing')
    expectProblem(await remove(owner.token, outsider.userId), 404, 'resource_missing')
    expect((await members(other.token)).find((m: { userId: string }) => m.userId === outsider.userId).role).toBe(
      'viewer',
    )
  })
})

describe('invitations', () => {
  async function invitedByEmail(owner: OrgAccount, email: string) {
    const created = await invite(owner.token, email, 'editor')
    expect(created.statusCode, created.body).toBe(201)
    await t.deliver()
    const received = t.receiver.to(email)
    return { invitation: created.json(), received, link: linkIn(received.at(-1)?.text ?? '') }
  }

  it('emails the invitee the link, naming the org, the inviter and the role; the link accepts', async () => {
    const owner = await ownerWithOrg(t.app, { name: 'Northern Songs' })
    const invitee = await signup(t.app, 'invitee')
    const { invitation, received, link } = await invitedByEmail(owner, invitee.email)
    expect(received).toHaveLength(1)
    expect(received[0]!.subject).toBe('owner invited you to Northern Songs on Oeuvre')
    expect(received[0]!.text).toContain('editor')
    expect(link).toBe(`${t.config.publicUrl}/invitations/accept?token=${invitation.token}`)
    const token = new URL(link!).searchParams.get('token')!
    expect((await preview(token)).json()).toMatchObject({
      orgName: 'Northern Songs',
      email: invitee.email,
      role: 'editor',
      inviter: { name: 'owner', email: owner.email },
      status: 'pending',
    })
    expect((await accept(invitee.token, token)).statusCode).toBe(200)
    expect((await preview(token)).json().status).toBe('accepted')
  })

  it('sends an open invitation again with the same link and 7 more days, by inviting again or resending', async () => {
    const owner = await ownerWithOrg(t.app)
    const email = uniqueEmail('twice')
    const first = await invitedByEmail(owner, email)
    t.clock.advance(6 * DAY)
    const again = await invitedByEmail(await signIn(owner), email)
    expect(again.invitation.id).toBe(first.invitation.id)
    expect(again.link).toBe(first.link)
    expect(Date.parse(again.invitation.expiresAt) - Date.parse(first.invitation.expiresAt)).toBe(6 * DAY)
    const session = await signIn(owner)
    t.clock.advance(HOUR)
    const resent = await call(t.app, {
      method: 'POST',
      url: `/api/members/invitations/${first.invitation.id}/resend`,
      token: session.token,
    })
    expect(Date.parse(resent.json().expiresAt) - Date.parse(again.invitation.expiresAt)).toBe(HOUR)
    expect(resent.statusCode, resent.body).toBe(200)
    await t.deliver()
    expect(t.receiver.to(email).map((received) => linkIn(received.text))).toEqual([first.link, first.link, first.link])
    const pending = (await call(t.app, { url: '/api/members/invitations', token: session.token })).json().data
    expect(pending).toHaveLength(1)
    expect(pending[0]).toMatchObject({ id: first.invitation.id, email, invitedBy: { userId: owner.userId } })
  })

  it('revokes: the link stops working, the preview says so, and it cannot be resent', async () => {
    const owner = await ownerWithOrg(t.app)
    const invitee = await signup(t.app, 'revoked')
    const { invitation } = await invitedByEmail(owner, invitee.email)
    const url = `/api/members/invitations/${invitation.id}`
    const revoked = await call(t.app, { method: 'POST', url: `${url}/revoke`, token: owner.token })
    expect(revoked.statusCode, revoked.body).toBe(200)
    expect(await lastAction(owner.token)).toMatchObject({ action: 'member.invitation_revoked' })
    expect((await preview(invitation.token)).json().status).toBe('revoked')
    expectProblem(await accept(invitee.token, invitation.token), 422, 'invalid_state')
    expectProblem(await call(t.app, { method: 'POST', url: `${url}/resend`, token: owner.token }), 422, 'invalid_state')
    expect((await call(t.app, { url: '/api/members/invitations', token: owner.token })).json().data).toEqual([])
    // A new invitation to the same email is a new link.
    const fresh = await invitedByEmail(owner, invitee.email)
    expect(fresh.invitation.id).not.toBe(invitation.id)
    expect((await accept(invitee.token, fresh.invitation.token)).statusCode).toBe(200)
  })

  it('shows an expired invitation as expired; another org’s invitation id is 404', async () => {
    const owner = await ownerWithOrg(t.app)
    const other = await ownerWithOrg(t.app)
    const { invitation } = await invitedByEmail(owner, uniqueEmail('late'))
    for (const action of ['revoke', 'resend'])
      expectProblem(
        await call(t.app, {
          method: 'POST',
          url: `/api/members/invitations/${invitation.id}/${action}`,
          token: other.token,
        }),
        404,
        'resource_missing',
      )
    t.clock.advance(7 * DAY)
    expect((await preview(invitation.token)).json().status).toBe('expired')
    const listed = (await call(t.app, { url: '/api/members/invitations', token: (await signIn(owner)).token })).json()
      .data
    expect(listed[0]).toMatchObject({ id: invitation.id, expired: true })
    expectProblem(await preview('invt_not_a_real_token'), 404, 'resource_missing')
  })

  it('refuses a member’s email (409), and an invitation to someone already in the org writes nothing', async () => {
    const owner = await ownerWithOrg(t.app)
    const viewer = await memberWithRole(t.app, owner, 'viewer')
    const before = await eventCount(t.db, owner.orgId)
    const refused = await invite(owner.token, viewer.email.toUpperCase())
    expectProblem(refused, 409, 'conflict')
    expect(refused.json().param).toBe('email')
    expect(await eventCount(t.db, owner.orgId)).toBe(before)
  })
})
