import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD } from './api.js'
import { launchBrowser, newPage, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * The partner program's front doors. Signed out, `/portal` offers the partner sign-up and log in;
 * the sign-up's region is this deployment's, another region a link to its own deployment's sign-up
 * carrying what was typed. A label's staff member (no partner) sees no portal tab, applies with
 * their account from the account page, keeps their orgs, gets one set of integration pages, and
 * switching org keeps them on the same kind of page.
 */
let eu: RunningService
let us: RunningService
let browser: Browser
let page: Page
let staff: { email: string; token: string }

const nav = () => page.getByRole('navigation', { name: 'Main' })
const switcher = () => page.getByLabel('Organisation')

beforeAll(async () => {
  ;[us, browser] = await Promise.all([startService({ REGION: 'us-east' }), launchBrowser()])
  eu = await startService({ REGION: 'eu-west', REGION_URL_US_EAST: us.url })
  ;({ page } = await newPage(browser, eu.url))
  staff = await apiUser(eu.url, 'label-staff')
  const org = await apiCall(eu.url, 'POST', '/api/orgs', { token: staff.token, body: { name: 'Quayside Label' } })
  expect(org.status).toBe(201)
}, 240_000)
afterAll(async () => {
  await browser?.close()
  await Promise.all([eu?.stop(), us?.stop()])
})

describe('the portal’s front doors', () => {
  it('offers partner sign-up and log in at /portal signed out', async () => {
    await page.goto('/portal')
    await visit(page, 'portal-welcome', 'Partner portal')
    expect(await page.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login?redirect=%2Fportal')
    await page.getByRole('link', { name: 'Sign up as a partner' }).click()
    await visit(page, 'portal-signup-regions', 'Become a partner')
  })

  it('offers this deployment’s region, and another region as a link carrying what was typed', async () => {
    const region = page.getByRole('group', { name: 'Data region' })
    expect(await region.getByRole('radio').count()).toBe(1)
    expect(await region.getByRole('radio', { name: 'European Union (eu-west)' }).isChecked()).toBe(true)
    // au-east has no known address here: it is not offered.
    expect(await region.getByRole('link').allTextContents()).toEqual(['Sign up in United States (us-east)'])
    await page.getByLabel('Your name').fill('Rosa Regions')
    await page.getByLabel('Work email').fill('rosa@example.com')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByLabel('Company').fill('Transatlantic Apps')
    await page.getByLabel('Partner tier').selectOption('platform_integrator')
    const link = region.getByRole('link', { name: 'Sign up in United States (us-east)' })
    const href = new URL((await link.getAttribute('href')) ?? '')
    expect(href.origin).toBe(us.url)
    expect(href.searchParams.get('password')).toBeNull()
    expect(href.search).not.toContain(encodeURIComponent(PASSWORD))
    await link.click()
    await page.waitForURL(`${us.url}/portal/signup?**`)
    await visit(page, 'portal-signup-other-region', 'Become a partner')
    expect(await page.getByLabel('Your name').inputValue()).toBe('Rosa Regions')
    expect(await page.getByLabel('Work email').inputValue()).toBe('rosa@example.com')
    expect(await page.getByLabel('Company').inputValue()).toBe('Transatlantic Apps')
    expect(await page.getByLabel('Partner tier').inputValue()).toBe('platform_integrator')
    expect(await page.getByLabel('Password').inputValue()).toBe('')
    expect(await page.getByRole('radio', { name: 'United States (us-east)' }).isChecked()).toBe(true)
  })

  it('shows label staff no portal tab; their account page offers to apply with this account', async () => {
    await page.goto(eu.url)
    await page.getByLabel('Email').fill(staff.email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/catalog$/)
    await expect.poll(() => nav().getByRole('link', { name: 'Catalog' }).count()).toBe(1)
    expect(await nav().getByRole('link', { name: 'Partner portal' }).count()).toBe(0)
    expect(await nav().getByRole('link', { name: 'Operator console' }).count()).toBe(0)
    expect(await nav().getByRole('link', { name: 'Webhooks' }).getAttribute('href')).toBe('/settings/webhooks')
    await page.getByRole('link', { name: 'Your account' }).click()
    await page.getByRole('link', { name: 'Apply as a partner with this account' }).click()
    await page.waitForURL(/\/portal\/apply$/)
    await visit(page, 'portal-apply', 'Apply as a partner')
  })

  it('sends someone signed in from the partner sign-up to the application, which keeps their orgs', async () => {
    await page.goto('/portal/signup')
    await page.waitForURL(/\/portal\/apply$/)
    await page.getByRole('button', { name: 'Apply as a partner' }).click()
    await expect.poll(() => page.getByLabel('Company').getAttribute('aria-invalid')).toBe('true')
    await page.getByLabel('Company').fill('Quayside Apps')
    await page.getByRole('button', { name: 'Apply as a partner' }).click()
    await visit(page, 'portal-applied', 'Your sandbox is ready')
    const secret = await page.getByLabel('Sandbox client secret').inputValue()
    expect(secret).toMatch(/^cs_test_/)
    const orgs = await switcher().locator('option').allTextContents()
    expect(orgs.some((name) => name.startsWith('Quayside Label'))).toBe(true)
    expect(await switcher().locator('option:checked').textContent()).toContain('Quayside Apps')
  })

  it('keeps the unsaved secret through a reload, warning first, until it is saved', async () => {
    const prompts: string[] = []
    page.on('dialog', (dialog) => {
      prompts.push(dialog.type())
      void dialog.accept()
    })
    await page.reload()
    await visit(page, 'portal-applied-reloaded', 'Your sandbox is ready')
    expect(await page.getByLabel('Sandbox client secret').inputValue()).toMatch(/^cs_test_/)
    expect(prompts).toContain('beforeunload')
    expect(await page.getByRole('link', { name: 'Continue to the partner portal' }).count()).toBe(0)
    await page.getByLabel('I have saved the secret').check()
    await page.getByRole('link', { name: 'Continue to the partner portal' }).click()
    await page.waitForURL(/\/portal$/)
    await visit(page, 'portal-after-apply', 'Partner portal')
    page.removeAllListeners('dialog')
  })

  it('gives a partner one set of integration pages and the portal tab', async () => {
    expect(await nav().getByRole('link', { name: 'Partner portal' }).count()).toBe(1)
    expect(await nav().getByRole('link', { name: 'Webhooks' }).getAttribute('href')).toBe('/portal/webhooks')
    expect(await nav().getByRole('link', { name: 'API credentials' }).getAttribute('href')).toBe('/portal/credentials')
    expect(await page.locator('a[href^="/settings/"]').count()).toBe(0)
  })

  it('keeps the kind of page when switching org: a record’s page becomes its list', async () => {
    await nav().getByRole('link', { name: 'API credentials' }).click()
    await page
      .getByRole('table', { name: /API credentials/ })
      .getByRole('link')
      .first()
      .click()
    await page.waitForURL(/\/portal\/credentials\/cli_/)
    await switchTo('Quayside Label')
    await page.waitForURL(/\/portal\/credentials$/)
    await visit(page, 'switched-credentials', 'API credentials')
    await switchTo('Quayside Apps')
    await nav().getByRole('link', { name: 'Creators' }).click()
    await page.getByRole('link', { name: 'Mira Vos' }).click()
    await page.waitForURL(/\/creators\/crt_/)
    await switchTo('Quayside Label')
    await page.waitForURL(/\/creators$/)
    await visit(page, 'switched-creators', 'Creators')
  })
})

/** Chooses an org in the switcher by its name (its option adds the environment and the role). */
async function switchTo(name: string): Promise<void> {
  const value = await switcher().locator('option', { hasText: name }).getAttribute('value')
  await switcher().selectOption(value!)
}
