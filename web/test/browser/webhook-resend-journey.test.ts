import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD } from './api.js'
import { expectAccessible, launchBrowser, newPage, screenshots, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * A receiver that fails, then recovers, as an owner sees it on the webhook's page: the failed delivery
 * with the body sent and the receiver's answer, Resend (refused in people's words while an attempt is
 * under way), "Resend failed deliveries since…", and the deliveries succeeding once it answers 200.
 * One attempt per delivery (WEBHOOK_RETRY_SCHEDULE=0), so a failure is final at once.
 */
let service: RunningService
let browser: Browser
let page: Page
let receiver: Server
let hookUrl: string
let answer: 'fail' | 'slow' | 'ok' = 'fail'
let arrived = 0

const delivery = (nth: number) => page.locator('ol.deliveries > li').nth(nth)
const heading = (nth: number) => delivery(nth).getByRole('heading', { level: 3 }).textContent()

beforeAll(async () => {
  receiver = createServer((request, response) => {
    arrived += 1
    request.resume()
    request.on('end', () => {
      if (answer === 'fail')
        response.writeHead(500, { 'content-type': 'text/plain' }).end('receiver down for maintenance')
      else if (answer === 'slow') setTimeout(() => response.writeHead(200).end('slow ok'), 4000)
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  ;[service, browser] = await Promise.all([
    startService({ WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '0' }),
    launchBrowser(),
  ])
  ;({ page } = await newPage(browser, service.url))
  const owner = await apiUser(service.url, 'resend-owner')
  const org = await apiCall(service.url, 'POST', '/api/orgs', {
    token: owner.token,
    body: { name: 'Relay Records', environment: 'sandbox' },
  })
  expect(org.status).toBe(201)
  await page.goto('/login')
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/catalog$/)
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
  await new Promise((resolve) => receiver?.close(resolve))
})

describe('a failing receiver', () => {
  it('offers the kinds grouped by object, one line each, at every width', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click()
    await page.getByRole('link', { name: 'Register webhook' }).click()
    await visit(page, 'webhook-kinds', 'Register a webhook')
    const paid = page.getByLabel('payout.paid', { exact: true })
    await expect.poll(() => paid.getAttribute('aria-describedby')).toMatch(/explanation/)
    for (const width of [375, 1280, 1920]) {
      await page.setViewportSize({ width, height: 900 })
      // No two kinds' boxes overlap, and none runs past the page.
      const boxes = await page
        .locator('.kind-option')
        .evaluateAll((options) => options.map((option) => option.getBoundingClientRect().toJSON() as DOMRect))
      for (const [i, a] of boxes.entries()) {
        expect(a.right, `kind ${i} at ${width}`).toBeLessThanOrEqual(width)
        for (const b of boxes.slice(i + 1)) {
          const overlap = a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1
          expect(overlap, `kinds overlap at ${width}`).toBe(false)
        }
      }
      await page.screenshot({ path: `test-results/web/webhook-kinds-${width}-full.png`, fullPage: true })
    }
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.getByLabel('Endpoint URL').fill(hookUrl)
    await page.getByLabel('payout.paid', { exact: true }).check()
    await page.getByRole('button', { name: 'Register webhook' }).click()
    await page.getByRole('link', { name: 'Open the webhook' }).click()
    await visit(page, 'webhook-resend-empty', 'Webhook')
  })

  it('shows the failed delivery, the body it sent and the answer it got', async () => {
    await page.getByRole('button', { name: 'Send test event' }).click()
    await expect.poll(() => heading(0), { timeout: 30_000 }).toBe('webhook.test · Failed · HTTP 500')
    await delivery(0).getByText('Attempt 1: request and response bodies').click()
    const sent = delivery(0).getByLabel('Request body of attempt 1')
    expect(await sent.textContent()).toContain('"type": "webhook.test"')
    expect(await delivery(0).getByLabel('Response body of attempt 1').textContent()).toBe(
      'receiver down for maintenance',
    )
    await visit(page, 'webhook-delivery-failed', 'Webhook')
  })

  it('resends one delivery whatever its status: another failed attempt', async () => {
    await delivery(0).getByRole('button', { name: 'Resend' }).click()
    const attempts = delivery(0).getByRole('table').getByRole('row')
    await expect.poll(() => attempts.count(), { timeout: 30_000 }).toBe(3)
    expect((await attempts.nth(2).getByRole('cell').allTextContents()).slice(2, 5)).toEqual([
      'redelivery',
      'failed',
      '500',
    ])
  })

  it('refuses a resend while an attempt is under way, in people’s words', async () => {
    answer = 'slow'
    const before = arrived
    await page.getByRole('button', { name: 'Send test event' }).click()
    await expect.poll(() => arrived, { timeout: 30_000 }).toBeGreaterThan(before)
    await expect.poll(() => heading(0)).toBe('webhook.test · Pending')
    await delivery(0).getByRole('button', { name: 'Resend' }).click()
    await expect
      .poll(() => delivery(0).getByRole('alert').textContent())
      .toBe('An attempt of this delivery is under way right now. Wait until it has finished, then resend it.')
    await visit(page, 'webhook-resend-in-progress', 'Webhook')
    await expect.poll(() => heading(0), { timeout: 30_000 }).toBe('webhook.test · Succeeded · HTTP 200')
  })

  it('resends every failed delivery since a time; they succeed once the receiver answers 200', async () => {
    answer = 'fail'
    await page.getByRole('button', { name: 'Send test event' }).click()
    await expect.poll(() => heading(0), { timeout: 30_000 }).toBe('webhook.test · Failed · HTTP 500')
    answer = 'ok'
    await page.getByRole('button', { name: 'Resend failed deliveries…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Resend failed deliveries?' })
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('Every failed delivery since')
    await expectAccessible(page, 'webhook-resend-failed-confirm')
    await screenshots(page, 'webhook-resend-failed-confirm')
    await page.getByRole('button', { name: 'Resend every failed delivery' }).click()
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'queued again' }).textContent())
      .toBe('2 deliveries queued again.')
    await expect.poll(() => heading(0), { timeout: 30_000 }).toBe('webhook.test · Succeeded · HTTP 200')
    await expect.poll(() => heading(2), { timeout: 30_000 }).toBe('webhook.test · Succeeded · HTTP 200')
    await delivery(0).getByText('Attempt 2: request and response bodies').click()
    expect(await delivery(0).getByLabel('Response body of attempt 2').textContent()).toContain('"received": true')
    await visit(page, 'webhook-resent', 'Webhook')
  })
})
