import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOUR, MINUTE } from '../../platform/clock.js'
import {
  buildTestApp,
  call,
  eventCount,
  expectProblem,
  memberWithRole,
  ownerWithOrg,
  signup,
  uniqueEmail,
  type OrgAccount,
  type TestApp,
} from '../../../test/helpers.js'

let t: TestApp

beforeAll(async () => {
  t = await buildTestApp()
})
afterAll(() => t.close())

describe('sign-up, login, logout', () => {
  it('signs up, logs in and reads /api/me', async () => {
    const email = uniqueEmail('ada')
    const created = await call(t.app, {
      method: 'POST',
      url: '/api/auth/signup',
      body: { email, password: 'a long password', name: 'Ada' },
    })
    expect(created.statusCode).toBe(201)
    expect(created.json().token).toMatch(/^sess_euw_[A-Za-z0-9_-]{43}$/)
    expect(created.json().user).toMatchObject({ email, name: 'Ada' })
    expect(created.json().user.id).toMatch(/^usr_[0-9A-HJKMNP-TV-Z]{26}$/)

    const login = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      body: { email: email.toUpperCase(), password: 'a long password' },
    })
    expect(login.statusCode).toBe(200)
    expect(login.json().activeOrgId).toBeNull()
    const me = await call(t.app, { url: '/api/me', token: login.json().token })
    expect(me.statusCode).toBe(200)
    expect(me.json()).toMatchObject({ user: { email }, memberships: [], activeOrgId: null })
  })

  it('refuses a short password, a duplicate email and a wrong password', async () => {
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/auth/signup',
        body: { email: uniqueEmail(), password: 'short', name: 'x' },
      }),
      400,
      'parameter_invalid',
    )
    const account = await signup(t.app)
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/auth/signup',
        body: { email: account.email, password: 'another long one', name: 'x' },
      }),
      409,
      'conflict',
    )
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/auth/login',
        body: { email: account.email, password: 'wrong password!' },
      }),
      401,
      'authentication_required',
    )
  })

  it('ends the session on logout', async () => {
    const account = await signup(t.app)
    expect((await call(t.app, { method: 'POST', url: '/api/auth/logout', token: account.token })).statusCode).toBe(204)
    const after = await call(t.app, { url: '/api/me', token: account.token })
    expectProblem(after, 401, 'invalid_token')
    expect(after.headers['www-authenticate']).toContain('error="invalid_token"')
  })

  it('throttles failed logins per email, and lets the right password through after the pause', async () => {
    const account = await signup(t.app)
    const attempt = (password: string) =>
      call(t.app, { method: 'POST', url: '/api/auth/login', body: { email: account.email, password } })
    for (let i = 0; i < 10; i += 1) expectProblem(await attempt('not the password'), 401, 'authentication_required')
    const throttled = await attempt('correct horse battery')
    expectProblem(throttled, 429, 'rate_limited')
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0)
    t.clock.advance(15 * MINUTE)
    expect((await attempt('correct horse battery')).statusCode).toBe(200)
  })

  it('throttles failed logins per address across many emails', async () => {
    const app = await buildTestApp({ db: t.db })
    try {
      let last = 0
      for (let i = 0; i < 31; i += 1) {
        const response = await call(app.app, {
          method: 'POST',
          url: '/api/auth/login',
          body: { email: uniqueEmail('nobody'), password: 'whatever it is' },
        })
        last = response.statusCode
      }
      expect(last).toBe(429)
    } finally {
      await app.close()
    }
  })
})

describe('session expiry (injected clock)', () => {
  it('expires after 12 hours without use', async () => {
    const account = await signup(t.app)
    t.clock.advance(11 * HOUR)
    expect((await call(t.app, { url: '/api/me', token: account.token })).statusCode).toBe(200)
    t.clock.advance(11 * HOUR)
    expect((await call(t.app, { url: '/api/me', token: account.token })).statusCode).toBe(200)
    t.clock.advance(12 * HOUR)
    expectProblem(await call(t.app, { url: '/api/me', token: account.token }), 401, 'invalid_token')
  })

  it('expires after 7 days in all, however often it is used', async () => {
    const account = await signup(t.app)
    for (let day = 0; day < 13; day += 1) {
      t.clock.advance(11 * HOUR)
      expect((await call(t.app, { url: '/api/me', token: account.token })).statusCode).toBe(200)
    }
    // 143 h so far; the absolute limit is 168 h.
    t.clock.advance(11 * HOUR) // 154 h
    expect((await call(t.app, { url: '/api/me', token: account.token })).statusCode).toBe(200)
    t.clock.advance(11 * HOUR) // 165 h
    expect((await call(t.app, { url: '/api/me', token: account.token })).statusCode).toBe(200)
    t.clock.advance(4 * HOUR) // 169 h: past 7 days although used 4 h ago
    expectProblem(await call(t.app, { url: '/api/me', token: account.token }), 401, 'invalid_token')
  })

  it('refuses a missing, malformed or unknown token', async () => {
    expectProblem(await call(t.app, { url: '/api/me' }), 401, 'authentication_required')
    expectProblem(await call(t.app, { url: '/api/me', headers: { authorization: 'Basic abc' } }), 401, 'invalid_token')
    expectProblem(await call(t.app, { url: '/api/me', token: 'sess_nope' }), 401, 'invalid_token')
    expectProblem(await call(t.app, { url: '/api/me', token: 'oat_wrong_kind' }), 401, 'invalid_token')
  })
})

