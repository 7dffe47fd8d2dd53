import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD, uniqueEmail } from './api.js'
import { expectPeoplesWords, launchBrowser, newPage, visit } from './browser.js'
import { emailsTo, linkTo } from './mail.js'
import { startService, type RunningService } from './service.js'

/**
 * A person who forgot their password: from the login page to "Forgot password?", the link read from
 * the email the service wrote, a new password (typed twice), the login page saying it changed, and
 * logging in with it; the same link a second time is refused in people's words.
 */
let service: RunningService
let browser: Browser
let page: Page
let email: string
let link: string
const NEW_PASSWORD = 'a brand new passphrase'

/** The error shown at a field (the control is marked invalid and described by it). */
async function fieldError(label: string): Promise<string> {
  const field = page.getByLabel(label, { exact: true })
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true')
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-error'))
  return (await page.locator(`[id="${ids[0]}"]`).textContent()) ?? ''
}

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ page } = await newPage(browser, service.url))
  ;({ email } = await apiUser(service.url, 'forgetful'))
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

describe('a forgotten password', () => {
  it('asks for a link from the login page, and says the same whether or not the account exists', async () => {
    await page.goto('/')
    await page.waitForURL(/\/login/)
    await visit(page, 'login', 'Log in')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await visit(page, 'forgot-password', 'Reset your password')
    await page.getByLabel('Email').fill('not an address')
    await page.getByRole('button', { name: 'Send the link' }).click()
    expect(await fieldError('Email')).toBe('Enter an email address, such as name@example.com')
    await expectPeoplesWords(page, 'forgot-password-refused')

    const nobody = uniqueEmail('nobody')
    await page.getByLabel('Email').fill(nobody)
    await page.getByRole('button', { name: 'Send the link' }).click()
    await visit(page, 'forgot-password-sent', 'Check your email')
    const answer = (await page.getByRole('status').textContent()) ?? ''
    expect(answer).toBe(
      `If an account exists for ${nobody}, we sent a link to it. The link works once, for 60 minutes.`,
    )

    await page.getByRole('link', { name: 'ask again' }).click()
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send the link' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toBe(answer.replace(nobody, email))
  })

  it('opens the emailed link and sets a new password, typed twice', async () => {
    const [message] = await emailsTo(service.dataDir, email, /Reset your .* password/)
    link = linkTo(message!, '/reset-password')
    expect(link.startsWith(`${service.url}/reset-password?token=`)).toBe(true)
    await page.goto(link)
    await visit(page, 'reset-password', 'Set a new password')
    await page.getByLabel('New password').fill('short')
    await page.getByLabel('Same password again').fill('short')
    await page.getByRole('button', { name: 'Set the password' }).click()
    expect(await fieldError('New password')).toBe('New password needs at least 10 characters')
    await page.getByLabel('New password').fill(NEW_PASSWORD)
    await page.getByLabel('Same password again').fill(`${NEW_PASSWORD}!`)
    await page.getByRole('button', { name: 'Set the password' }).click()
    expect(await fieldError('Same password again')).toBe('Type the same password in both fields')
    await visit(page, 'reset-password-refused', 'Set a new password')
    await expectPeoplesWords(page, 'reset-password-refused')

    await page.getByLabel('Same password again').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Set the password' }).click()
    await page.waitForURL(/\/login\?notice=password-changed/)
    await visit(page, 'login-password-changed', 'Log in')
    expect(await page.getByRole('status').textContent()).toContain('Your password is changed')
  })

  it('logs in with the new password (the old one no longer works)', async () => {
    const old = await apiCall(service.url, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } })
    expect(old.status).toBe(401)
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(NEW_PASSWORD)
    await page.getByRole('button', { name: 'Log in' }).click()
    // A new account has no org yet: the app asks to create one.
    await page.waitForURL(/\/orgs\/new$/)
    await visit(page, 'after-reset', 'New organisation')
  })

  it('refuses the same link a second time, saying what to do', async () => {
    await page.goto(link)
    await page.getByLabel('New password').fill('yet another passphrase')
    await page.getByLabel('Same password again').fill('yet another passphrase')
    await page.getByRole('button', { name: 'Set the password' }).click()
    await expect
      .poll(() => page.locator('.form-error').textContent())
      .toBe('This link has been used already or has expired: ask for a new one')
    await visit(page, 'reset-password-used', 'Set a new password')
    await expectPeoplesWords(page, 'reset-password-used')
    await page.getByRole('link', { name: 'Ask for a new link' }).click()
    await visit(page, 'forgot-password-again', 'Reset your password')
  })
})
