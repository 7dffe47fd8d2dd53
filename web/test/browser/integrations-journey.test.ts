import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD } from './api.js'
import { expectAccessible, launchBrowser, newPage, screenshots, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * An owner's integrations, by reading the screen: an API credential (its secret shown once, used for a
 * real token and a /v1 call, rotated with its grace period, revoked) and a webhook delivering to a real
 * receiver on 127.0.0.1 (a test event, its attempt in the log, a redelivery). A viewer sees no write button.
 */
let service: RunningService
let browser: Browser
let context: BrowserContext
let page: Page
let viewerPage: Page
let orgId: string
let receiver: Server
let hookUrl: string
const received: { headers: IncomingHttpHeaders; body: string }[] = []

/** The error shown beside a field: the control is marked invalid and described by it. */
const fieldError = async (label: string) => {
  const field = page.getByLabel(label, { exact: true })
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true')
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-error'))
  expect(ids).toHaveLength(1)
  return (await page.locator(`[id="${ids[0]}"]`).textContent()) ?? ''
}

/** A confirmation dialog (the page behind it is hidden from assistive technology): axe and screenshots. */
const dialogChecked = async (name: string) => {
  await expectAccessible(page, name)
  await screenshots(page, name)
}

/** POST /oauth/token with the client credentials grant, as a partner's server does. */
const token = async (clientId: string, secret: string, scope: string) => {
  const response = await fetch(`${service.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope }),
  })
  return { status: response.status, body: (await response.json()) as { access_token?: string; error?: string } }
}

const login = async (target: Page, email: string) => {
  await target.goto('/login')
  await target.getByLabel('Email').fill(email)
  await target.getByLabel('Password').fill(PASSWORD)
  await target.getByRole('button', { name: 'Log in' }).click()
  await target.waitForURL(/\/catalog$/)
}

beforeAll(async () => {
  // The receiver a partner would run: answers 200 to every delivery and keeps what it got.
  receiver = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      received.push({ headers: request.headers, body })
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/oeuvre`
  // Plain http to 127.0.0.1 is refused unless the deployment allows loopback targets (a local receiver).
  ;[service, browser] = await Promise.all([startService({ WEBHOOKS_ALLOW_LOOPBACK: 'true' }), launchBrowser()])
  ;({ context, page } = await newPage(browser, service.url))
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url })
  ;({ page: viewerPage } = await newPage(browser, service.url))
  const owner = await apiUser(service.url, 'integrations-owner')
  const org = await apiCall<{ id: string }>(service.url, 'POST', '/api/orgs', {
    token: owner.token,
    body: { name: 'Signal Records', environment: 'sandbox' },
  })
  expect(org.status).toBe(201)
  orgId = org.body.id
  const viewer = await apiUser(service.url, 'integrations-viewer')
  const invitation = await apiCall<{ token: string }>(service.url, 'POST', '/api/members/invitations', {
    token: owner.token,
    body: { email: viewer.email, role: 'viewer' },
  })
  expect(invitation.status).toBe(201)
  const accepted = await apiCall(service.url, 'POST', '/api/invitations/accept', {
    token: viewer.token,
    body: { token: invitation.body.token },
  })
  expect(accepted.status).toBe(200)
  await login(page, owner.email)
  await login(viewerPage, viewer.email)
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
  await new Promise((resolve) => receiver?.close(resolve))
})