describe('orgs and the active org', () => {
  it('creates an org: the caller is owner, it becomes active, org.created is the first event', async () => {
    const owner = await ownerWithOrg(t.app, { name: 'Northern Lights Records' })
    const me = (await call(t.app, { url: '/api/me', token: owner.token })).json()
    expect(me.activeOrgId).toBe(owner.orgId)
    expect(me.memberships).toEqual([
      expect.objectContaining({ orgId: owner.orgId, role: 'owner', environment: 'production', region: 'eu-west' }),
    ])
    const events = (await call(t.app, { url: '/api/org-events', token: owner.token })).json()
    expect(events.data).toHaveLength(1)
    expect(events.data[0]).toMatchObject({
      action: 'org.created',
      sequence: 1,
      userId: owner.userId,
      orgId: owner.orgId,
    })
  })

  it('states the new org’s environment, and that it is now the session’s active org', async () => {
    const account = await signup(t.app)
    const first = await call(t.app, { method: 'POST', url: '/api/orgs', token: account.token, body: { name: 'Label' } })
    expect(first.statusCode, first.body).toBe(201)
    expect(first.json()).toMatchObject({ name: 'Label', environment: 'production', activeOrgId: first.json().id })
    const second = await call(t.app, {
      method: 'POST',
      url: '/api/orgs',
      token: account.token,
      body: { name: 'Label sandbox', environment: 'sandbox' },
    })
    expect(second.json()).toMatchObject({ environment: 'sandbox', activeOrgId: second.json().id })
    // What the answer said: the session acts on the new org now.
    const me = (await call(t.app, { url: '/api/me', token: account.token })).json()
    expect(me.activeOrgId).toBe(second.json().id)
    expect(me.memberships.map((m: { orgId: string }) => m.orgId).sort()).toEqual(
      [first.json().id, second.json().id].sort(),
    )
  })

  it('creates a sandbox org and refuses another region with 421 wrong_region', async () => {
    const account = await signup(t.app)
    const sandbox = await call(t.app, {
      method: 'POST',
      url: '/api/orgs',
      token: account.token,
      body: { name: 'Sandbox', environment: 'sandbox' },
    })
    expect(sandbox.json()).toMatchObject({ environment: 'sandbox', region: 'eu-west' })
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/orgs',
        token: account.token,
        body: { name: 'US', region: 'us-east' },
      }),
      421,
      'wrong_region',
    )
  })

  it('switches the active org only to an org the user belongs to', async () => {
    const owner = await ownerWithOrg(t.app)
    const second = await call(t.app, { method: 'POST', url: '/api/orgs', token: owner.token, body: { name: 'Second' } })
    const switched = await call(t.app, {
      method: 'POST',
      url: '/api/session/active-org',
      token: owner.token,
      body: { orgId: owner.orgId },
    })
    expect(switched.json().activeOrgId).toBe(owner.orgId)
    expect(switched.json().memberships).toHaveLength(2)
    const stranger = await ownerWithOrg(t.app)
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/session/active-org',
        token: stranger.token,
        body: { orgId: second.json().id },
      }),
      404,
      'resource_missing',
    )
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/session/active-org',
        token: stranger.token,
        body: { orgId: 'nonsense' },
      }),
      404,
      'resource_missing',
    )
  })

  it('answers 403 on org routes for a user with no active org', async () => {
    const account = await signup(t.app)
    expectProblem(await call(t.app, { url: '/api/members', token: account.token }), 403, 'forbidden')
  })
})

