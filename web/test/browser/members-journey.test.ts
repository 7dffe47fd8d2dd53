import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD, uniqueEmail } from './api.js'
import { expectAccessible, expectPeoplesWords, launchBrowser, newPage, screenshots, visit } from './browser.js'
import { emailsTo, linkTo } from './mail.js'
import { startService, type RunningService } from './service.js'

/**
 * An owner invites a viewer by email; the invitation is listed (once, however often it is sent),
 * sent again, and another revoked; the invited person opens the emailed link in a browser of their
 * own, sees who invited them to what, signs up, accepts, and sees their role; the owner changes it,
 * is refused stepping down as the only owner, and removes them.
 */
let service: RunningService
let browser: Browser
let owner: Page
let invitee: Page
let ownerToken: string
let eventId: string
let link: string
const inviteeEmail = uniqueEmail('invitee')
const revokedEmail = uniqueEmail('revoked')

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true })
const invitations = () => owner.getByRole('table', { name: /Pending invitations/ })

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ page: owner } = await newPage(browser, service.url))
  // A second browser context: another person's browser, with no session of the owner's.
  ;({ page: invitee } = await newPage(browser, service.url))
  const account = await apiUser(service.url, 'members-owner')
  ownerToken = account.token
  const org = await apiCall(service.url, 'POST', '/api/orgs', { token: ownerToken, body: { name: 'Harbour Music' } })
  expect(org.status).toBe(201)
  const event = await apiCall<{ id: string }>(service.url, 'POST', '/api/events', {
    token: ownerToken,
    body: {
      name: 'Quay Concert',
      venue: { name: 'Pier 5', country: 'NL' },
      startsAt: `${new Date().getUTCFullYear() + 1}-05-01T19:00:00.000Z`,
      timezone: 'Europe/Amsterdam',
      currency: 'EUR',
      capacity: 100,
      ticketTypes: [{ name: 'Seat', price: '20.00', quantity: 100 }],
    },
  })
  expect(event.status).toBe(201)
  eventId = event.body.id
  await owner.goto('/')
  await owner.getByLabel('Email').fill(account.email)
  await owner.getByLabel('Password').fill(PASSWORD)
  await owner.getByRole('button', { name: 'Log in' }).click()
  await owner.waitForURL(/\/catalog$/)
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

