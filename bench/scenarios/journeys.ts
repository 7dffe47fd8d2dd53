import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchChromium } from '../lib/page-load.js'
import type { Measurement, Scenario } from '../lib/scenario.js'
import { Cleanup, startOeuvre, type Child } from '../lib/servers.js'

const PASSWORD = 'correct horse battery'
/** The service as a person starts it: embedded database, worker on, demo org seeded. */
const EMBEDDED = {
  DATABASE_URL: '',
  REDIS_URL: '',
  WORKER: 'inline',
  SEED_DEMO: 'true',
  WEBHOOKS_ALLOW_LOOPBACK: 'true',
}

const seconds = (from: number) => (performance.now() - from) / 1000

async function json<T>(url: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(url, init)
  const text = await response.text()
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as T }
}

const bearer = (token: string, body?: unknown): RequestInit => ({
  method: body === undefined ? 'GET' : 'POST',
  headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
})

async function clientToken(url: string, clientId: string, secret: string): Promise<string> {
  const answer = await json<{ access_token: string }>(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
      scope: 'events:read',
    }),
  })
  if (answer.status !== 200) throw new Error(`token: ${answer.status}`)
  return answer.body.access_token
}

/** Partner: the portal's sign-up, the ids and the secret read from the page, a token, then a first GET /v1/orgs/{orgId}/events. */
async function partnerJourney(page: Page, url: string): Promise<number> {
  const started = performance.now()
  await page.goto(`${url}/portal/signup`)
  await page.getByLabel('Your name').fill('Bench Partner')
  await page.getByLabel('Work email').fill(`bench-partner-${Date.now()}@example.com`)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByLabel('Company').fill('Bench Integrations')
  await page.getByLabel('Partner tier').selectOption('api_partner')
  await page.getByRole('button', { name: 'Sign up as a partner' }).click()
  const secret = await page.getByLabel('Sandbox client secret').inputValue()
  const clientId = (await page.locator('dd code').first().textContent()) ?? ''
  const orgId = await page.evaluate(
    async () => ((await (await fetch('/api/partner')).json()) as { sandboxOrgId: string }).sandboxOrgId,
  )
  const token = await clientToken(url, clientId, secret)
  const feed = await fetch(`${url}/v1/orgs/${orgId}/events`, { headers: { authorization: `Bearer ${token}` } })
  if (feed.status !== 200) throw new Error(`events: ${feed.status}`)
  return seconds(started)
}