describe('members and invitations', () => {
  let owner: OrgAccount

  beforeAll(async () => {
    owner = await ownerWithOrg(t.app)
  })

  it('invites (member.invited), accepts (member.joined) and lists members', async () => {
    const invitee = await signup(t.app, 'invitee')
    const invite = await call(t.app, {
      method: 'POST',
      url: '/api/members/invitations',
      token: owner.token,
      body: { email: invitee.email, role: 'editor' },
    })
    expect(invite.statusCode).toBe(201)
    expect(invite.json()).toMatchObject({ email: invitee.email, role: 'editor' })
    expect(invite.json().id).toMatch(/^inv_/)

    const accept = await call(t.app, {
      method: 'POST',
      url: '/api/invitations/accept',
      token: invitee.token,
      body: { token: invite.json().token },
    })
    expect(accept.statusCode).toBe(200)
    expect(accept.json()).toMatchObject({ orgId: owner.orgId, userId: invitee.userId, role: 'editor' })

    const members = (await call(t.app, { url: '/api/members', token: invitee.token })).json()
    expect(members.data.map((m: { userId: string }) => m.userId).sort()).toEqual([owner.userId, invitee.userId].sort())

    const events = (await call(t.app, { url: '/api/org-events', token: owner.token })).json().data
    const invited = events.find((e: { action: string }) => e.action === 'member.invited')
    expect(invited.data).not.toHaveProperty('token')
    expect(JSON.stringify(events)).not.toContain(invite.json().token)
    const joined = events.find((e: { action: string }) => e.action === 'member.joined')
    expect(joined.userId).toBe(invitee.userId)
  })

  it('refuses an invitation accepted by another email, twice, or after expiry', async () => {
    const invitee = await signup(t.app, 'right')
    const wrong = await signup(t.app, 'wrong')
    const invite = (
      await call(t.app, {
        method: 'POST',
        url: '/api/members/invitations',
        token: owner.token,
        body: { email: invitee.email, role: 'viewer' },
      })
    ).json()
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/invitations/accept',
        token: wrong.token,
        body: { token: invite.token },
      }),
      403,
      'forbidden',
    )
    expect(
      (
        await call(t.app, {
          method: 'POST',
          url: '/api/invitations/accept',
          token: invitee.token,
          body: { token: invite.token },
        })
      ).statusCode,
    ).toBe(200)
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/invitations/accept',
        token: invitee.token,
        body: { token: invite.token },
      }),
      409,
      'conflict',
    )
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/invitations/accept',
        token: invitee.token,
        body: { token: 'invt_unknown' },
      }),
      404,
      'resource_missing',
    )

    const late = await signup(t.app, 'late')
    const lateInvite = (
      await call(t.app, {
        method: 'POST',
        url: '/api/members/invitations',
        token: owner.token,
        body: { email: late.email, role: 'viewer' },
      })
    ).json()
    t.clock.advance(8 * 24 * HOUR)
    const fresh = await call(t.app, {
      method: 'POST',
      url: '/api/auth/login',
      body: { email: late.email, password: 'correct horse battery' },
    })
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/invitations/accept',
        token: fresh.json().token,
        body: { token: lateInvite.token },
      }),
      422,
      'invalid_state',
    )
  })

  it('lets only owners and admins invite, and admins not invite owners', async () => {
    const owner = await ownerWithOrg(t.app)
    const admin = await memberWithRole(t.app, owner, 'admin')
    const before = await eventCount(t.db, owner.orgId)
    expectProblem(
      await call(t.app, {
        method: 'POST',
        url: '/api/members/invitations',
        token: admin.token,
        body: { email: uniqueEmail(), role: 'owner' },
      }),
      403,
      'forbidden',
    )
    expect(
      (
        await call(t.app, {
          method: 'POST',
          url: '/api/members/invitations',
          token: admin.token,
          body: { email: uniqueEmail(), role: 'finance' },
        })
      ).statusCode,
    ).toBe(201)
    for (const role of ['finance', 'editor', 'viewer']) {
      const member = await memberWithRole(t.app, owner, role)
      const count = await eventCount(t.db, owner.orgId)
      expectProblem(
        await call(t.app, {
          method: 'POST',
          url: '/api/members/invitations',
          token: member.token,
          body: { email: uniqueEmail(), role: 'viewer' },
        }),
        403,
        'forbidden',
      )
      expect(await eventCount(t.db, owner.orgId)).toBe(count)
    }
    expect(await eventCount(t.db, owner.orgId)).toBeGreaterThan(before)
  })

  it('paginates members newest first without skipping or repeating', async () => {
    const org = await ownerWithOrg(t.app)
    for (let i = 0; i < 4; i += 1) await memberWithRole(t.app, org, 'viewer')
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: { data: { userId: string }[]; pagination: { cursor: string | null; hasMore: boolean } } = (
        await call(t.app, { url: `/api/members?limit=2${cursor ? `&cursor=${cursor}` : ''}`, token: org.token })
      ).json()
      seen.push(...page.data.map((m) => m.userId))
      cursor = page.pagination.hasMore ? page.pagination.cursor : null
    } while (cursor)
    expect(seen).toHaveLength(5)
    expect(new Set(seen).size).toBe(5)
    expectProblem(await call(t.app, { url: '/api/members?cursor=garbage', token: org.token }), 400, 'invalid_cursor')
  })
})