describe('API credentials', () => {
  let clientId: string
  let firstSecret: string
  let secondSecret: string

  it('starts with none, and shows the API’s errors beside the fields', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API credentials' }).click()
    await expect.poll(() => page.getByText('No credentials yet').count()).toBe(1)
    await visit(page, 'credentials-empty', 'API credentials')
    await page.getByRole('link', { name: 'New credential' }).click()
    await visit(page, 'credential-new', 'New credential')
    const scopes = await page.getByRole('group', { name: 'Scopes' }).getByRole('checkbox').count()
    expect(scopes).toBe(14)
    await page.getByRole('button', { name: 'Create credential' }).click()
    expect(await fieldError('Name')).not.toBe('')
    expect(await page.getByRole('group', { name: 'Scopes' }).locator('.field-error').count()).toBe(1)
    await visit(page, 'credential-new-errors', 'New credential')
  })

  it('creates one with its scopes and shows the secret once, with a copy button', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Royalty dashboard')
    await page.getByLabel('events:read', { exact: true }).check()
    await page.getByLabel('webhooks:read', { exact: true }).check()
    await page.getByRole('button', { name: 'Create credential' }).click()
    await visit(page, 'credential-created', 'Credential created')
    firstSecret = await page.getByLabel('Client secret').inputValue()
    expect(firstSecret).toMatch(/^cs_test_/)
    await page.getByRole('button', { name: 'Copy secret' }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Copied.' }).count()).toBe(1)
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstSecret)
    await page.getByRole('link', { name: 'Open Royalty dashboard' }).click()
    await visit(page, 'credential-detail', 'Royalty dashboard')
    clientId = /cli_[0-9A-Z]{26}/.exec(page.url())![0]
  })

  it('gives a real token for a /v1 call; the detail never shows the secret again', async () => {
    const granted = await token(clientId, firstSecret, 'events:read')
    expect(granted.status).toBe(200)
    const feed = await apiCall(service.url, 'GET', `/v1/orgs/${orgId}/events`, { token: granted.body.access_token })
    expect(feed.status).toBe(200)
    // Last use comes from the request log, written in batches off the request path (about a second).
    await expect
      .poll(
        async () => {
          await page.reload()
          await visit(page, 'credential-detail-used', 'Royalty dashboard')
          return page.getByText('Never', { exact: true }).count()
        },
        { timeout: 20_000 },
      )
      .toBe(0)
    expect(await page.content()).not.toContain(firstSecret)
    const details = (await page.locator('dl.details').textContent()) ?? ''
    expect(details).toContain('events:read, webhooks:read')
    expect(details).toContain('sandbox')
    expect(details).toContain('127.0.0.1')
  })

  it('rotates the secret and shows when the old one stops working', async () => {
    await page.getByRole('button', { name: 'Rotate secret', exact: true }).click()
    await page.getByRole('dialog', { name: 'Rotate the secret?' }).waitFor()
    await dialogChecked('credential-rotate-confirm')
    await page.getByRole('button', { name: 'Rotate the secret', exact: true }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'keeps working until' }).count()).toBe(1)
    secondSecret = await page.getByLabel('New client secret').inputValue()
    expect(secondSecret).not.toBe(firstSecret)
    const credential = await page.evaluate(async (id) => {
      const response = await fetch(`/api/clients/${id}`)
      return (await response.json()) as { previousSecretExpiresAt: string }
    }, clientId)
    // The grace period's end in the reader's locale with its zone named, the API's ISO time on hover.
    const graceEnd = page.getByRole('status').filter({ hasText: 'keeps working until' }).locator('time')
    expect(await graceEnd.getAttribute('datetime')).toBe(credential.previousSecretExpiresAt)
    expect(await graceEnd.getAttribute('title')).toBe(credential.previousSecretExpiresAt)
    const shown = await page.evaluate(
      (iso) =>
        new Intl.DateTimeFormat(undefined, {
          year: 'numeric',
          month: 'short',
          day: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
          timeZoneName: 'short',
        }).format(new Date(iso)),
      credential.previousSecretExpiresAt,
    )
    expect(await graceEnd.textContent()).toBe(shown)
    await visit(page, 'credential-rotated', 'Royalty dashboard')
    // Both work during the grace period.
    expect((await token(clientId, firstSecret, 'events:read')).status).toBe(200)
    expect((await token(clientId, secondSecret, 'events:read')).status).toBe(200)
  })

  it('revokes it after a confirmation: its secrets stop working', async () => {
    await page.getByRole('button', { name: 'Revoke', exact: true }).click()
    await expect.poll(() => page.getByRole('dialog', { name: 'Revoke Royalty dashboard?' }).count()).toBe(1)
    await page.getByRole('button', { name: 'Revoke the credential' }).click()
    await expect.poll(() => page.locator('dl.details').textContent()).toContain('Revoked since')
    expect(await page.getByRole('button', { name: /Rotate|Revoke/ }).count()).toBe(0)
    await visit(page, 'credential-revoked', 'Royalty dashboard')
    expect((await token(clientId, secondSecret, 'events:read')).status).toBe(401)
    await page.getByRole('link', { name: 'All credentials' }).click()
    const rows = page.getByRole('table', { name: /API credentials/ }).getByRole('row')
    await expect.poll(() => rows.count()).toBe(2)
    expect(await rows.nth(1).textContent()).toContain('Revoked')
    await visit(page, 'credentials-list', 'API credentials')
  })
})

