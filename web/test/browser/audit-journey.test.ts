import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD } from './api.js'
import { launchBrowser, newPage, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * Verify the audit log: the feed with its filters and pages, the whole chain recomputed in the
 * browser, one event's detail, and its inclusion in a seal checked with Web Crypto against
 * /v1/evidence/keys. The service seals as it does in production, on its own schedule, made short
 * here (SEAL_EVERY_SECONDS=1: an org's events are sealed once the oldest unsealed is a second old).
 */
let service: RunningService
let browser: Browser
let page: Page
let token: string
let ownerEmail: string

interface Event {
  id: string
  sequence: number
  action: string
  hash: string
  data: unknown
}

async function allEvents(): Promise<Event[]> {
  const events: Event[] = []
  let cursor: string | null = null
  for (;;) {
    const answer: { body: { data: Event[]; pagination: { cursor: string | null; hasMore: boolean } } } = await apiCall(
      service.url,
      'GET',
      `/api/org-events?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      { token },
    )
    events.push(...answer.body.data)
    if (!answer.body.pagination.hasMore) return events
    cursor = answer.body.pagination.cursor
  }
}

const rows = () => page.getByRole('region', { name: 'Audit log events, newest first' }).locator('tbody tr')
const status = (text: RegExp) => page.getByRole('status').filter({ hasText: text })

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService({ SEAL_EVERY_SECONDS: '1' }), launchBrowser()])
  ;({ page } = await newPage(browser, service.url))
  const owner = await apiUser(service.url, 'audit-owner')
  token = owner.token
  ownerEmail = owner.email
  expect((await apiCall(service.url, 'POST', '/api/orgs', { token, body: { name: 'Ledger Records' } })).status).toBe(
    201,
  )
  // More writes than one page of the feed (25 rows) and than one page of the chain walk (100 events).
  for (let i = 1; i <= 105; i += 1) {
    const created = await apiCall(service.url, 'POST', '/api/creators', {
      token,
      body: { name: `Creator ${i}`, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' },
    })
    expect(created.status).toBe(201)
  }
  await page.goto('/login')
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/catalog$/)
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

describe('verify the audit log', () => {
  it('lists the events newest first with who did each, pages by the cursor, filters by action and day', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click()
    await page.waitForURL(/\/audit$/)
    await visit(page, 'audit-list', 'Audit log')
    const events = await allEvents()
    expect(events.length).toBeGreaterThan(25)
    await expect.poll(() => rows().count()).toBe(25)
    const sequences = (await rows().locator('td:nth-child(1)').allTextContents()).map(Number)
    // Newest first (the service may have sealed meanwhile: the newest is at least the last read).
    expect(sequences[0]).toBeGreaterThanOrEqual(events.at(-1)!.sequence)
    expect(sequences).toEqual([...sequences].sort((x, y) => y - x))
    const newest = events.find((event) => event.sequence === sequences[0])
    if (newest) expect(await rows().first().locator('td').nth(4).textContent()).toBe(`${newest.hash.slice(0, 19)}…`)
    // The actor by name and email, never the raw user id.
    const creatorRow = rows().filter({ hasText: 'creator.created' }).first()
    expect(await creatorRow.locator('td').nth(3).textContent()).toBe(`audit-owner (${ownerEmail})`)
    expect(await page.getByRole('main').textContent()).not.toMatch(/usr_[0-9A-Z]{26}/)

    await page.getByRole('button', { name: 'Next page' }).click()
    await page.waitForURL(/cursor=/)
    await expect.poll(() => rows().first().locator('td').first().textContent()).toBe(String(sequences[0]! - 25))
    expect(await rows().count()).toBe(25)
    await visit(page, 'audit-list-page-2', 'Audit log')
    // Reloaded, the URL shows the same page.
    await page.reload()
    await expect.poll(() => rows().first().locator('td').first().textContent()).toBe(String(sequences[0]! - 25))

    // The whole object: every creator event.
    await page.getByLabel('Action').selectOption({ label: 'Creators (every creator event)' })
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL((url) => url.searchParams.get('action') === 'creator' && !url.searchParams.has('cursor'))
    await expect.poll(() => rows().count()).toBe(25)
    for (const text of await rows().locator('td:nth-child(3)').allTextContents()) expect(text).toBe('creator.created')
    // A single action.
    await page.getByLabel('Action').selectOption('org.created')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL((url) => url.searchParams.get('action') === 'org.created')
    await expect.poll(() => rows().count()).toBe(1)
    await visit(page, 'audit-list-filtered', 'Audit log')

    // Days on the reader's calendar: from today finds them, up to yesterday finds none.
    const today = await page.evaluate(() => {
      const now = new Date()
      const pad = (n: number) => String(n).padStart(2, '0')
      return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
    })
    await page.getByLabel('From').fill(today)
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL((url) => /Z$/.test(url.searchParams.get('since') ?? ''))
    await expect.poll(() => rows().count()).toBe(1)
    expect(await page.getByLabel('From').inputValue()).toBe(today)
    const yesterday = await page.evaluate(() => {
      const day = new Date(Date.now() - 86_400_000)
      const pad = (n: number) => String(n).padStart(2, '0')
      return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`
    })
    await page.getByLabel('From').fill('')
    await page.getByLabel('To').fill(yesterday)
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL((url) => url.searchParams.has('until'))
    await expect.poll(() => page.getByText('No events match these filters').count()).toBe(1)
    expect(await page.getByLabel('To').inputValue()).toBe(yesterday)
    await visit(page, 'audit-list-no-match', 'Audit log')
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await page.waitForURL(/\/audit$/)
  })

  it('verifies the whole chain in the browser: every event, and the head the API states', async () => {
    // Each seal appends an evidence.sealed event (which the next seal need not cover): wait until
    // the log is still, so the head the browser finds is the one read here.
    await expect
      .poll(
        async () => {
          const seals = await apiCall<{ data: { treeSize: number }[] }>(service.url, 'GET', '/api/seals', { token })
          const last = (await allEvents()).at(-1)!
          return last.action === 'evidence.sealed' && seals.body.data[0]?.treeSize === last.sequence - 1
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(true)
    const events = await allEvents()
    expect(events.length).toBeGreaterThan(100)
    // Every text the verdict line shows, as it shows it.
    await page.evaluate(() => {
      const shown: string[] = []
      const line = document.querySelector('.chain-check [role="status"]')!
      new MutationObserver(() => shown.push(line.textContent ?? '')).observe(line, {
        subtree: true,
        childList: true,
        characterData: true,
      })
      ;(window as unknown as { shown: string[] }).shown = shown
    })
    await page.getByRole('button', { name: 'Verify the chain' }).click()
    const verdict = status(/^Chain intact/)
    await verdict.waitFor()
    expect(await verdict.textContent()).toBe(`Chain intact: ${events.length} events, head ${events.at(-1)!.hash}`)
    // Progress page by page: the first 100 checked while the rest were loading.
    const shown = await page.evaluate(() => (window as unknown as { shown: string[] }).shown)
    expect(shown, JSON.stringify(shown)).toContain(`100 of ${events.length} events checked`)
    await visit(page, 'audit-chain-verified', 'Audit log')
  })

  it('shows an event with its full hash, the previous hash and its data, and verifies its inclusion in a seal', async () => {
    const events = await allEvents()
    await expect.poll(() => rows().count()).toBe(25)
    const sequence = Number(await rows().nth(4).locator('td').first().textContent())
    const event = events.find((candidate) => candidate.sequence === sequence)!
    const previous = events.find((candidate) => candidate.sequence === sequence - 1)!
    await rows().nth(4).getByRole('link', { name: event.action }).click()
    await page.waitForURL(new RegExp(`/audit/${event.id}$`))
    await visit(page, 'audit-event', `Event ${event.sequence}: ${event.action}`)
    const detail = async (term: string) =>
      page
        .locator('dt', { hasText: new RegExp(`^${term}$`) })
        .locator('xpath=following-sibling::dd[1]')
        .textContent()
    expect(await detail('Hash')).toBe(event.hash)
    expect(await detail('Previous hash')).toBe(previous.hash)
    await expect.poll(() => detail('Recomputed hash')).toBe('matches the fields and the previous hash')
    const data = await page.getByRole('region', { name: "The event's data as JSON" }).textContent()
    expect(JSON.parse(data ?? '')).toEqual(event.data)

    // The service seals on its own: wait until a seal covers the event.
    await expect
      .poll(
        async () => {
          const seals = await apiCall<{ data: { treeSize: number }[] }>(service.url, 'GET', '/api/seals', { token })
          return seals.body.data[0]?.treeSize ?? 0
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBeGreaterThanOrEqual(event.sequence)
    const keys = await apiCall<{ keys: { kid: string }[] }>(service.url, 'GET', '/v1/evidence/keys')
    await page.getByRole('button', { name: 'Verify inclusion' }).click()
    const verdict = status(/Included in seal|Not verified|Could not verify/)
    await verdict.waitFor()
    const text = (await verdict.textContent()) ?? ''
    const match = /^Included in seal (\S+) signed by key (\S+): verified$/.exec(text)
    expect(match, text).not.toBeNull()
    expect(keys.body.keys.map((key) => key.kid)).toContain(match![2])
    // The newest seal when the button was pressed (another may have been made since).
    const seals = await apiCall<{ data: { id: string }[] }>(service.url, 'GET', '/api/seals?limit=100', { token })
    expect(seals.body.data.map((seal) => seal.id)).toContain(match![1])
    await visit(page, 'audit-event-included', `Event ${event.sequence}: ${event.action}`)
  })
})