/** Label staff: the login page to a paid payout (the demo org's sandbox rail, followed by the page). */
async function labelJourney(page: Page, url: string, demo: { email: string; password: string }): Promise<number> {
  const started = performance.now()
  await page.goto(`${url}/`)
  await page.getByLabel('Email').fill(demo.email)
  await page.getByLabel('Password').fill(demo.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Balances' }).click()
  await page.getByRole('button', { name: 'Create payout' }).first().click()
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^Create the payout of/ })
    .click()
  await page.waitForURL(/\/payouts\/po_/)
  const inTransit = page.getByRole('button', { name: 'Mark in transit' })
  const paid = page.getByText('Paid', { exact: true })
  await inTransit.or(paid).first().waitFor({ timeout: 60_000 })
  if ((await inTransit.count()) === 1) {
    await inTransit.click()
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, mark it in transit' }).click()
    await page.getByRole('button', { name: 'Mark paid' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, mark it paid' }).click()
  }
  await paid.waitFor({ timeout: 60_000 })
  return seconds(started)
}

/** A partner whose every step before the review is done and who asked for it (through the API). */
async function partnerInReview(url: string, receiverUrl: string): Promise<string> {
  const signup = await json<{
    token: string
    partner: { sandboxOrgId: string }
    sandboxClient: { id: string; secret: string }
  }>(`${url}/api/partners/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `bench-review-${Date.now()}@example.com`,
      password: PASSWORD,
      name: 'Ida',
      company: 'Bench Review Co',
      tier: 'api_partner',
    }),
  })
  if (signup.status !== 201) throw new Error(`partner signup: ${signup.status}`)
  const { token, partner, sandboxClient } = signup.body
  await json(
    `${url}/api/partner/application`,
    bearer(token, { website: 'https://bench.example', useCase: 'Statements', expectedMonthlyRequests: 1000 }),
  )
  const agreement = await json<{ version: string }>(`${url}/api/partner/agreement`, bearer(token))
  await json(
    `${url}/api/partner/agreement`,
    bearer(token, { version: agreement.body.version, signerName: 'Ida', accepted: true }),
  )
  const access = await clientToken(url, sandboxClient.id, sandboxClient.secret)
  await fetch(`${url}/v1/orgs/${partner.sandboxOrgId}/events`, { headers: { authorization: `Bearer ${access}` } })
  const hook = await json<{ id: string }>(
    `${url}/api/webhooks`,
    bearer(token, { url: receiverUrl, events: ['partner.approved'] }),
  )
  await json(`${url}/api/webhooks/${hook.body.id}/test`, bearer(token, {}))
  for (let tries = 0; ; tries += 1) {
    const me = await json<{ onboarding: { steps: { key: string; status: string }[] } }>(
      `${url}/api/partner`,
      bearer(token),
    )
    if (me.body.onboarding.steps.find((step) => step.key === 'integration_testing')?.status === 'done') break
    if (tries > 120) throw new Error('integration testing not done in 60 s')
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  const review = await json(`${url}/api/partner/review-requests`, bearer(token, {}))
  if (review.status >= 300) throw new Error(`review request: ${review.status}`)
  return token
}

/** Operator: the console's queue to a decision (approve), once the partner is in review. */
async function operatorJourney(page: Page, url: string, email: string): Promise<number> {
  const started = performance.now()
  await page.goto(`${url}/login`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/(catalog|orgs\/new|portal)$/)
  await page.goto(`${url}/portal`)
  await page.getByRole('link', { name: 'Operator console' }).click()
  await page.getByLabel('Status').selectOption('in_review')
  await page.getByRole('button', { name: 'Apply filters' }).click()
  await page.getByRole('link', { name: 'Bench Review Co' }).click()
  await page.getByRole('button', { name: 'Approve' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click()
  await page.getByText(/· Live ·/).waitFor()
  return seconds(started)
}

const measured = (name: string, value: number): Measurement => ({
  name: `${name} journey, first page to goal`,
  unit: 's',
  // A journey has no floor: its wall time is the figure (ratio 1 by construction).
  floor: value,
  oeuvre: value,
  ratio: 1,
  target: 0,
  extra: { seconds: value.toFixed(2), load: os.loadavg()[0]!.toFixed(2) },
})

export const journeysScenario: Scenario = {
  name: 'journeys',
  description:
    'the scripted journeys in Chromium against a started service: partner to a first events call, label to a paid payout, operator from the queue to a decision',
  async run({ log }) {
    const cleanup = new Cleanup()
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-journeys-'))
    cleanup.add(() => rm(dataDir, { recursive: true, force: true }))
    let browser: Browser | undefined
    try {
      const start = async (): Promise<Child> => {
        const child = await startOeuvre('', null, { ...EMBEDDED, DATA_DIR: dataDir })
        return child
      }
      let service = await start()
      const operatorEmail = `bench-operator-${Date.now()}@example.com`
      await json(`${service.ready}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: operatorEmail, password: PASSWORD, name: 'Bench Operator' }),
      })
      await service.stop()
      execFileSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'operators', 'add', operatorEmail], {
        env: { ...process.env, ...EMBEDDED, DATA_DIR: dataDir },
      })
      service = await start()
      cleanup.add(() => service.stop())
      for (let tries = 0; tries < 100 && !service.output().includes('demo login'); tries += 1)
        await new Promise((resolve) => setTimeout(resolve, 100))
      const demo = /demo login: (\S+) \/ (\S+)/.exec(service.output())
      if (!demo) throw new Error('no demo login printed')
      browser = await launchChromium()
      const fresh = async () => (await browser!.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
      const partner = await partnerJourney(await fresh(), service.ready)
      log(`partner: ${partner.toFixed(2)} s`)
      const label = await labelJourney(await fresh(), service.ready, { email: demo[1]!, password: demo[2]! })
      log(`label: ${label.toFixed(2)} s`)
      const receiver = createServer((request, response) => {
        request.resume()
        request.on('end', () => response.writeHead(200).end('ok'))
      })
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
      cleanup.add(() => new Promise<void>((resolve) => receiver.close(() => resolve())))
      await partnerInReview(service.ready, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`)
      const operator = await operatorJourney(await fresh(), service.ready, operatorEmail)
      log(`operator: ${operator.toFixed(2)} s`)
      return [measured('partner', partner), measured('label', label), measured('operator', operator)]
    } finally {
      await browser?.close()
      await cleanup.run()
    }
  },
}
