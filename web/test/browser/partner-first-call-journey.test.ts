import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD, uniqueEmail } from './api.js'
import { launchBrowser, newPage, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * A partner's first successful call, by reading the screen only: from `/portal` signed out, through
 * the partner sign-up, the org id, client id and secret copied with the page's buttons, then a token
 * and the org's event feed with Node's fetch, using nothing but what the page gave.
 */
let service: RunningService
let browser: Browser
let context: BrowserContext
let page: Page
const copied: Record<'orgId' | 'clientId' | 'secret', string> = { orgId: '', clientId: '', secret: '' }

/** What a copy button put on the clipboard. */
async function copy(button: string): Promise<string> {
  await page.getByRole('main').getByRole('button', { name: button, exact: true }).click()
  let text = ''
  await expect
    .poll(async () => {
      text = await page.evaluate(() => navigator.clipboard.readText())
      return text
    })
    .not.toBe('')
  await page.evaluate(() => navigator.clipboard.writeText(''))
  return text
}

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ context, page } = await newPage(browser, service.url))
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url })
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

describe('a partner’s first call', () => {
  it('finds the partner sign-up from /portal signed out', async () => {
    await page.goto('/portal')
    await visit(page, 'first-call-portal', 'Partner portal')
    await page.getByRole('link', { name: 'Sign up as a partner' }).click()
    await visit(page, 'first-call-signup', 'Become a partner')
  })

  it('signs up, and copies the org id, the client id and the secret from the page', async () => {
    await page.getByLabel('Your name').fill('Fatima First')
    await page.getByLabel('Work email').fill(uniqueEmail('first-call'))
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByLabel('Company').fill('First Call Media')
    await page.getByRole('button', { name: 'Sign up as a partner' }).click()
    await visit(page, 'first-call-sandbox', 'Your sandbox is ready')
    copied.orgId = await copy('Copy org id')
    copied.clientId = await copy('Copy client id')
    copied.secret = await copy('Copy secret')
    expect(copied.orgId).toMatch(/^org_/)
    expect(copied.clientId).toMatch(/^cli_/)
    expect(copied.secret).toMatch(/^cs_test_/)
    // What was copied is what the page shows.
    expect(await page.getByLabel('Sandbox client secret').inputValue()).toBe(copied.secret)
    expect(await page.getByRole('main').getByText(copied.orgId, { exact: true }).count()).toBe(1)
  })

  it('makes the first call with Node’s fetch: a token, then GET /v1/orgs/{orgId}/events answers 200', async () => {
    const origin = new URL(page.url()).origin
    const tokenAnswer = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: copied.clientId,
        client_secret: copied.secret,
        scope: 'events:read',
      }),
    })
    expect(tokenAnswer.status).toBe(200)
    const token = (await tokenAnswer.json()) as { access_token: string; org_id: string }
    expect(token.org_id).toBe(copied.orgId)
    const feed = await fetch(`${origin}/v1/orgs/${copied.orgId}/events`, {
      headers: { authorization: `Bearer ${token.access_token}` },
    })
    expect(feed.status).toBe(200)
    expect(Array.isArray(((await feed.json()) as { data: unknown[] }).data)).toBe(true)
  })

  it('goes on to the portal once the secret is saved, where the first call counts', async () => {
    await page.getByLabel('I have saved the secret').check()
    await page.getByRole('link', { name: 'Continue to the partner portal' }).click()
    await visit(page, 'first-call-portal-home', 'Partner portal')
    const testing = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: /Integration testing/ }) })
    await expect.poll(() => testing.getByText(/obtained a token.*: done/).count(), { timeout: 20_000 }).toBe(1)
    expect(await page.getByText(copied.secret).count()).toBe(0)
  })
})
