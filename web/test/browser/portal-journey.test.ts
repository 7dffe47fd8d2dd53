import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiUser, PASSWORD, uniqueEmail } from './api.js'
import { expectPeoplesWords, launchBrowser, newPage, visit } from './browser.js'
import { runCli, startService, type RunningService } from './service.js'

/**
 * A partner from sign-up to live, by reading the screen: the portal sign-up shows the sandbox
 * secret once; the checklist takes the application and the agreement; a webhook registered in
 * the portal gets a test event; real sandbox traffic (a token, a feed read) completes
 * integration testing and shows in the credential's request log; the partner asks for review; an
 * operator (made with `oeuvre operators add`) approves in the console; the partner, now live,
 * creates a production org and a live credential.
 */
let service: RunningService
let browser: Browser
let partner: Page
let operator: Page
let receiver: Server
let hookUrl: string
let operatorEmail: string
let clientId: string
let clientSecret: string
let sandboxOrgId: string
const partnerEmail = uniqueEmail('partner')
const SERVICE_ENV = { WEBHOOKS_ALLOW_LOOPBACK: 'true' }

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.writeHead(200, { 'content-type': 'text/plain' }).end('ok'))
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  // Operators are made only by the CLI, from an existing account, on the stopped service's data directory.
  const first = await startService(SERVICE_ENV)
  operatorEmail = (await apiUser(first.url, 'operator')).email
  await first.stop({ keepData: true })
  expect(runCli(first.dataDir, ['operators', 'add', operatorEmail])).toContain('is now an operator')
  ;[service, browser] = await Promise.all([startService(SERVICE_ENV, { dataDir: first.dataDir }), launchBrowser()])
  ;({ page: partner } = await newPage(browser, service.url))
  ;({ page: operator } = await newPage(browser, service.url))
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await service?.stop()
  await new Promise((resolve) => receiver?.close(resolve))
})

/** The onboarding step's list item on the portal page. */
const step = (name: string | RegExp) =>
  partner.getByRole('listitem').filter({ has: partner.getByRole('heading', { name }) })

