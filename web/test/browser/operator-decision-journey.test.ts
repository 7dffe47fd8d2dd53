import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD, uniqueEmail } from './api.js'
import { expectAccessible, launchBrowser, newPage, screenshots, visit } from './browser.js'
import { runCli, startService, type RunningService } from './service.js'

/**
 * An operator from the console's review queue to a decision: changes requested with a reason over
 * several lines, which the partner reads beside the application, changes and resubmits; then the
 * operator reads every version and approves. The partner's way to the review is set up through the API.
 */
let service: RunningService
let browser: Browser
let operator: Page
let partner: Page
let receiver: Server
let operatorEmail: string
const partnerEmail = uniqueEmail('decision-partner')
const REASON = 'Tell us which label clients you will serve.\nAnd how you will store their data.'

const login = async (page: Page, email: string) => {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/(catalog|orgs\/new|portal)$/)
}

/** A partner whose every step before the review is done, and who asked for it (through the API). */
async function partnerInReview(): Promise<void> {
  const signup = await apiCall<{
    token: string
    partner: { sandboxOrgId: string }
    sandboxClient: { id: string; secret: string }
  }>(service.url, 'POST', '/api/partners/signup', {
    body: {
      email: partnerEmail,
      password: PASSWORD,
      name: 'Ida Partner',
      company: 'Tidewater Apps',
      tier: 'api_partner',
    },
  })
  expect(signup.status).toBe(201)
  const { token, partner: created, sandboxClient } = signup.body
  const call = (method: string, path: string, body?: unknown) => apiCall(service.url, method, path, { token, body })
  expect(
    (
      await call('POST', '/api/partner/application', {
        website: 'https://tidewater.example',
        useCase: 'Statements for labels',
        expectedMonthlyRequests: 1000,
      })
    ).status,
  ).toBe(200)
  const agreement = await apiCall<{ version: string }>(service.url, 'GET', '/api/partner/agreement', { token })
  expect(
    (
      await call('POST', '/api/partner/agreement', {
        version: agreement.body.version,
        signerName: 'Ida',
        accepted: true,
      })
    ).status,
  ).toBeLessThan(300)
  const granted = await fetch(`${service.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: sandboxClient.id,
      client_secret: sandboxClient.secret,
      scope: 'events:read',
    }),
  })
  const access = ((await granted.json()) as { access_token: string }).access_token
  const feed = await apiCall(service.url, 'GET', `/v1/orgs/${created.sandboxOrgId}/events`, { token: access })
  expect(feed.status).toBe(200)
  const hook = await apiCall<{ id: string }>(service.url, 'POST', '/api/webhooks', {
    token,
    body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/h`, events: ['partner.approved'] },
  })
  expect(hook.status).toBe(201)
  expect((await call('POST', `/api/webhooks/${hook.body.id}/test`)).status).toBe(200)
  // The integration checks are recorded off the request path: wait for them (no expect.poll outside a test).
  for (let tries = 0; ; tries += 1) {
    const me = await apiCall<{ onboarding: { steps: { key: string; status: string }[] } }>(
      service.url,
      'GET',
      '/api/partner',
      { token },
    )
    if (me.body.onboarding.steps.find((step) => step.key === 'integration_testing')?.status === 'done') break
    if (tries > 60) throw new Error(`integration testing not done: ${JSON.stringify(me.body.onboarding)}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  expect((await call('POST', '/api/partner/review-requests')).status).toBeLessThan(300)
}

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.writeHead(200).end('ok'))
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const env = { WEBHOOKS_ALLOW_LOOPBACK: 'true' }
  const first = await startService(env)
  operatorEmail = (await apiUser(first.url, 'decision-operator')).email
  await first.stop({ keepData: true })
  expect(runCli(first.dataDir, ['operators', 'add', operatorEmail])).toContain('is now an operator')
  ;[service, browser] = await Promise.all([startService(env, { dataDir: first.dataDir }), launchBrowser()])
  ;({ page: operator } = await newPage(browser, service.url))
  ;({ page: partner } = await newPage(browser, service.url))
  await partnerInReview()
}, 240_000)
afterAll(async () => {
  await browser?.close()
  await service?.stop()
  await new Promise((resolve) => receiver?.close(resolve))
})

describe('an operator decides a review', () => {
  it('finds the partner in the queue, sees how long it has waited, and requests changes with a multi-line reason', async () => {
    await login(operator, operatorEmail)
    // An operator without an org of their own opens the portal's front door (/portal) and its console link.
    await operator.goto('/portal')
    await operator.getByRole('link', { name: 'Operator console' }).click()
    await visit(operator, 'decision-queue', 'Review queue')
    await operator.getByLabel('Status').selectOption('in_review')
    await operator.getByRole('button', { name: 'Apply filters' }).click()
    const row = operator.getByRole('row').filter({ hasText: 'Tidewater Apps' })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.locator('time').count()).toBeGreaterThan(0)
    await row.getByRole('link', { name: 'Tidewater Apps' }).click()
    await visit(operator, 'decision-partner', 'Tidewater Apps')
    const waiting = operator.getByText(/Waiting for a decision since/)
    expect(await waiting.locator('time').first().getAttribute('title')).toMatch(/\d/)
    await operator.getByRole('button', { name: 'Request changes' }).click()
    const dialog = operator.getByRole('dialog', { name: 'Request changes: Tidewater Apps' })
    await dialog.getByLabel('Reason (shown to the partner)').fill(REASON)
    await expectAccessible(operator, 'decision-request-changes')
    await screenshots(operator, 'decision-request-changes')
    await dialog.getByRole('button', { name: 'Request changes' }).click()
    await expect.poll(() => operator.getByText(/Changes requested/).count()).toBeGreaterThan(0)
  })

  it('the partner reads the reason beside the application, changes it and asks again', async () => {
    await login(partner, partnerEmail)
    await partner.goto('/portal')
    await visit(partner, 'decision-partner-portal', 'Partner portal')
    const note = partner.getByRole('note').filter({ hasText: 'What our reviewers asked' })
    expect(await note.locator('p').textContent()).toBe(REASON)
    const form = partner.getByRole('form', { name: 'Application' })
    expect(await form.getByLabel('Company website').inputValue()).toBe('https://tidewater.example')
    await form.getByLabel('What you will build').fill('Statements for five indie labels.\nData stays in eu-west.')
    await form.getByRole('button', { name: 'Resubmit application' }).click()
    await expect
      .poll(() => partner.getByRole('status').filter({ hasText: 'changed application is saved' }).count())
      .toBe(1)
    await partner.getByRole('button', { name: 'Request review' }).click()
    await expect.poll(() => partner.getByText(/Your review is under way/).count()).toBe(1)
    expect(
      await partner
        .getByText(/Your review is under way/)
        .locator('time')
        .count(),
    ).toBe(1)
    await partner.getByText(/Your application: 2 versions/).click()
    await visit(partner, 'decision-partner-resubmitted', 'Partner portal')
  })

  it('the operator reads every version and approves', async () => {
    await operator.reload()
    await visit(operator, 'decision-partner-again', 'Tidewater Apps')
    const versions = operator.getByRole('region', { name: 'Every version of the application' })
    await expect.poll(() => versions.getByRole('listitem').count()).toBe(2)
    await versions.getByText('Version 1', { exact: false }).click()
    expect(await versions.textContent()).toContain('Statements for labels')
    await operator.getByRole('button', { name: 'Approve' }).click()
    await operator.getByRole('dialog').getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => operator.getByText(/· Live ·/).count()).toBe(1)
    await visit(operator, 'decision-approved', 'Tidewater Apps')
  })
})
