import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, PASSWORD, uniqueEmail } from './api.js'
import { expectAccessible, expectPeoplesWords, launchBrowser, newPage, screenshots, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * The API's refusals in people's words, on every form: a new user signs up, makes an org, a
 * creator, a catalog entry, an event, revenue, an import, an invitation, a credential, a webhook,
 * filters lists and fails a payout, each first with bad input. Every time the page says what to do
 * in the field's own label, shows each error in one place (at its field, else once at the top),
 * and no validator phrase or camelCase parameter name reaches the screen.
 */
let service: RunningService
let browser: Browser
let page: Page
const email = uniqueEmail('words')

const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true })

/** The error shown at a field: the control is marked invalid and described by it. */
async function fieldError(label: string | RegExp, scope: Page | ReturnType<Page['locator']> = page): Promise<string> {
  const field = scope.getByLabel(label, { exact: typeof label === 'string' })
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true')
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-error'))
  expect(ids).toHaveLength(1)
  return (await page.locator(`[id="${ids[0]}"]`).textContent()) ?? ''
}

/** The message at the top of the form (a refusal that belongs to no field). */
const formError = () => page.locator('.form-error').first().textContent()

/** The page after a refused submit: axe-core and screenshots, then the words on it. */
async function refused(name: string, heading: string | RegExp) {
  await visit(page, name, heading)
  return expectPeoplesWords(page, name)
}

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ page } = await newPage(browser, service.url))
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