describe('webhooks', () => {
  let signingSecret: string

  it('registers an endpoint: the API’s errors first, then the signing secret once', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click()
    await expect.poll(() => page.getByText('No webhooks yet').count()).toBe(1)
    await visit(page, 'webhooks-empty', 'Webhooks')
    await page.getByRole('link', { name: 'Register webhook' }).click()
    await visit(page, 'webhook-new', 'Register a webhook')
    await page.getByLabel('Endpoint URL').fill('ftp://example.com/hook')
    await page.getByLabel('payout.paid', { exact: true }).check()
    await page.getByRole('button', { name: 'Register webhook' }).click()
    expect(await fieldError('Endpoint URL')).toMatch(/http/)
    await visit(page, 'webhook-new-errors', 'Register a webhook')
    await page.getByLabel('Endpoint URL').fill(hookUrl)
    await page.getByRole('button', { name: 'Register webhook' }).click()
    await visit(page, 'webhook-registered', 'Webhook registered')
    signingSecret = await page.getByLabel('Signing secret').inputValue()
    expect(signingSecret).toMatch(/^whsec_/)
    expect(await page.getByRole('button', { name: 'Copy secret' }).count()).toBe(1)
    await page.getByRole('link', { name: 'Open the webhook' }).click()
    await visit(page, 'webhook-detail', 'Webhook')
    expect(await page.content()).not.toContain(signingSecret)
    expect(await page.locator('dl.details').textContent()).toContain('payout.paid')
    await expect.poll(() => page.getByText('No deliveries yet').count()).toBe(1)
  })

  it('sends a test event: the receiver gets it and the log shows the attempt with status 200', async () => {
    await page.getByRole('button', { name: 'Send test event' }).click()
    const delivery = page.getByRole('listitem').filter({ hasText: 'webhook.test' })
    await expect
      .poll(() => delivery.getByRole('heading').textContent(), { timeout: 30_000 })
      .toBe('webhook.test · Succeeded · HTTP 200')
    expect(received).toHaveLength(1)
    expect(received[0]!.headers['webhook-id']).toMatch(/^whd_/)
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'webhook.test' })
    const attempts = delivery.getByRole('table').getByRole('row')
    expect(await attempts.count()).toBe(2)
    const cells = await attempts.nth(1).getByRole('cell').allTextContents()
    expect(cells[0]).toBe('1')
    expect(cells.slice(2, 5)).toEqual(['scheduled', 'succeeded', '200'])
    expect(cells[5]).toMatch(/^\d+ ms$/)
    expect(cells[6]).toBe('—')
    await visit(page, 'webhook-delivered', 'Webhook')
  })

  it('redelivers: a second attempt of the same delivery', async () => {
    const delivery = page.getByRole('listitem').filter({ hasText: 'webhook.test' })
    await delivery.getByRole('button', { name: 'Resend' }).click()
    const attempts = delivery.getByRole('table').getByRole('row')
    await expect.poll(() => attempts.count(), { timeout: 30_000 }).toBe(3)
    const cells = await attempts.nth(2).getByRole('cell').allTextContents()
    expect(cells.slice(2, 5)).toEqual(['redelivery', 'succeeded', '200'])
    await expect.poll(() => received.length).toBe(2)
    expect(received[1]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id'])
    await visit(page, 'webhook-redelivered', 'Webhook')
  })

  it('pages the delivery log, ten a page, with the cursor in the URL', async () => {
    const first = /whd_[0-9A-Z]{26}/.exec((await page.getByText(/^whd_/).first().textContent()) ?? '')![0]
    const webhookId = /whk_[0-9A-Z]{26}/.exec(page.url())![0]
    const sent = await page.evaluate(async (id) => {
      const statuses: number[] = []
      for (let i = 0; i < 10; i += 1)
        statuses.push(
          (await fetch(`/api/webhooks/${id}/test`, { method: 'POST', headers: { 'x-oeuvre-csrf': '1' } })).status,
        )
      return statuses
    }, webhookId)
    expect(sent).toEqual(Array(10).fill(200))
    await page.reload()
    const deliveries = page.locator('ol.deliveries > li')
    await expect.poll(() => deliveries.count()).toBe(10)
    expect(await page.getByText(first).count()).toBe(0)
    await page.getByRole('button', { name: 'Next page' }).click()
    await page.waitForURL(/\?cursor=/)
    await expect.poll(() => deliveries.count()).toBe(1)
    expect(await deliveries.textContent()).toContain(first)
    await visit(page, 'webhook-deliveries-page-2', 'Webhook')
    await page.reload()
    await expect.poll(() => deliveries.count()).toBe(1)
    await page.getByRole('button', { name: 'First page' }).click()
    await expect.poll(() => deliveries.count()).toBe(10)
    expect(page.url()).not.toContain('cursor=')
  })

  it('rotates the secret, disables and enables, and deletes after a confirmation', async () => {
    await page.getByRole('button', { name: 'Rotate secret', exact: true }).click()
    await page.getByRole('button', { name: 'Rotate the signing secret' }).click()
    const rotated = await page.getByLabel('New signing secret').inputValue()
    expect(rotated).toMatch(/^whsec_/)
    expect(rotated).not.toBe(signingSecret)
    expect(await page.getByRole('status').filter({ hasText: 'The secret was rotated' }).textContent()).toMatch(
      /previous and the new secret/,
    )
    await visit(page, 'webhook-rotated', 'Webhook')
    await page.getByRole('button', { name: 'Disable', exact: true }).click()
    await expect.poll(() => page.locator('dl.details').textContent()).toContain('Disabled')
    expect(await page.getByRole('button', { name: 'Send test event' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Resend' }).count()).toBe(0)
    await visit(page, 'webhook-disabled', 'Webhook')
    await page.getByRole('button', { name: 'Enable', exact: true }).click()
    await expect.poll(() => page.getByRole('button', { name: 'Send test event' }).count()).toBe(1)
    await page.getByRole('button', { name: 'Delete', exact: true }).click()
    await expect.poll(() => page.getByRole('dialog', { name: 'Delete this webhook?' }).count()).toBe(1)
    await dialogChecked('webhook-delete-confirm')
    await page.getByRole('button', { name: 'Delete the webhook' }).click()
    await page.waitForURL(/\/settings\/webhooks$/)
    await expect.poll(() => page.getByText('No webhooks yet').count()).toBe(1)
  })
})

describe('a viewer', () => {
  it('sees webhooks and their log without write buttons, and no credentials', async () => {
    const viewerHookUrl = `${hookUrl}/all`
    const registered = await page.evaluate(async (url) => {
      const response = await fetch('/api/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-oeuvre-csrf': '1' },
        body: JSON.stringify({ url, events: ['*'] }),
      })
      return { status: response.status, body: (await response.json()) as { id: string } }
    }, viewerHookUrl)
    expect(registered.status).toBe(201)
    const nav = viewerPage.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('link', { name: 'Webhooks' }).click()
    await expect.poll(() => viewerPage.getByRole('link', { name: viewerHookUrl, exact: true }).count()).toBe(1)
    expect(await viewerPage.getByRole('link', { name: 'Register webhook' }).count()).toBe(0)
    expect(await nav.getByRole('link', { name: 'API credentials' }).count()).toBe(0)
    await visit(viewerPage, 'viewer-webhooks', 'Webhooks')
    await viewerPage.getByRole('link', { name: viewerHookUrl, exact: true }).click()
    await visit(viewerPage, 'viewer-webhook', 'Webhook')
    expect(viewerPage.url()).toContain(registered.body.id)
    expect(
      await viewerPage.getByRole('button', { name: /Send test event|Rotate|Disable|Enable|Delete|Resend/ }).count(),
    ).toBe(0)
    await viewerPage.goto('/settings/credentials')
    await expect.poll(() => viewerPage.getByRole('alert').textContent()).toContain('Forbidden')
    expect(await viewerPage.getByRole('link', { name: 'New credential' }).count()).toBe(0)
    await visit(viewerPage, 'viewer-credentials', 'API credentials')
  })
})
