import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD } from './api.js'
import { launchBrowser, newPage, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * Two deployments: us-east, and eu-west, which knows us-east's address. A link to us-east's data
 * opened at eu-west shows the page that names the region and links there; the app never goes by itself.
 */
let us: RunningService
let eu: RunningService
let browser: Browser
let page: Page
let usEventId: string
let euEventId: string
let usInvitation: string
let invited: { email: string }

const event = (name: string) => ({
  name,
  venue: { name: 'Hall', country: 'US' },
  startsAt: `${new Date().getUTCFullYear() + 1}-03-01T01:00:00.000Z`,
  timezone: 'America/New_York',
  currency: 'USD',
  capacity: 10,
  ticketTypes: [],
})

beforeAll(async () => {
  ;[us, browser] = await Promise.all([startService({ REGION: 'us-east' }), launchBrowser()])
  eu = await startService({ REGION: 'eu-west', REGION_URL_US_EAST: us.url })
  ;({ page } = await newPage(browser, eu.url))

  const usOwner = await apiUser(us.url, 'us-owner')
  expect(
    (await apiCall(us.url, 'POST', '/api/orgs', { token: usOwner.token, body: { name: 'Hudson Records' } })).status,
  ).toBe(201)
  const usEvent = await apiCall<{ id: string }>(us.url, 'POST', '/api/events', {
    token: usOwner.token,
    body: event('Brooklyn Night'),
  })
  usEventId = usEvent.body.id
  expect(usEventId).toMatch(/^tev_1/)
  invited = await apiUser(us.url, 'us-invited')
  const invitation = await apiCall<{ token: string }>(us.url, 'POST', '/api/members/invitations', {
    token: usOwner.token,
    body: { email: invited.email, role: 'viewer' },
  })
  usInvitation = invitation.body.token
  expect(usInvitation).toMatch(/^invt_use_/)

  const euOwner = await apiUser(eu.url, 'eu-owner')
  expect(
    (await apiCall(eu.url, 'POST', '/api/orgs', { token: euOwner.token, body: { name: 'Liffey Music' } })).status,
  ).toBe(201)
  euEventId = (
    await apiCall<{ id: string }>(eu.url, 'POST', '/api/events', { token: euOwner.token, body: event('Dublin Day') })
  ).body.id
  expect(euEventId).toMatch(/^tev_2/)
  await page.goto('/login')
  await page.getByLabel('Email').fill(euOwner.email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/catalog$/)
})
afterAll(async () => {
  await browser?.close()
  await Promise.all([eu?.stop(), us?.stop()])
})

describe('a 421 wrong_region answer in the app', () => {
  it('names the region a record lives in and links to it there, without going', async () => {
    await page.goto(`/events/${usEventId}`)
    await visit(page, 'wrong-region-record', 'This is kept in another region')
    const text = (await page.getByRole('main').textContent()) ?? ''
    expect(text).toContain('It belongs to the us-east (USA, east) region')
    expect(text).toContain('this deployment serves eu-west (Ireland)')
    const link = page.getByRole('link', { name: 'Open this page in us-east' })
    expect(await link.getAttribute('href')).toBe(`${us.url}/events/${usEventId}`)
    // Never a redirect: the browser stays at this deployment until the person follows the link.
    expect(page.url()).toBe(`${eu.url}/events/${usEventId}`)

    await page.getByRole('link', { name: 'Back to this deployment’s app' }).click()
    await page.waitForURL(/\/catalog$/)
    await visit(page, 'wrong-region-back-home', 'Catalog')
  })

  it('explains an invitation of another region, and its link opens the invitation there', async () => {
    const path = `/invitations/accept?token=${usInvitation}`
    await page.goto(path)
    // The page previews the invitation before anyone signs in: that request already answers 421.
    await visit(page, 'wrong-region-invitation', 'This is kept in another region')
    const link = page.getByRole('link', { name: 'Open this page in us-east' })
    expect(await link.getAttribute('href')).toBe(`${us.url}${path}`)
    await link.click()
    await page.waitForURL(`${us.url}${path}`)
    await visit(page, 'wrong-region-followed', 'Accept an invitation')
    await page.getByRole('link', { name: 'Log in to accept' }).click()
    await page.getByLabel('Email').fill(invited.email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(`${us.url}${path}`)
    await page.getByRole('button', { name: 'Accept invitation' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe('You joined Hudson Records as Viewer.')
  })

  it('says so when this deployment does not know the other region’s address', async () => {
    await page.goto(`${us.url}/events/${euEventId}`)
    await visit(page, 'wrong-region-no-address', 'This is kept in another region')
    const text = (await page.getByRole('main').textContent()) ?? ''
    expect(text).toContain('It belongs to the eu-west (Ireland) region; this deployment serves us-east (USA, east)')
    expect(text).toContain('does not know the address of the eu-west deployment')
    expect(await page.getByRole('link', { name: /Open this page/ }).count()).toBe(0)
  })
})