describe('every form speaks people’s words', () => {
  it('sign-up: what is missing, and a password too short', async () => {
    await page.goto('/')
    await page.getByRole('link', { name: 'Sign up' }).click()
    await page.getByRole('button', { name: 'Sign up' }).click()
    expect(await fieldError('Name')).toBe('Name is required')
    expect(await fieldError('Email')).toBe('Enter an email address, such as name@example.com')
    await refused('words-signup-empty', 'Create your account')
    await page.getByLabel('Name').fill('Wendy Words')
    await page.getByLabel('Email').fill('not an address')
    await page.getByLabel('Password').fill('short')
    await page.getByRole('button', { name: 'Sign up' }).click()
    await expect.poll(() => fieldError('Password')).toBe('Password needs at least 10 characters')
    expect(await fieldError('Email')).toBe('Enter an email address, such as name@example.com')
    await refused('words-signup-short', 'Create your account')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign up' }).click()
    await page.waitForURL(/\/orgs\/new$/)
  })

  it('a new organisation without a name', async () => {
    await page.getByRole('button', { name: 'Create organisation' }).click()
    expect(await fieldError('Name')).toBe('Name is required')
    await refused('words-org', 'New organisation')
    await page.getByLabel('Name').fill('Words Music')
    await page.getByLabel(/^Production/).check()
    await page.getByRole('button', { name: 'Create organisation' }).click()
    await page.waitForURL(/\/catalog$/)
  })

  it('a creator: required, a country code, a decimal comma and an email address', async () => {
    await nav('Creators').click()
    await page.getByRole('button', { name: 'New creator' }).click()
    await page.getByLabel('Country').fill('N1')
    await page.getByLabel('Minimum payout').fill('25,00')
    await page.getByLabel('Email').fill('ada-at-example')
    await page.getByRole('button', { name: 'Create creator' }).click()
    expect(await fieldError('Name')).toBe('Name is required')
    expect(await fieldError('Minimum payout')).toBe('Use a dot for decimals: 25.00')
    expect(await fieldError('Country')).toBe('Use the two-letter country code, such as NL')
    expect(await fieldError('Email')).toBe('Enter an email address, such as name@example.com')
    const { forms } = await refused('words-creator', 'New creator')
    expect(forms).toEqual([])
    await page.getByLabel('Name', { exact: true }).fill('Ada Vos')
    await page.getByLabel('Country').fill('NL')
    await page.getByLabel('Minimum payout').fill('1.00')
    await page.getByLabel('Email').fill('ada@example.com')
    await page.getByRole('button', { name: 'Create creator' }).click()
    await visit(page, 'words-creator-made', 'Ada Vos')
  })

  it('a catalog entry: a title, a creator and a share that is a whole number', async () => {
    await nav('Catalog').click()
    await page.getByRole('button', { name: 'New catalog entry' }).click()
    await page.getByLabel('Title').fill('')
    await page.getByLabel('Split 1: share (basis points)').fill('ten')
    await page.getByRole('button', { name: 'Create entry' }).click()
    expect(await fieldError('Title')).toBe('Title is required')
    expect(await fieldError('Split 1: share (basis points)')).toBe('Enter a whole number')
    expect(await fieldError('Split 1: creator')).not.toBe('')
    await refused('words-catalog', 'New catalog entry')
    await page.getByLabel('Title').fill('Quiet Harbour')
    await page.getByLabel('Split 1: creator').selectOption({ label: 'Ada Vos' })
    await page.getByLabel('Split 1: share (basis points)').fill('10000')
    await page.getByLabel('Territories').fill('Netherlands')
    await page.getByRole('button', { name: 'Create entry' }).click()
    expect(await fieldError('Territories')).toBe('Use two-letter country codes such as NL, DE, or WORLD')
    await refused('words-catalog-territories', 'New catalog entry')
    await page.getByLabel('Territories').fill('NL, DE')
    await page.getByRole('button', { name: 'Create entry' }).click()
    await page.waitForURL(/\/catalog\/cat_/)
  })

  it('a ticketed event with nothing filled in', async () => {
    await nav('Events').click()
    await page.getByRole('button', { name: 'New event' }).click()
    await page.getByLabel('Capacity').fill('lots')
    await page.getByRole('button', { name: 'Create event' }).click()
    expect(await fieldError('Event name')).toBe('Event name is required')
    expect(await fieldError('Capacity')).toBe('Enter a whole number')
    await refused('words-event', 'New ticketed event')
  })

  it('revenue: a source, whole units and a decimal amount; a currency filter', async () => {
    await nav('Revenue').click()
    await page.getByRole('button', { name: 'Record revenue' }).click()
    await page.getByLabel('Catalog entry').selectOption({ label: 'Quiet Harbour' })
    await page.getByLabel('Period start').fill('2026-09-01')
    await page.getByLabel('Period end').fill('2026-09-30')
    await page.getByLabel('Territory').fill('NL')
    await page.getByLabel('Units').fill('lots')
    await page.getByLabel('Amount').fill('12,50')
    await page.getByRole('button', { name: 'Record revenue' }).click()
    expect(await fieldError('Source', page)).toBe('Source is required')
    expect(await fieldError('Units')).toBe('Enter a whole number')
    expect(await fieldError('Amount')).toBe('Use a dot for decimals: 12.50')
    await refused('words-revenue', 'Record revenue')
    // A period that ends before it starts: a rule of the service, at its field.
    await page.getByLabel('Source', { exact: true }).fill('Spotify')
    await page.getByLabel('Units').fill('1000')
    await page.getByLabel('Amount').fill('12.50')
    await page.getByLabel('Period end').fill('2026-08-01')
    await page.getByRole('button', { name: 'Record revenue' }).click()
    expect(await fieldError('Period end')).toBe('End the period on or after the day it starts')
    await refused('words-revenue-period', 'Record revenue')
    await page.getByLabel('Period end').fill('2026-09-30')
    await page.getByRole('button', { name: 'Record revenue' }).click()
    await page.waitForURL(/\/revenue$/)

    await page.getByLabel('Currency').fill('E1')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    expect(await fieldError('Currency')).toBe('Use the three-letter currency code, such as EUR')
    const { forms } = await refused('words-revenue-filter', 'Revenue')
    expect(forms).toEqual([])
    expect(await page.getByRole('alert').textContent()).toContain('Correct the filters above')
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await page.waitForURL(/\/revenue$/)
  })

  it('an import of a file that is not a statement', async () => {
    await page.getByRole('button', { name: 'Import a statement' }).click()
    await page.getByLabel('Statement file (CSV)').setInputFiles({
      name: 'wrong.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('name,amount\nAda,1.00\n'),
    })
    await page.getByLabel('Source', { exact: true }).fill('Spotify')
    await page.getByRole('button', { name: 'Import' }).click()
    await expect.poll(formError).toMatch(/^The statement has no isrc/)
    await refused('words-import', 'Import a statement')
  })

  it('an invitation to an address that is not one', async () => {
    await nav('Members').click()
    await page.getByLabel('Email').fill('vera')
    await page.getByRole('button', { name: 'Invite member' }).click()
    expect(await fieldError('Email')).toBe('Enter an email address, such as name@example.com')
    await refused('words-invite', 'Members')
  })

  it('a credential: a name and a scope, then a refusal that belongs to no field', async () => {
    await nav('API credentials').click()
    await page.getByRole('link', { name: 'New credential' }).click()
    await page.getByRole('button', { name: 'Create credential' }).click()
    expect(await fieldError('Name')).toBe('Name is required')
    const scopes = page.getByRole('group', { name: 'Scopes' })
    expect(await scopes.locator('.field-error').textContent()).toBe('Choose at least one: scopes')
    await refused('words-credential', 'New credential')
    // A production org gets credentials only once its partner review has passed: said once, at the top.
    await page.getByLabel('Name', { exact: true }).fill('Dashboard')
    await page.getByLabel('events:read', { exact: true }).check()
    await page.getByRole('button', { name: 'Create credential' }).click()
    await expect.poll(formError).toMatch(/production/i)
    const { fields } = await refused('words-credential-production', 'New credential')
    expect(fields).toEqual([])
  })

  it('a webhook: an address that is not https, and no kind', async () => {
    await nav('Webhooks').click()
    await page.getByRole('link', { name: 'Register webhook' }).click()
    await page.getByLabel('Endpoint URL').fill('ftp://example.com/hook')
    await page.getByRole('button', { name: 'Register webhook' }).click()
    await expect
      .poll(() => page.getByRole('group', { name: 'Kinds', exact: true }).locator('.field-error').first().textContent())
      .toBe('Choose at least one: kinds')
    await refused('words-webhook', 'Register a webhook')
    await page.getByLabel('payout.paid', { exact: true }).check()
    await page.getByRole('button', { name: 'Register webhook' }).click()
    expect(await fieldError('Endpoint URL')).toBe('Endpoint URL must use https')
    await refused('words-webhook-url', 'Register a webhook')
  })

  it('an audit log filter cannot be mistyped: days are picked and actions chosen', async () => {
    await nav('Audit log').click()
    expect(await page.getByLabel('From').getAttribute('type')).toBe('date')
    expect(await page.getByLabel('To').getAttribute('type')).toBe('date')
    expect(await page.getByLabel('Action').evaluate((field) => field.tagName)).toBe('SELECT')
    await expectPeoplesWords(page, 'words-audit-filter')
  })

  it('a payout marked failed without a reason', async () => {
    await nav('Balances').click()
    const ada = page.getByRole('row').filter({ hasText: 'Ada Vos' })
    await ada.getByRole('button', { name: 'Create payout' }).click()
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Create the payout of/ })
      .click()
    await page.waitForURL(/\/payouts\/po_/)
    await page.getByRole('button', { name: 'Mark failed' }).click()
    const dialog = page.getByRole('dialog', { name: /^Mark the payout of .* to Ada Vos failed\?$/ })
    await dialog.getByLabel('Failure code').fill('Bank Said No')
    await dialog.getByRole('button', { name: 'Mark the payout failed' }).click()
    expect(await fieldError('Reason')).toBe('Reason is required')
    expect(await fieldError('Failure code')).toBe('Use lowercase letters and underscores, such as account_closed')
    // The dialog is over the page (whose heading is hidden meanwhile): checked as it is.
    await expectAccessible(page, 'words-payout-failed')
    await screenshots(page, 'words-payout-failed')
    await expectPeoplesWords(page, 'words-payout-failed')
  })

  it('a login with the wrong password: said once, at the top', async () => {
    await page.keyboard.press('Escape')
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL(/\/login/)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('not the password')
    await page.getByRole('button', { name: 'Log in' }).click()
    await expect.poll(formError).toBe('Email or password is incorrect')
    const { fields } = await refused('words-login', 'Log in')
    expect(fields).toEqual([])
  })

  it('the partner sign-up, application and agreement', async () => {
    await page.goto('/portal/signup')
    await visit(page, 'words-partner-signup-page', 'Become a partner')
    await page.getByLabel('Password').fill('short')
    await page.getByRole('button', { name: 'Sign up as a partner' }).click()
    expect(await fieldError('Your name')).toBe('Your name is required')
    expect(await fieldError('Company')).toBe('Company is required')
    expect(await fieldError('Password')).toBe('Password needs at least 10 characters')
    await refused('words-partner-signup', 'Become a partner')
    const partnerEmail = uniqueEmail('words-partner')
    await page.getByLabel('Your name').fill('Pat Partner')
    await page.getByLabel('Work email').fill(partnerEmail)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByLabel('Company').fill('Words Integrations')
    await page.getByRole('button', { name: 'Sign up as a partner' }).click()
    await page.getByLabel('I have saved the secret').check()
    await page.getByRole('link', { name: 'Continue to the partner portal' }).click()
    await visit(page, 'words-portal', 'Partner portal')

    const application = page.getByRole('form', { name: 'Application' })
    await application.getByLabel('Company website').fill('harbour.example')
    await application.getByLabel('Expected requests per month').fill('lots')
    await application.getByRole('button', { name: 'Submit application' }).click()
    expect(await fieldError('Company website', application)).toBe('Start the website with https://')
    expect(await fieldError('Expected requests per month', application)).toBe('Enter a whole number')
    expect(await fieldError('What you will build', application)).toBe('What you will build is required')
    await refused('words-application', 'Partner portal')

    const agreement = page.getByRole('form', { name: 'Partner agreement' })
    await agreement.getByLabel('Signer’s full name').fill('Pat Partner')
    await agreement.getByRole('button', { name: 'Sign the agreement' }).click()
    expect(await fieldError('I accept the partner agreement', agreement)).toBe('Tick the box to accept the agreement')
    await refused('words-agreement', 'Partner portal')
    // The API agrees: the partner exists and nothing was signed.
    const login = await apiCall<{ token: string }>(service.url, 'POST', '/api/auth/login', {
      body: { email: partnerEmail, password: PASSWORD },
    })
    const partner = await apiCall<{ onboarding: { steps: { key: string; status: string }[] } }>(
      service.url,
      'GET',
      '/api/partner',
      { token: login.body.token },
    )
    expect(partner.body.onboarding.steps.find((step) => step.key === 'agreement')?.status).not.toBe('done')
    expect(partner.body.onboarding.steps.find((step) => step.key === 'application')?.status).not.toBe('done')
  })
})