const token = async () => {
  const response = await fetch(`${service.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      scope: 'events:read',
    }),
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { access_token: string }).access_token
}

describe('a partner, from sign-up to live', () => {
  it('signs up in the portal and sees the sandbox secret once', async () => {
    await partner.goto('/portal/signup')
    await visit(partner, 'portal-signup', 'Become a partner')
    await partner.getByLabel('Your name').fill('Grace Partner')
    await partner.getByLabel('Work email').fill(partnerEmail)
    await partner.getByLabel('Password').fill(PASSWORD)
    await partner.getByLabel('Company').fill('Harbour Integrations')
    await partner.getByLabel('Partner tier').selectOption('api_partner')
    await partner.getByRole('button', { name: 'Sign up as a partner' }).click()
    await visit(partner, 'portal-signup-done', 'Your sandbox is ready')
    clientSecret = await partner.getByLabel('Sandbox client secret').inputValue()
    expect(clientSecret).toMatch(/^cs_test_/)
    clientId = (await partner.locator('dt:text-is("Client id") + dd code').textContent()) ?? ''
    expect(clientId).toMatch(/^cli_/)
    expect(await partner.getByRole('button', { name: 'Copy secret' }).count()).toBe(1)
    // The session is the HttpOnly cookie: the page's scripts see none of it.
    expect(await partner.evaluate(() => document.cookie)).toBe('')
    await partner.getByLabel('I have saved the secret').check()
    await partner.getByRole('link', { name: 'Continue to the partner portal' }).click()
    await partner.waitForURL(/\/portal$/)
    await visit(partner, 'portal-home', 'Partner portal')
    expect(await partner.getByText('Harbour Integrations').count()).toBeGreaterThan(0)
    sandboxOrgId = await partner.evaluate(
      async () => ((await (await fetch('/api/partner')).json()) as { sandboxOrgId: string }).sandboxOrgId,
    )
    // The secret is not shown again.
    expect(await partner.getByText(clientSecret).count()).toBe(0)
  })

  it('submits the application, with the API’s error beside the field first', async () => {
    const application = step(/Application/)
    await application.getByLabel('Company website').fill('https://harbour.example')
    await application.getByLabel('What you will build').fill('A royalty dashboard for our label clients')
    await application.getByLabel('Expected requests per month').fill('lots')
    await application.getByRole('button', { name: 'Submit application' }).click()
    const requests = application.getByLabel('Expected requests per month')
    await expect.poll(() => requests.getAttribute('aria-invalid')).toBe('true')
    await requests.fill('250000')
    await application.getByRole('button', { name: 'Submit application' }).click()
    await expect
      .poll(() =>
        step(/Application/)
          .getByText('Done', { exact: true })
          .count(),
      )
      .toBe(1)
  })

  it('signs the agreement', async () => {
    const agreement = step(/Partner agreement/)
    await agreement.getByLabel('Signer’s full name').fill('Grace Partner')
    await agreement.getByLabel('I accept the partner agreement').check()
    await agreement.getByRole('button', { name: 'Sign the agreement' }).click()
    await expect
      .poll(() =>
        step(/Partner agreement/)
          .getByText('Done', { exact: true })
          .count(),
      )
      .toBe(1)
    await visit(partner, 'portal-checklist', 'Partner portal')
  })

  it('registers a webhook in the portal and sends a test event that is answered 200', async () => {
    await partner.getByRole('main').getByRole('link', { name: 'Webhooks', exact: true }).click()
    await partner.waitForURL(/\/portal\/webhooks(\?|$)/)
    await partner.getByRole('link', { name: 'Register webhook' }).click()
    await partner.getByLabel('Endpoint URL').fill(hookUrl)
    await partner.getByLabel('partner.approved', { exact: true }).check()
    await partner.getByRole('button', { name: 'Register webhook' }).click()
    expect(await partner.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/)
    await partner.getByRole('link', { name: 'Open the webhook' }).click()
    await partner.waitForURL(/\/portal\/webhooks\/whk_/)
    await partner.getByRole('button', { name: 'Send test event' }).click()
    const delivery = partner.getByRole('listitem').filter({ hasText: 'webhook.test' })
    await expect
      .poll(() => delivery.getByRole('heading').textContent(), { timeout: 30_000 })
      .toBe('webhook.test · Succeeded · HTTP 200')
    await visit(partner, 'portal-webhook', 'Webhook')
  })

  it('completes integration testing from real sandbox traffic, which the request log lists without secrets', async () => {
    await partner.goto('/portal')
    const testing = step(/Integration testing/)
    await expect.poll(() => testing.getByText(/webhook delivery answered with a 2xx: done/).count()).toBe(1)
    expect(await testing.getByText(/obtained a token.*: not yet/).count()).toBe(1)
    const accessToken = await token()
    const feed = await fetch(`${service.url}/v1/orgs/${sandboxOrgId}/events`, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
    expect(feed.status).toBe(200)
    await expect
      .poll(
        async () => {
          await partner.reload()
          return step(/Integration testing/)
            .getByText('Done', { exact: true })
            .count()
        },
        { timeout: 20_000 },
      )
      .toBe(1)

    // Two refused calls: a scope the client lacks, and another org's events.
    const refusedToken = await fetch(`${service.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
        scope: 'operators:write',
      }),
    })
    expect(refusedToken.status).toBe(400)
    const otherOrg = await fetch(`${service.url}/v1/orgs/org_01JD2YB6X8Q0W3M5N7P9R1T3V8/events`, {
      headers: { authorization: `Bearer ${accessToken}` },
    })
    expect(otherOrg.status).toBe(404)

    await partner.goto(`/portal/credentials/${clientId}`)
    const log = partner.getByRole('list', { name: 'Requests, newest first' })
    // The log is written in batches, off the request path: reload until the four requests are in.
    await expect
      .poll(
        async () => {
          await partner.reload()
          return log.getByRole('listitem').count()
        },
        { timeout: 20_000 },
      )
      .toBe(4)
    const text = (await log.textContent()) ?? ''
    expect(text).toContain('/v1/orgs/{orgId}/events')
    expect(text).toContain('/oauth/token')
    expect(text).not.toContain(clientSecret)
    expect(text).not.toContain(accessToken)
    // A refused call opens to why: the code and detail its answer gave, and its request ID to copy.
    const scopeRow = log.getByRole('listitem').filter({ hasText: 'invalid_scope' })
    await scopeRow.locator('summary').click()
    const reason = (await scopeRow.locator('dl').textContent()) ?? ''
    expect(reason).toContain('Why it was refused')
    expect(reason).toMatch(/req_|[0-9a-f-]{8,}/)
    const notFound = log.getByRole('listitem').filter({ hasText: '404' })
    await notFound.locator('summary').click()
    expect(await notFound.locator('dl').textContent()).toContain('resource_missing')
    await partner.getByLabel('Status').fill('4xx')
    await partner.getByRole('button', { name: 'Apply filters' }).click()
    await partner.waitForURL(/status=4xx/)
    await expect.poll(() => log.getByRole('listitem').count()).toBe(2)
    await visit(partner, 'portal-request-log', 'Harbour Integrations sandbox')
  })

  it('asks for review once every earlier step is done', async () => {
    await partner.goto('/portal')
    await partner.getByRole('button', { name: 'Request review' }).click()
    await expect.poll(() => partner.getByText('Your review is under way.', { exact: false }).count()).toBe(1)
    expect(await partner.getByText('In review').count()).toBeGreaterThan(0)
  })

  it('is approved by an operator in the console; the console is hidden from everyone else', async () => {
    expect(await partner.getByRole('link', { name: 'Operator console' }).count()).toBe(0)
    await operator.goto('/login')
    await operator.getByLabel('Email').fill(operatorEmail)
    await operator.getByLabel('Password').fill(PASSWORD)
    await operator.getByRole('button', { name: 'Log in' }).click()
    await operator.waitForURL(/\/(catalog|orgs\/new)$/)
    await operator.goto('/portal')
    await operator.getByRole('link', { name: 'Operator console' }).click()
    await operator.waitForURL(/\/portal\/operator$/)
    await visit(operator, 'operator-queue', 'Review queue')
    await operator.getByLabel('Status').selectOption('in_review')
    await operator.getByRole('button', { name: 'Apply filters' }).click()
    await operator.waitForURL(/status=in_review/)
    await operator.getByRole('link', { name: 'Harbour Integrations' }).click()
    await visit(operator, 'operator-partner', 'Harbour Integrations')
    expect(await operator.getByText('https://harbour.example').count()).toBe(1)
    expect(await operator.getByText(/Grace Partner \(user/).count()).toBe(1)
    // A decision that needs a reason says so in the field's words, and is not sent without one.
    await operator.getByRole('button', { name: 'Request changes' }).click()
    const changes = operator.getByRole('dialog', { name: 'Request changes: Harbour Integrations' })
    await changes.getByRole('button', { name: 'Request changes' }).click()
    await expect
      .poll(() => changes.locator('.field-error').textContent())
      .toBe('Reason (shown to the partner) is required')
    await expectPeoplesWords(operator, 'operator-decision-refused')
    await operator.keyboard.press('Escape')
    await changes.waitFor({ state: 'detached' })
    await operator.getByRole('button', { name: 'Approve' }).click()
    await operator.getByRole('dialog').getByRole('button', { name: 'Approve' }).click()
    await expect.poll(() => operator.getByText(/· Live ·/).count()).toBe(1)
    // The partner's portal, open since the review was asked for, follows the decision by itself.
    expect(partner.url()).toMatch(/\/portal$/)
    await expect.poll(() => partner.getByText('Live', { exact: true }).count(), { timeout: 15_000 }).toBeGreaterThan(0)
  })

  it('is live: creates a production org and a live credential', async () => {
    await partner.goto('/portal')
    await expect.poll(() => partner.getByText('Live', { exact: true }).count()).toBeGreaterThan(0)
    await partner.goto('/orgs/new')
    await partner.getByLabel('Name').fill('Harbour Production')
    await partner.getByLabel(/^Production/).check()
    await partner.getByRole('button', { name: 'Create organisation' }).click()
    await partner.waitForURL(/\/catalog$/)
    await partner.goto('/portal/credentials/new')
    await partner.getByLabel('Name', { exact: true }).fill('Production sync')
    await partner.getByLabel('events:read', { exact: true }).check()
    await partner.getByRole('button', { name: 'Create credential' }).click()
    expect(await partner.getByLabel('Client secret').inputValue()).toMatch(/^cs_live_/)
    await visit(partner, 'portal-live-credential', /credential/i)
  })
})