describe('members and invitations', () => {
  it('lists the members with their roles, and the owner sees the invite form', async () => {
    await nav(owner, 'Members').click()
    const rows = owner.getByRole('table', { name: /Members/ }).getByRole('row')
    await expect.poll(() => rows.count()).toBe(2)
    expect(await rows.nth(1).textContent()).toContain('members-owner (you)')
    expect(await owner.getByLabel('Role of members-owner').inputValue()).toBe('owner')
    await expect.poll(() => owner.getByText('No invitation is waiting to be accepted').count()).toBe(1)
    await visit(owner, 'members', 'Members')
    const roles = await owner.getByLabel('Invite as').locator('option').allTextContents()
    expect(roles).toEqual(['Owner', 'Admin', 'Finance', 'Editor', 'Viewer'])
  })

  it('invites by email and role: the API’s field error first, then the emailed invitation and its link', async () => {
    await owner.getByLabel('Email').fill('not-an-email')
    await owner.getByRole('button', { name: 'Invite member' }).click()
    await expect.poll(() => owner.getByLabel('Email').getAttribute('aria-invalid')).toBe('true')
    await visit(owner, 'members-invite-error', 'Members')
    await owner.getByLabel('Email').fill(inviteeEmail)
    await owner.getByLabel('Invite as').selectOption('viewer')
    await owner.getByRole('button', { name: 'Invite member' }).click()
    const field = owner.getByLabel('Invitation link')
    await field.waitFor()
    link = await field.inputValue()
    expect(link).toMatch(new RegExp(`^${service.url}/invitations/accept\\?token=invt_`))
    const sent = await owner.getByRole('status').filter({ hasText: inviteeEmail }).textContent()
    expect(sent).toContain(`We emailed an invitation to ${inviteeEmail}, as Viewer`)
    const row = invitations().getByRole('row').filter({ hasText: inviteeEmail })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.textContent()).toContain('Viewer')
    expect(await row.textContent()).toContain('members-owner')
    await visit(owner, 'members-invited', 'Members')
    // The email carries the same link.
    const [email] = await emailsTo(service.dataDir, inviteeEmail, /invited you to Harbour Music/)
    expect(linkTo(email!, '/invitations/accept')).toBe(link)
  })

  it('inviting the same address again sends the one invitation again; resend does too', async () => {
    await owner.getByLabel('Email').fill(inviteeEmail)
    await owner.getByRole('button', { name: 'Invite member' }).click()
    await expect.poll(() => owner.getByLabel('Invitation link').inputValue()).toBe(link)
    await expect.poll(() => invitations().getByRole('row').filter({ hasText: inviteeEmail }).count()).toBe(1)
    await owner.getByRole('button', { name: `Resend the invitation to ${inviteeEmail}` }).click()
    await expect
      .poll(() => owner.getByRole('status').filter({ hasText: 'We sent the invitation again to' }).textContent())
      .toContain(inviteeEmail)
    expect(await invitations().getByRole('row').filter({ hasText: inviteeEmail }).count()).toBe(1)
    await emailsTo(service.dataDir, inviteeEmail, /invited you to Harbour Music/, 3)
  })

  it('revokes an invitation after asking, and its link then says so', async () => {
    await owner.getByLabel('Email').fill(revokedEmail)
    await owner.getByLabel('Invite as').selectOption('editor')
    await owner.getByRole('button', { name: 'Invite member' }).click()
    await expect.poll(() => invitations().getByRole('row').count()).toBe(3)
    const revokedLink = await owner.getByLabel('Invitation link').inputValue()
    await owner.getByRole('button', { name: `Revoke the invitation to ${revokedEmail}` }).click()
    const dialog = owner.getByRole('dialog', { name: `Revoke the invitation to ${revokedEmail}?` })
    await dialog.waitFor()
    // The dialog is over the page (whose heading is hidden meanwhile): checked as it is.
    await expectAccessible(owner, 'members-revoke-dialog')
    await screenshots(owner, 'members-revoke-dialog')
    await dialog.getByRole('button', { name: 'Revoke the invitation' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => invitations().getByRole('row').count()).toBe(2)
    await invitee.goto(revokedLink)
    await visit(invitee, 'invitation-revoked', 'Accept an invitation')
    expect(await invitee.getByRole('alert').textContent()).toContain('This invitation was revoked')
    expect(await invitee.getByRole('button', { name: 'Accept invitation' }).count()).toBe(0)
  })

  it('shows the API’s refusal when someone with another email opens the link', async () => {
    await owner.goto(link)
    await visit(owner, 'invitation-accept-signed-in', 'Accept an invitation')
    expect(await owner.getByText(`The invitation is for ${inviteeEmail}`).count()).toBe(1)
    await owner.getByRole('button', { name: 'Accept invitation' }).click()
    await expect.poll(() => owner.getByRole('alert').textContent()).toContain('sent to another email address')
    expect(await owner.getByRole('button', { name: 'Log out and use another account' }).count()).toBe(1)
    await visit(owner, 'invitation-wrong-email', 'Accept an invitation')
  })

  it('lets the invited person see who invited them, sign up from the emailed link, accept, and see their role', async () => {
    const [email] = await emailsTo(service.dataDir, inviteeEmail, /invited you to Harbour Music/)
    await invitee.goto(linkTo(email!, '/invitations/accept'))
    await visit(invitee, 'invitation-signed-out', 'Accept an invitation')
    const summary = await invitee.getByRole('main').textContent()
    expect(summary).toContain(`invited ${inviteeEmail} to join Harbour Music as Viewer`)
    expect(summary).toContain('members-owner (')
    await invitee.getByRole('link', { name: 'Sign up to accept' }).click()
    await visit(invitee, 'invitation-signup', 'Create your account')
    await invitee.getByLabel('Name').fill('Vera Viewer')
    await invitee.getByLabel('Email').fill(inviteeEmail)
    await invitee.getByLabel('Password').fill(PASSWORD)
    await invitee.getByRole('button', { name: 'Sign up' }).click()
    await invitee.waitForURL(/\/invitations\/accept\?token=invt_/)
    await expect.poll(() => invitee.getByText(`(${inviteeEmail})`).count()).toBe(1)
    await invitee.getByRole('button', { name: 'Accept invitation' }).click()
    await visit(invitee, 'invitation-accepted', 'Invitation accepted')
    expect(await invitee.getByRole('status').textContent()).toBe('You joined Harbour Music as Viewer.')
    await invitee.getByRole('button', { name: 'Open Harbour Music' }).click()
    await invitee.waitForURL(/\/catalog$/)
    const switcher = invitee.getByLabel('Organisation')
    expect(await switcher.locator('option:checked').textContent()).toContain('Harbour Music · viewer')

    await nav(invitee, 'Members').click()
    const rows = invitee.getByRole('table', { name: /Members/ }).getByRole('row')
    await expect.poll(() => rows.count()).toBe(3)
    expect(await rows.filter({ hasText: 'Vera Viewer (you)' }).textContent()).toContain('Viewer')
    expect(await invitee.getByText('Your role here: Viewer').count()).toBe(1)
    expect(await invitee.getByRole('button', { name: 'Invite member' }).count()).toBe(0)
    expect(await invitee.getByRole('combobox').count()).toBe(1) // the org switcher only
    expect(await invitee.getByRole('button', { name: /^(Remove|Resend|Revoke)/ }).count()).toBe(0)
    await visit(invitee, 'members-as-viewer', 'Members')
  })

  it('shows the viewer events without write buttons, and the API refuses their writes all the same', async () => {
    await nav(invitee, 'Events').click()
    await expect.poll(() => invitee.getByRole('link', { name: 'Quay Concert' }).count()).toBe(1)
    expect(await invitee.getByRole('button', { name: 'New event' }).count()).toBe(0)
    await visit(invitee, 'events-as-viewer', 'Ticketed events')
    await invitee.getByRole('link', { name: 'Quay Concert' }).click()
    await visit(invitee, 'event-as-viewer', 'Quay Concert')
    expect(await invitee.getByRole('button', { name: /Publish|Cancel event/ }).count()).toBe(0)
    const refused = await invitee.evaluate(async (id) => {
      const answers = []
      for (const [path, body] of [
        [`/api/events/${id}/publish`, undefined],
        ['/api/members/invitations', JSON.stringify({ email: 'someone@example.com', role: 'viewer' })],
      ] as const) {
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'x-oeuvre-csrf': '1', ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body } : {}),
        })
        answers.push({ status: response.status, code: ((await response.json()) as { code: string }).code })
      }
      return answers
    }, eventId)
    expect(refused).toEqual([
      { status: 403, code: 'forbidden' },
      { status: 403, code: 'forbidden' },
    ])
  })

  it('says the link was used once it is accepted', async () => {
    await invitee.goto(link)
    await visit(invitee, 'invitation-used', 'Accept an invitation')
    expect(await invitee.getByRole('alert').textContent()).toContain('has been accepted already')
    expect(await invitee.getByRole('button', { name: 'Accept invitation' }).count()).toBe(0)
  })

  it('changes a member’s role with the select, and says why the only owner cannot step down', async () => {
    await owner.goto('/')
    await nav(owner, 'Members').click()
    await owner.getByLabel('Role of Vera Viewer').selectOption('editor')
    await owner.getByRole('button', { name: 'Save role of Vera Viewer' }).click()
    await expect
      .poll(() => owner.getByRole('status').filter({ hasText: 'is now' }).textContent())
      .toBe('Vera Viewer is now Editor.')
    expect(await owner.getByLabel('Role of Vera Viewer').inputValue()).toBe('editor')
    await owner.getByLabel('Role of members-owner').selectOption('admin')
    await owner.getByRole('button', { name: 'Save role of members-owner' }).click()
    await expect
      .poll(() => owner.getByRole('alert').textContent())
      .toBe('members-owner is the only owner of Harbour Music, which must keep one. Make another member owner first.')
    expect(await owner.getByLabel('Role of members-owner').inputValue()).toBe('owner')
    await visit(owner, 'members-last-owner', 'Members')
    await expectPeoplesWords(owner, 'members-last-owner')
  })

  it('removes a member after a dialog naming them; the last owner cannot leave', async () => {
    await owner.getByRole('button', { name: 'Remove members-owner' }).click()
    const leave = owner.getByRole('dialog', { name: 'Leave Harbour Music?' })
    await leave.getByRole('button', { name: 'Leave Harbour Music' }).click()
    await expect.poll(() => leave.getByRole('alert').textContent()).toContain('is the only owner of Harbour Music')
    await owner.keyboard.press('Escape')
    await leave.waitFor({ state: 'detached' })
    await owner.getByRole('button', { name: 'Remove Vera Viewer' }).click()
    const dialog = owner.getByRole('dialog', { name: 'Remove Vera Viewer from Harbour Music?' })
    await dialog.getByRole('button', { name: 'Remove Vera Viewer' }).click()
    await dialog.waitFor({ state: 'detached' })
    const rows = owner.getByRole('table', { name: /Members/ }).getByRole('row')
    await expect.poll(() => rows.count()).toBe(2)
    expect(await rows.filter({ hasText: 'Vera Viewer' }).count()).toBe(0)
    await visit(owner, 'members-removed', 'Members')
  })
})
