import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, newPage, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/** The session cookie against page scripts and other sites: what a browser can and cannot do with it. */
let service: RunningService
let browser: Browser
let context: BrowserContext
let page: Page
let foreign: Server
let foreignUrl: string

async function sessionToken(): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'oeuvre_session')
  expect(cookie).toBeDefined()
  return cookie!.value
}

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ context, page } = await newPage(browser, service.url))
  // Another origin on this machine (same site, other port), serving a page that tries to write with the cookie.
  foreign = createServer((request, response) => {
    response.setHeader('content-type', 'text/html')
    response.end(`<!doctype html><title>Other site</title>
      <form method="POST" action="${service.url}/api/orgs" enctype="text/plain">
        <input type="hidden" name='{"name":"Forged by a form","x":"' value='"}'><button>Send</button>
      </form>`)
  })
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`
})
afterAll(async () => {
  foreign?.close()
  await browser?.close()
  await service?.stop()
})

describe('the browser session', () => {
  it('logs in with the demo login printed at start and opens an org with records', async () => {
    const [, email, password] = /demo login: (\S+) \/ (\S+)/.exec(service.output())!
    await page.goto('/no-such-page')
    await visit(page, 'not-found', 'Page not found')
    await page.goto('/catalog')
    await page.waitForURL(/\/login\?redirect=/)
    await page.getByLabel('Email').fill(email!)
    await page.getByLabel('Password').fill(password!)
    await page.getByRole('button', { name: 'Log in' }).click()
    await page.waitForURL(/\/catalog$/)
    const rows = page.getByRole('table', { name: /Catalog entries/ }).getByRole('row')
    await expect.poll(() => rows.count()).toBe(4)
    expect(await page.getByRole('link', { name: 'Harbour Song' }).count()).toBe(1)
    await visit(page, 'demo-catalog', 'Catalog')
    await page.getByRole('link', { name: 'Northern Lights' }).first().click()
    await visit(page, 'demo-catalog-detail', 'Northern Lights')
  })

  it('holds the token in an HttpOnly, SameSite=Lax cookie that never reaches the page', async () => {
    const cookie = (await context.cookies()).find((c) => c.name === 'oeuvre_session')!
    expect(cookie.httpOnly).toBe(true)
    expect(cookie.sameSite).toBe('Lax')
    expect(cookie.secure).toBe(false)
    const token = await sessionToken()
    expect(token).toMatch(/^sess_/)
    const seen = await page.evaluate(() => ({
      cookie: document.cookie,
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
      html: document.documentElement.outerHTML,
    }))
    for (const [where, text] of Object.entries(seen)) {
      expect(text, where).not.toContain(token)
      expect(text, where).not.toContain('sess_')
    }
    expect(await page.content()).not.toContain(token)
  })

  it('refuses a write from the page without the CSRF header, and lets the app’s own writes through', async () => {
    const attempt = (headers: Record<string, string>) =>
      page.evaluate(async (extra) => {
        const response = await fetch('/api/creators', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...extra },
          body: JSON.stringify({ name: 'Scripted', kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' }),
        })
        return { status: response.status, body: (await response.json()) as { code?: string } }
      }, headers)
    const refused = await attempt({})
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe('csrf_failed')
    const allowed = await attempt({ 'x-oeuvre-csrf': '1' })
    expect(allowed.status).toBe(201)
  })

  it('refuses writes from another origin: a form post is 403, a scripted one never leaves the browser', async () => {
    const other = await context.newPage()
    await other.goto(foreignUrl)
    const scripted = await other.evaluate(
      (target) =>
        fetch(`${target}/api/orgs`, {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json', 'x-oeuvre-csrf': '1' },
          body: JSON.stringify({ name: 'Forged by a script' }),
        }).then(
          (response) => `answered ${response.status}`,
          () => 'blocked',
        ),
      service.url,
    )
    expect(scripted).toBe('blocked')
    await other.getByRole('button', { name: 'Send' }).click()
    await other.waitForURL(`${service.url}/api/orgs`)
    const answer = JSON.parse((await other.locator('body').textContent()) ?? '{}') as { code?: string }
    expect(answer.code).toBe('csrf_failed')
    await other.close()
    const me = await page.evaluate(
      async () => (await (await fetch('/api/me')).json()) as { memberships: { name: string }[] },
    )
    expect(me.memberships.map((m) => m.name)).toEqual(['Demo Label'])
  })

  it('logs out: the cookie is cleared and the app asks to log in again', async () => {
    const token = await sessionToken()
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL(/\/login/)
    await visit(page, 'logged-out', 'Log in')
    expect((await context.cookies()).some((c) => c.name === 'oeuvre_session')).toBe(false)
    await page.goto('/creators')
    await page.waitForURL(/\/login\?redirect=/)
    // The old token is dead on the server too.
    const replay = await fetch(`${service.url}/api/me`, { headers: { authorization: `Bearer ${token}` } })
    expect(replay.status).toBe(401)
  })
})
