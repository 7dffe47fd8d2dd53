import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD } from './api.js'
import { expectAccessible, expectPeoplesWords, launchBrowser, newPage, screenshots, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * Money pages that stay true: a sandbox payout moves pending, in transit, paid on its own and its
 * page follows it without a reload, then stops asking; a manual payout paid behind the page's back
 * refuses "Cancel payout", and the page shows the error and the state the server kept.
 */
let service: RunningService
let browser: Browser
let page: Page
let token: string
let productionOrg: string
const payoutReads: string[] = []

const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true })
const status = () => page.locator('.page-header .badge')

/** A creator with a work split to them and revenue allocated, in the bearer session's active org. */
async function earning(name: string) {
  const creator = await apiCall<{ id: string }>(service.url, 'POST', '/api/creators', {
    token,
    body: { name, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' },
  })
  expect(creator.status).toBe(201)
  const work = await apiCall<{ id: string }>(service.url, 'POST', '/api/catalog', {
    token,
    body: {
      kind: 'work',
      title: `${name}’s Song`,
      splits: [{ creatorId: creator.body.id, role: 'composer', shareBps: 10000 }],
    },
  })
  expect(work.status).toBe(201)
  const revenue = await apiCall(service.url, 'POST', '/api/revenue', {
    token,
    body: {
      catalogId: work.body.id,
      source: 'Spotify',
      type: 'stream',
      periodStart: '2026-09-01',
      periodEnd: '2026-09-30',
      territory: 'NL',
      units: 1000,
      amount: '48.00',
      currency: 'EUR',
    },
  })
  expect(revenue.status).toBe(201)
}

/** From the balances page: "Create payout" for the creator, confirmed in the dialog that names amount and payee. */
async function pay(name: string): Promise<string> {
  await nav('Balances').click()
  await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: 'Create payout' }).click()
  const confirm = page.getByRole('dialog', { name: `Pay 48.00 EUR to ${name}?` })
  await confirm.getByRole('button', { name: 'Create the payout of 48.00 EUR' }).click()
  await page.waitForURL(/\/payouts\/po_/)
  return /po_[0-9A-Z]+/.exec(page.url())![0]
}

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ page } = await newPage(browser, service.url))
  const owner = await apiUser(service.url, 'states-owner')
  token = owner.token
  const production = await apiCall<{ id: string }>(service.url, 'POST', '/api/orgs', {
    token,
    body: { name: 'Quay Records' },
  })
  expect(production.status).toBe(201)
  productionOrg = production.body.id
  await earning('Mila Manual')
  const sandbox = await apiCall(service.url, 'POST', '/api/orgs', {
    token,
    body: { name: 'Quay Sandbox', environment: 'sandbox' },
  })
  expect(sandbox.status).toBe(201)
  await earning('Sam Sandbox')
  page.on('request', (request) => {
    if (request.method() === 'GET' && /^\/api\/payouts\/po_[0-9A-Z]+$/.test(new URL(request.url()).pathname))
      payoutReads.push(new URL(request.url()).pathname)
  })
  await page.goto('/')
  await page.waitForURL(/\/login/)
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/catalog$/)
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

describe('money pages that stay true', () => {
  it('follows a sandbox payout from pending to paid without a reload, then stops asking', async () => {
    await page.getByLabel('Organisation').selectOption({ label: 'Quay Sandbox (sandbox) · owner' })
    await expect
      .poll(() => page.getByLabel('Organisation').locator('option:checked').textContent())
      .toContain('Sandbox')
    await pay('Sam Sandbox')
    // Every status the badge shows, as it shows it; a reload would lose the list.
    await page.evaluate(() => {
      const shown: string[] = []
      const record = () => {
        const text = document.querySelector('.page-header .badge')?.textContent
        if (text && shown.at(-1) !== text) shown.push(text)
      }
      record()
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true })
      ;(window as unknown as { shown: string[] }).shown = shown
    })
    await visit(page, 'payout-sandbox-moving', 'Payout of 48.00 EUR')
    expect(await page.getByRole('status').filter({ hasText: 'moves this payout on by itself' }).count()).toBe(1)
    await expect.poll(() => status().textContent(), { timeout: 20_000 }).toBe('Paid')
    const shown = await page.evaluate(() => (window as unknown as { shown: string[] }).shown)
    expect(shown.at(-1)).toBe('Paid')
    expect(shown.length, `the statuses shown: ${shown.join(', ')}`).toBeGreaterThan(1)
    expect(await page.getByText('Pending', { exact: true }).count()).toBe(0)
    expect(await page.getByRole('status').filter({ hasText: 'moves this payout on by itself' }).count()).toBe(0)
    await visit(page, 'payout-sandbox-paid', 'Payout of 48.00 EUR')
    // Final: no more asking.
    const reads = payoutReads.length
    await page.waitForTimeout(4500)
    expect(payoutReads.length).toBe(reads)
  })

  it('shows the refusal and the state the server kept when the payout was paid meanwhile', async () => {
    await page.getByLabel('Organisation').selectOption({ label: 'Quay Records · owner' })
    await expect
      .poll(() => page.getByLabel('Organisation').locator('option:checked').textContent())
      .toContain('Records')
    const id = await pay('Mila Manual')
    await visit(page, 'payout-manual-pending', 'Payout of 48.00 EUR')
    expect(await status().textContent()).toBe('Pending')
    // Someone else moves it on, through the API, while this page still shows it pending.
    expect(
      (await apiCall(service.url, 'POST', '/api/session/active-org', { token, body: { orgId: productionOrg } })).status,
    ).toBe(200)
    expect((await apiCall(service.url, 'POST', `/api/payouts/${id}/mark-in-transit`, { token })).status).toBe(200)
    expect((await apiCall(service.url, 'POST', `/api/payouts/${id}/mark-paid`, { token })).status).toBe(200)
    expect(await status().textContent()).toBe('Pending')

    await page.getByRole('button', { name: 'Cancel payout' }).click()
    const confirm = page.getByRole('dialog', { name: 'Cancel the payout of 48.00 EUR to Mila Manual?' })
    await confirm.waitFor()
    await expectAccessible(page, 'payout-cancel-confirm')
    await screenshots(page, 'payout-cancel-confirm')
    await confirm.getByRole('button', { name: 'Yes, cancel the payout' }).click()
    await confirm.waitFor({ state: 'detached' })
    await expect
      .poll(() => page.locator('.form-error').textContent())
      .toBe('This was changed meanwhile and no longer allows that. The page now shows its current state.')
    await expect.poll(() => status().textContent()).toBe('Paid')
    expect(await page.getByRole('button', { name: /Cancel payout|Mark/ }).count()).toBe(0)
    await visit(page, 'payout-cancel-refused', 'Payout of 48.00 EUR')
    await expectPeoplesWords(page, 'payout-cancel-refused')
    const stored = await apiCall<{ status: string }>(service.url, 'GET', `/api/payouts/${id}`, { token })
    expect(stored.body.status).toBe('paid')
  })
})
