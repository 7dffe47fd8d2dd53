import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, PASSWORD, uniqueEmail } from './api.js'
import { launchBrowser, newPage, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * The account page, from the user menu: the person's name and email, the emails they may choose
 * (each with the API's description) and the note that security emails always go; a choice saved
 * stays after a reload, as the API keeps it.
 */
let service: RunningService
let browser: Browser
let page: Page
let account: { email: string; token: string }

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ page } = await newPage(browser, service.url))
  const email = uniqueEmail('account')
  const signup = await apiCall<{ token: string }>(service.url, 'POST', '/api/auth/signup', {
    body: { email, password: PASSWORD, name: 'Ada Account' },
  })
  expect(signup.status).toBe(201)
  account = { email, token: signup.body.token }
  await apiCall(service.url, 'POST', '/api/orgs', { token: account.token, body: { name: 'Account Music' } })
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

describe('the account page', () => {
  it('is reached from the user menu and shows who is signed in', async () => {
    await page.goto('/')
    await page.getByLabel('Email').fill(account.email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/catalog$/)
    await page.getByRole('link', { name: 'Your account' }).click()
    await visit(page, 'account', 'Your account')
    const details = (await page.locator('dl.details').textContent()) ?? ''
    expect(details).toContain('Ada Account')
    expect(details).toContain(account.email)
  })

  it('offers the non-security emails with their descriptions, and says security emails always go', async () => {
    const choices = page.getByRole('group', { name: 'Also email me about' })
    await expect.poll(() => choices.getByRole('checkbox').count()).toBe(3)
    const payouts = choices.getByRole('checkbox', { name: 'Payouts moving' })
    expect(await payouts.isChecked()).toBe(false)
    expect(await choices.getByRole('checkbox', { name: 'A webhook endpoint disabled' }).isChecked()).toBe(true)
    expect(await choices.getByRole('checkbox', { name: 'Partner review decisions' }).isChecked()).toBe(true)
    // Each box is described by the API's own description of the kind.
    const kinds = await apiCall<{ data: { kind: string; description: string }[] }>(
      service.url,
      'GET',
      '/api/email-kinds',
    )
    const payoutKind = kinds.body.data.find((kind) => kind.kind === 'payout_status')!
    const describedBy = (await payouts.getAttribute('aria-describedby')) ?? ''
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(`${payoutKind.description}.`)
    expect(await page.getByText('Security emails always go').textContent()).toContain('password reset links')
  })

  it('keeps a choice: ticked, saved, still ticked after a reload', async () => {
    const choices = page.getByRole('group', { name: 'Also email me about' })
    await choices.getByRole('checkbox', { name: 'Payouts moving' }).check()
    await choices.getByRole('checkbox', { name: 'Partner review decisions' }).uncheck()
    await page.getByRole('button', { name: 'Save email choices' }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).count()).toBe(1)
    await visit(page, 'account-saved', 'Your account')
    await page.reload()
    const reloaded = page.getByRole('group', { name: 'Also email me about' })
    await expect.poll(() => reloaded.getByRole('checkbox', { name: 'Payouts moving' }).isChecked()).toBe(true)
    expect(await reloaded.getByRole('checkbox', { name: 'Partner review decisions' }).isChecked()).toBe(false)
    const kept = await apiCall(service.url, 'GET', '/api/account/email-preferences', { token: account.token })
    expect(kept.body).toEqual({ payout_status: true, webhook_disabled: true, partner_review: false })
  })
})
