import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD, uniqueEmail } from './api.js'
import { launchBrowser, newPage, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * An owner invites a viewer by email; the invited person opens the link in a browser of their own,
 * signs up, accepts, and sees their role; the app shows the API's refusals of the link to others.
 */
let service: RunningService
let browser: Browser
let owner: Page
let invitee: Page
let ownerToken: string
let eventId: string
let link: string
const inviteeEmail = uniqueEmail('invitee')

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
  await owner.goto('/login')
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
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click()
    const rows = owner.getByRole('table', { name: /Members/ }).getByRole('row')
    await expect.poll(() => rows.count()).toBe(2)
    expect(await rows.nth(1).textContent()).toContain('members-owner (you)')
    expect(await rows.nth(1).textContent()).toContain('Owner')
    await visit(owner, 'members', 'Members')
    const roles = await owner.getByLabel('Role').locator('option').allTextContents()
    expect(roles).toEqual(['Owner', 'Admin', 'Finance', 'Editor', 'Viewer'])
  })

  it('invites by email and role: the API’s field error first, then the link to copy', async () => {
    await owner.getByLabel('Email').fill('not-an-email')
    await owner.getByRole('button', { name: 'Invite member' }).click()
    await expect.poll(() => owner.getByLabel('Email').getAttribute('aria-invalid')).toBe('true')
    await visit(owner, 'members-invite-error', 'Members')
    await owner.getByLabel('Email').fill(inviteeEmail)
    await owner.getByLabel('Role').selectOption('viewer')
    await owner.getByRole('button', { name: 'Invite member' }).click()
    const field = owner.getByLabel('Invitation link')
    await field.waitFor()
    link = await field.inputValue()
    expect(link).toMatch(new RegExp(`^${service.url}/invitations/accept\\?token=invt_`))
    expect(await owner.getByRole('status').filter({ hasText: inviteeEmail }).textContent()).toContain('as Viewer')
    await visit(owner, 'members-invited', 'Members')
  })

  it('shows the API’s refusal when someone with another email opens the link', async () => {
    await owner.goto(link)
    await visit(owner, 'invitation-accept-signed-in', 'Accept an invitation')
    await owner.getByRole('button', { name: 'Accept invitation' }).click()
    await expect.poll(() => owner.getByRole('alert').textContent()).toContain('sent to another email address')
    expect(await owner.getByRole('button', { name: 'Log out and use another account' }).count()).toBe(1)
    await visit(owner, 'invitation-wrong-email', 'Accept an invitation')
  })

  it('lets the invited person sign up from the link, accept, and see their role', async () => {
    await invitee.goto(link)
    await visit(invitee, 'invitation-signed-out', 'Accept an invitation')
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

    await invitee.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Members' }).click()
    const rows = invitee.getByRole('table', { name: /Members/ }).getByRole('row')
    await expect.poll(() => rows.count()).toBe(3)
    expect(await rows.filter({ hasText: 'Vera Viewer (you)' }).textContent()).toContain('Viewer')
    expect(await invitee.getByText('Your role here: Viewer').count()).toBe(1)
    expect(await invitee.getByRole('button', { name: 'Invite member' }).count()).toBe(0)
    expect(await invitee.getByLabel('Role').count()).toBe(0)
    await visit(invitee, 'members-as-viewer', 'Members')
  })

  it('shows the viewer events without write buttons, and the API refuses their writes all the same', async () => {
    await invitee.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).click()
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

  it('shows the API’s answer when the link is used again', async () => {
    await invitee.goto(link)
    await invitee.getByRole('button', { name: 'Accept invitation' }).click()
    await expect.poll(() => invitee.getByRole('alert').textContent()).toContain('already been accepted')
    await visit(invitee, 'invitation-used', 'Accept an invitation')
  })
})
