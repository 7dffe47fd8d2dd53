import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectAccessible, launchBrowser, newPage, screenshots, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * Label staff from the login page to a paid payout by clicking only, on the demo org the service
 * seeds (the demo login it prints): Balances, Create payout (asked first, naming amount, currency and
 * payee), then the payout to paid: a sandbox payout follows its rail by itself (the page polls), a
 * manual one is marked in transit, then paid, each asked first.
 */
let service: RunningService
let browser: Browser
let page: Page

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ page } = await newPage(browser, service.url))
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

describe('label staff pay a creator', () => {
  it('logs in and creates a payout from the balances, confirmed by amount, currency and payee', async () => {
    const [, email, password] = /demo login: (\S+) \/ (\S+)/.exec(service.output())!
    await page.goto('/')
    await page.waitForURL(/\/login/)
    await visit(page, 'label-login', /Log in/i)
    await page.getByLabel('Email').fill(email!)
    await page.getByLabel('Password').fill(password!)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/catalog$/)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Balances' }).click()
    const payable = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Create payout' }) })
    await expect.poll(() => payable.count()).toBeGreaterThan(0)
    await visit(page, 'label-balances', 'Balances')
    await payable.first().getByRole('button', { name: 'Create payout' }).click()
    const confirm = page.getByRole('dialog', { name: /^Pay \d+(\.\d+)? [A-Z]{3} to .+\?$/ })
    await confirm.waitFor()
    await expectAccessible(page, 'label-payout-confirm')
    await screenshots(page, 'label-payout-confirm')
    await confirm.getByRole('button', { name: /^Create the payout of/ }).click()
    await page.waitForURL(/\/payouts\/po_/)
    await visit(page, 'label-payout-created', /^Payout of/)
  })

  it('takes the payout to paid', async () => {
    const inTransit = page.getByRole('button', { name: 'Mark in transit' })
    const paidBadge = page.getByText('Paid', { exact: true })
    // A manual payout waits for someone; a sandbox one moves by itself while the page polls.
    await expect.poll(async () => (await inTransit.count()) + (await paidBadge.count()), { timeout: 30_000 }).toBe(1)
    if ((await inTransit.count()) === 1) {
      await inTransit.click()
      const asking = page.getByRole('dialog', { name: /^Mark the payout of .+ in transit\?$/ })
      await asking.getByRole('button', { name: 'Yes, mark it in transit' }).click()
      await asking.waitFor({ state: 'detached' })
      await page.getByRole('button', { name: 'Mark paid' }).click()
      const paid = page.getByRole('dialog', { name: /^Mark the payout of \d+(\.\d+)? [A-Z]{3} to .+ paid\?$/ })
      await paid.waitFor()
      await expectAccessible(page, 'label-mark-paid-confirm')
      await screenshots(page, 'label-mark-paid-confirm')
      await paid.getByRole('button', { name: 'Yes, mark it paid' }).click()
      await paid.waitFor({ state: 'detached' })
    }
    await expect.poll(() => paidBadge.count(), { timeout: 30_000 }).toBe(1)
    await visit(page, 'label-payout-paid', /^Payout of/)
  })
})
