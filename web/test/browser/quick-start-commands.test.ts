import { execFile } from 'node:child_process'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD, uniqueEmail } from './api.js'
import { launchBrowser, newPage, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * The quick start's commands are run as the page renders them (copied with its button), with bash,
 * curl and node against the service: the sign-up's (the secret filled in) and the portal's (which
 * asks for the secret), each ending with the event feed answering 200.
 */
let service: RunningService
let browser: Browser
let context: BrowserContext
let page: Page
let secret: string

/** The commands, run as a person would paste them into bash; `input` is what they type when asked. */
function runInBash(script: string, input = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      'bash',
      ['-c', script],
      // node is the one running this test: first on the PATH, as on the person's machine.
      { env: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}` }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    )
    child.stdin!.end(input)
  })
}

/** The feed call's answer: the JSON body, then the status line curl writes after it. */
function feedAnswer(stdout: string): { status: string; body: { data: unknown[] } } {
  const at = stdout.lastIndexOf('\nHTTP ')
  return { status: stdout.slice(at + 1).trim(), body: JSON.parse(stdout.slice(0, at)) as { data: unknown[] } }
}

/** The commands as the page shows them, and as its copy button puts them on the clipboard (the same). */
async function shownCommands(): Promise<string> {
  const region = page.getByRole('region', { name: 'Quick start commands' })
  const shown = (await region.locator('code').textContent()) ?? ''
  await page.getByRole('button', { name: 'Copy the commands' }).click()
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(shown)
  return shown
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

describe('the quick start runs as shown', () => {
  it('after sign-up, with the secret filled in: a token, then the event feed answers 200', async () => {
    await page.goto('/portal')
    await page.getByRole('link', { name: 'Sign up as a partner' }).click()
    await page.getByLabel('Your name').fill('Quinn Quickstart')
    await page.getByLabel('Work email').fill(uniqueEmail('quickstart'))
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByLabel('Company').fill('Quickstart Labs')
    await page.getByRole('button', { name: 'Sign up as a partner' }).click()
    await visit(page, 'quick-start-signup', 'Your sandbox is ready')
    secret = await page.getByLabel('Sandbox client secret').inputValue()
    const script = await shownCommands()
    expect(script).toContain(`OEUVRE_URL='${service.url}'`)
    expect(script).toContain(`CLIENT_SECRET='${secret}'`)
    expect(script).toContain('scope=events:read')
    const run = await runInBash(script)
    expect(run.code, run.stderr).toBe(0)
    const answer = feedAnswer(run.stdout)
    expect(answer.status).toBe('HTTP 200')
    expect(Array.isArray(answer.body.data)).toBe(true)
  })

  it('in the portal, asking for the saved secret: the event feed answers 200', async () => {
    await page.getByLabel('I have saved the secret').check()
    await page.getByRole('link', { name: 'Continue to the partner portal' }).click()
    await visit(page, 'quick-start-portal', 'Partner portal')
    const script = await shownCommands()
    expect(script).not.toContain(secret)
    expect(script).toContain('read -rsp')
    const run = await runInBash(script, `${secret}\n`)
    expect(run.code, run.stderr).toBe(0)
    expect(feedAnswer(run.stdout).status).toBe('HTTP 200')
  })
})
