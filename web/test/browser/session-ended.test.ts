import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD } from './api.js'
import { expectAccessible, expectPeoplesWords, launchBrowser, newPage, screenshots, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * A session that ends while a form is filled in (logged out elsewhere): submitting asks to sign
 * in again over the page, never leaves it; closing that dialog keeps the form as it was; signing
 * in sends the same request again with the same Idempotency-Key, in the org the page was in, and
 * the record is created once. A list whose session ended asks the same way.
 */
let service: RunningService
let browser: Browser
let context: BrowserContext
let page: Page
let owner: { email: string; token: string }
let secondOrg: string
const creatorPosts: { key: string | null; status: number }[] = []

const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true })
const signInDialog = () => page.getByRole('dialog', { name: 'Sign in to continue' })

/** Logs the browser's session out on the server, from another tab with the same cookie (as another window would). */
async function endSessionElsewhere() {
  const other = await context.newPage()
  await other.goto('/no-such-page')
  const status = await other.evaluate(
    async () => (await fetch('/api/auth/logout', { method: 'POST', headers: { 'x-oeuvre-csrf': '1' } })).status,
  )
  expect(status).toBe(204)
  await other.close()
}

/** The creators of an org, as the API lists them to the owner. */
async function creatorsOf(orgId: string): Promise<string[]> {
  expect(
    (await apiCall(service.url, 'POST', '/api/session/active-org', { token: owner.token, body: { orgId } })).status,
  ).toBe(200)
  const list = await apiCall<{ data: { name: string }[] }>(service.url, 'GET', '/api/creators', { token: owner.token })
  return list.body.data.map((creator) => creator.name)
}

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ context, page } = await newPage(browser, service.url))
  owner = await apiUser(service.url, 'session-owner')
  const first = await apiCall(service.url, 'POST', '/api/orgs', { token: owner.token, body: { name: 'First Label' } })
  expect(first.status).toBe(201)
  const second = await apiCall<{ id: string }>(service.url, 'POST', '/api/orgs', {
    token: owner.token,
    body: { name: 'Second Label' },
  })
  expect(second.status).toBe(201)
  secondOrg = second.body.id
  page.on('response', (response) => {
    const request = response.request()
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/creators')
      creatorPosts.push({ key: request.headers()['idempotency-key'] ?? null, status: response.status() })
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

describe('a session that ends on an open page', () => {
  it('keeps the filled form when the person closes the sign-in dialog', async () => {
    // A new session starts in the first org; the page works in the second.
    expect(await page.getByLabel('Organisation').locator('option:checked').textContent()).toContain('First Label')
    await page.getByLabel('Organisation').selectOption({ label: 'Second Label · owner' })
    await expect.poll(() => page.getByLabel('Organisation').locator('option:checked').textContent()).toContain('Second')
    await nav('Creators').click()
    await page.getByRole('button', { name: 'New creator' }).click()
    await visit(page, 'session-creator-form', 'New creator')
    await page.getByLabel('Name', { exact: true }).fill('Ada Vos')
    await page.getByLabel('Country').fill('NL')
    await page.getByLabel('Minimum payout').fill('25.00')

    await endSessionElsewhere()
    await page.getByRole('button', { name: 'Create creator' }).click()
    await signInDialog().waitFor()
    expect(await signInDialog().getByLabel('Email').inputValue()).toBe(owner.email)
    await expectAccessible(page, 'session-sign-in-dialog')
    await screenshots(page, 'session-sign-in-dialog')
    expect(page.url()).toMatch(/\/creators\/new$/)

    await signInDialog().getByRole('button', { name: 'Close' }).click()
    await signInDialog().waitFor({ state: 'detached' })
    await expect
      .poll(() => page.locator('.form-error').textContent())
      .toBe('You are signed out. Sign in, then send this again: what you typed is kept.')
    expect(page.url()).toMatch(/\/creators\/new$/)
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Ada Vos')
    expect(await page.getByLabel('Country').inputValue()).toBe('NL')
    expect(await page.getByLabel('Minimum payout').inputValue()).toBe('25.00')
    await visit(page, 'session-signed-out-form', 'New creator')
    await expectPeoplesWords(page, 'session-signed-out-form')
  })

  it('signs in over the page and sends the same request once, in the org the page was in', async () => {
    await page.getByRole('button', { name: 'Create creator' }).click()
    await signInDialog().waitFor()
    await signInDialog().getByLabel('Password').fill('not the password')
    await signInDialog().getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => signInDialog().locator('.form-error').textContent()).toBe('Email or password is incorrect')
    await expectPeoplesWords(page, 'session-sign-in-refused')
    await signInDialog().getByLabel('Password').fill(PASSWORD)
    await signInDialog().getByRole('button', { name: 'Sign in' }).click()

    await page.waitForURL(/\/creators\/crt_/)
    await visit(page, 'session-creator-created', 'Ada Vos')
    // Every attempt carried one key: refused twice while signed out, then created.
    expect(creatorPosts.map((post) => post.status)).toEqual([401, 401, 201])
    expect(new Set(creatorPosts.map((post) => post.key)).size).toBe(1)
    expect(creatorPosts[0]!.key).toMatch(/^[0-9a-f]{32}$/)
    expect(await page.getByLabel('Organisation').locator('option:checked').textContent()).toContain('Second Label')
    expect(await creatorsOf(secondOrg)).toEqual(['Ada Vos'])
    const me = await apiCall<{ memberships: { orgId: string; name: string }[] }>(service.url, 'GET', '/api/me', {
      token: owner.token,
    })
    const firstOrg = me.body.memberships.find((membership) => membership.name === 'First Label')!.orgId
    expect(await creatorsOf(firstOrg)).toEqual([])
  })

  it('asks the same way when a list’s request finds the session ended, without leaving the page', async () => {
    await endSessionElsewhere()
    await nav('Catalog').click()
    await signInDialog().waitFor()
    expect(page.url()).toMatch(/\/catalog$/)
    await signInDialog().getByLabel('Password').fill(PASSWORD)
    await signInDialog().getByRole('button', { name: 'Sign in' }).click()
    await signInDialog().waitFor({ state: 'detached' })
    await expect.poll(() => page.getByText('The catalog is empty').count()).toBe(1)
    await visit(page, 'session-list-after-sign-in', 'Catalog')
    expect(await page.getByLabel('Organisation').locator('option:checked').textContent()).toContain('Second Label')
  })
})
