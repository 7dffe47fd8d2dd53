import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD } from './api.js'
import { launchBrowser, newPage, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/** A finance person's statement import, by reading the screen: the report, a rejected line, a re-run that skips. */
let service: RunningService
let browser: Browser
let page: Page
let viewer: { email: string; token: string }

const ISRC = 'NLA1F2600001'
const HEADER = 'isrc,territory,period_start,period_end,units,amount,currency,statement_ref,line_ref'
const STATEMENT = [
  HEADER,
  `${ISRC},NL,2026-07-01,2026-07-31,1200,4.80,EUR,JUL-26,1`,
  `NLA1F2699999,NL,2026-07-01,2026-07-31,50,0.20,EUR,JUL-26,2`,
  `${ISRC},BE,2026-07-01,2026-07-31,300,1.20,EUR,JUL-26,3`,
  '',
].join('\n')

const statementFile = (text: string, name = 'july.csv') => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(text),
})

/** The value a `<dt>` of the report names. */
const count = (label: string) => page.locator('dl.details dt', { hasText: label }).locator('+ dd').textContent()

async function logIn(email: string): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/catalog$/)
}

async function importFile(file: ReturnType<typeof statementFile>, source: string): Promise<void> {
  await page.getByLabel('Statement file (CSV)').setInputFiles(file)
  await page.getByLabel('Source', { exact: true }).fill(source)
  await page.getByRole('button', { name: 'Import' }).click()
}

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ page } = await newPage(browser, service.url))
  const owner = await apiUser(service.url, 'import-owner')
  const token = owner.token
  expect((await apiCall(service.url, 'POST', '/api/orgs', { token, body: { name: 'Canal Records' } })).status).toBe(201)
  const creator = await apiCall<{ id: string }>(service.url, 'POST', '/api/creators', {
    token,
    body: { name: 'Ada Vos', kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
  })
  const recording = await apiCall(service.url, 'POST', '/api/catalog', {
    token,
    body: {
      kind: 'recording',
      title: 'Harbour Lights',
      identifiers: { isrc: ISRC },
      splits: [{ creatorId: creator.body.id, role: 'artist', shareBps: 10000 }],
    },
  })
  expect(recording.status).toBe(201)
  viewer = await apiUser(service.url, 'import-viewer')
  const invitation = await apiCall<{ token: string }>(service.url, 'POST', '/api/members/invitations', {
    token,
    body: { email: viewer.email, role: 'viewer' },
  })
  expect(invitation.status).toBe(201)
  const accepted = await apiCall(service.url, 'POST', '/api/invitations/accept', {
    token: viewer.token,
    body: { token: invitation.body.token },
  })
  expect(accepted.status).toBe(200)
  await logIn(owner.email)
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

describe('importing a statement', () => {
  it('opens the import page from the revenue page', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Revenue', exact: true }).click()
    await page.getByRole('button', { name: 'Import a statement' }).click()
    await page.waitForURL(/\/revenue\/import$/)
    await visit(page, 'revenue-import', 'Import a statement')
  })

  it('shows the API’s error for a file that is not a statement, and imports nothing', async () => {
    await importFile(statementFile('name,amount\nAda,1.00\n', 'wrong.csv'), 'Spotify')
    const alert = page.getByRole('alert')
    await expect.poll(() => alert.textContent()).toMatch(/the statement has no isrc/i)
    await visit(page, 'revenue-import-error', 'Import a statement')
  })

  it('imports the statement and reports the counts and the rejected line with its reason', async () => {
    await importFile(statementFile(STATEMENT), 'Spotify')
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'Report' }).count()).toBe(1)
    expect(await count('Imported')).toBe('2')
    expect(await count('Skipped')).toBe('0')
    expect(await count('Rejected')).toBe('1')
    const lines = page.getByRole('region', { name: 'Skipped and rejected lines' })
    const rejected = lines.getByRole('row').filter({ hasText: 'Rejected' })
    expect(await rejected.count()).toBe(1)
    expect(await rejected.getByRole('cell').first().textContent()).toBe('3')
    expect(await rejected.textContent()).toContain('isrc NLA1F2699999 does not name an active catalog entry')
    await visit(page, 'revenue-import-report', 'Import a statement')
  })

  it('skips every line already booked when the file is imported again', async () => {
    await importFile(statementFile(STATEMENT), 'Spotify')
    await expect.poll(() => count('Skipped')).toBe('2')
    expect(await count('Imported')).toBe('0')
    const lines = page.getByRole('region', { name: 'Skipped and rejected lines' })
    const skipped = lines.getByRole('row').filter({ hasText: 'Skipped' })
    expect(await skipped.count()).toBe(2)
    expect(await skipped.first().textContent()).toContain('JUL-26 / 1')
    await visit(page, 'revenue-import-rerun', 'Import a statement')
  })

  it('shows a labelled progress bar while a larger statement uploads', async () => {
    // 40,000 lines (about 3 MB) of a recording the catalog does not have: read and rejected batch by batch.
    const lines = Array.from(
      { length: 40_000 },
      (_, index) => `NLA1F2688888,NL,2026-07-01,2026-07-31,1,0.01,EUR,BIG,${index}`,
    )
    await page.evaluate(() => {
      const seen: { label: string; value: number; max: number }[] = []
      ;(window as unknown as { progressSeen: typeof seen }).progressSeen = seen
      const record = () => {
        document
          .querySelectorAll('progress')
          .forEach((bar) => seen.push({ label: bar.labels[0]?.textContent ?? '', value: bar.value, max: bar.max }))
      }
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true })
    })
    await importFile(statementFile([HEADER, ...lines, ''].join('\n'), 'big.csv'), 'Spotify')
    await expect.poll(() => count('Rejected'), { timeout: 120_000 }).toBe('40000')
    const seen = await page.evaluate(
      () => (window as unknown as { progressSeen: { label: string; value: number; max: number }[] }).progressSeen,
    )
    expect(seen.length).toBeGreaterThan(0)
    expect(new Set(seen.map((sample) => sample.label))).toEqual(new Set(['Upload progress']))
    expect(Math.max(...seen.map((sample) => sample.value))).toBeGreaterThan(0)
    expect(await page.getByText(/^39900 more lines are counted above but not listed/).count()).toBe(1)
    expect(await page.getByRole('progressbar').count()).toBe(0)
  }, 180_000)

  it('shows a viewer no form', async () => {
    await page.context().clearCookies()
    await logIn(viewer.email)
    await page.goto('/revenue/import')
    await visit(page, 'revenue-import-viewer', 'Import a statement')
    expect(await page.getByText('Your role cannot import revenue').count()).toBe(1)
    expect(await page.getByRole('button', { name: 'Import' }).count()).toBe(0)
    expect(await page.getByLabel('Statement file (CSV)').count()).toBe(0)
  })
})
