import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD } from './api.js'
import { launchBrowser, newPage, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/** A viewer sees the org's records and no write button; the API refuses the write all the same. */
let service: RunningService
let browser: Browser
let page: Page
let entryId: string

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ page } = await newPage(browser, service.url))
  const owner = await apiUser(service.url, 'owner')
  const org = await apiCall(service.url, 'POST', '/api/orgs', { token: owner.token, body: { name: 'Viewer Test' } })
  expect(org.status).toBe(201)
  const creator = await apiCall<{ id: string }>(service.url, 'POST', '/api/creators', {
    token: owner.token,
    body: { name: 'Cleo North', kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
  })
  const entry = await apiCall<{ id: string }>(service.url, 'POST', '/api/catalog', {
    token: owner.token,
    body: {
      kind: 'work',
      title: 'Quiet Hours',
      splits: [{ creatorId: creator.body.id, role: 'composer', shareBps: 10000 }],
    },
  })
  expect(entry.status).toBe(201)
  entryId = entry.body.id
  const viewer = await apiUser(service.url, 'viewer')
  const invitation = await apiCall<{ token: string }>(service.url, 'POST', '/api/members/invitations', {
    token: owner.token,
    body: { email: viewer.email, role: 'viewer' },
  })
  expect(invitation.status).toBe(201)
  const accepted = await apiCall(service.url, 'POST', '/api/invitations/accept', {
    token: viewer.token,
    body: { token: invitation.body.token },
  })
  expect(accepted.status).toBe(200)
  await page.goto('/login')
  await page.getByLabel('Email').fill(viewer.email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/catalog$/)
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

describe('a viewer', () => {
  it('sees the catalog and an entry without New or Correct buttons', async () => {
    expect(await page.getByLabel('Organisation').locator('option:checked').textContent()).toContain('viewer')
    await expect.poll(() => page.getByRole('link', { name: 'Quiet Hours' }).count()).toBe(1)
    await visit(page, 'viewer-catalog', 'Catalog')
    expect(await page.getByRole('button', { name: 'New catalog entry' }).count()).toBe(0)
    await page.getByRole('link', { name: 'Quiet Hours' }).click()
    await visit(page, 'viewer-catalog-detail', 'Quiet Hours')
    expect(await page.getByRole('button', { name: 'Correct this entry' }).count()).toBe(0)
    expect(
      await page
        .getByRole('button')
        .filter({ hasText: /correct|new|create/i })
        .count(),
    ).toBe(0)
  })

  it('sees creators without a New creator button', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Creators' }).click()
    await expect.poll(() => page.getByRole('link', { name: 'Cleo North' }).count()).toBe(1)
    await visit(page, 'viewer-creators', 'Creators')
    expect(await page.getByRole('button', { name: 'New creator' }).count()).toBe(0)
  })

  it('is refused by the API when it writes all the same', async () => {
    const answer = await page.evaluate(async (supersedes) => {
      const response = await fetch('/api/catalog', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-oeuvre-csrf': '1' },
        body: JSON.stringify({ kind: 'work', title: 'Not mine', supersedes, splits: [] }),
      })
      return { status: response.status, code: ((await response.json()) as { code: string }).code }
    }, entryId)
    expect(answer).toEqual({ status: 403, code: 'forbidden' })
  })
})
