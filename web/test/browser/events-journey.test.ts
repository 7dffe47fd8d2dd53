import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD } from './api.js'
import { expectAccessible, launchBrowser, newPage, screenshots, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/** An editor's ticketed events, by reading the screen: create one with ticket types and publish it, cancel another. */
let service: RunningService
let browser: Browser
let page: Page
let token: string
const nextYear = new Date().getUTCFullYear() + 1

const eventBody = (name: string, startsAt: string, extra: Record<string, unknown> = {}) => ({
  name,
  venue: { name: 'Paradiso', city: 'Amsterdam', country: 'NL' },
  startsAt,
  timezone: 'Europe/Amsterdam',
  currency: 'EUR',
  capacity: 300,
  ticketTypes: [{ name: 'Standing', price: '25.00', quantity: 300 }],
  ...extra,
})

/** The error shown beside a field: the control is marked invalid and described by it. */
const fieldError = async (label: string) => {
  const field = page.getByLabel(label, { exact: true })
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true')
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-error'))
  expect(ids).toHaveLength(1)
  return (await page.locator(`[id="${ids[0]}"]`).textContent()) ?? ''
}

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ page } = await newPage(browser, service.url))
  const owner = await apiUser(service.url, 'events-owner')
  token = owner.token
  expect((await apiCall(service.url, 'POST', '/api/orgs', { token, body: { name: 'Stage Works' } })).status).toBe(201)
  const creator = async (name: string) =>
    (
      await apiCall<{ id: string }>(service.url, 'POST', '/api/creators', {
        token,
        body: { name, kind: 'person', roles: ['artist', 'composer'], payoutCurrency: 'EUR' },
      })
    ).body.id
  const [ada] = [await creator('Ada Vos'), await creator('Ben Berg')]
  const work = await apiCall(service.url, 'POST', '/api/catalog', {
    token,
    body: { kind: 'work', title: 'Harbour Lights', splits: [{ creatorId: ada, role: 'composer', shareBps: 10000 }] },
  })
  expect(work.status).toBe(201)
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

describe('ticketed events', () => {
  it('starts from an empty list with a New event button', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).click()
    await expect.poll(() => page.getByText('No events yet').count()).toBe(1)
    await visit(page, 'events-empty', 'Ticketed events')
    await page.getByRole('button', { name: 'New event' }).click()
    await visit(page, 'event-new', 'New ticketed event')
  })

  it('creates an event: the API’s field errors beside the fields, the capacity rule as the ticket types are typed', async () => {
    await page.getByLabel('Event name').fill('Autumn Night')
    await page.getByLabel('Venue name').fill('Paradiso')
    await page.getByLabel('Venue city').fill('Amsterdam')
    await page.getByLabel('Country').fill('nl')
    await page.getByLabel('Starts').fill(`${nextYear}-10-12T20:00`)
    await page.getByLabel('Ends').fill(`${nextYear}-10-12T19:00`)
    await page.getByLabel('Time zone').selectOption('Europe/Amsterdam')
    await page.getByLabel('Capacity').fill('500')
    const rule = page.getByRole('status').filter({ hasText: /Ticket quantities must sum/ })
    await page.getByLabel('Ticket type 1: name').fill('General admission')
    await page.getByLabel('Ticket type 1: price (EUR)').fill('39')
    await page.getByLabel('Ticket type 1: quantity').fill('400')
    expect(await rule.textContent()).toContain('400 of 500 places offered as tickets: 100 left')
    await page.getByRole('button', { name: 'Add ticket type' }).click()
    await page.getByLabel('Ticket type 2: name').fill('Balcony')
    await page.getByLabel('Ticket type 2: price (EUR)').fill('55.50')
    await page.getByLabel('Ticket type 2: quantity').fill('150')
    expect(await rule.textContent()).toContain('550 tickets for a capacity of 500: 50 too many')
    const performers = page.getByRole('group', { name: 'Performers' })
    await performers.getByLabel('Ada Vos').check()
    await performers.getByLabel('Ben Berg').check()
    await page.getByRole('group', { name: 'Works performed' }).getByLabel('Harbour Lights').check()

    // Ends before it starts: the API names the field, and the page says what to do in the field's words.
    await page.getByRole('button', { name: 'Create event' }).click()
    expect(await fieldError('Ends')).toBe('Make it end after it starts')
    await visit(page, 'event-new-error', 'New ticketed event')
    await page.getByLabel('Ends').fill(`${nextYear}-10-12T23:30`)
    // More tickets than places: sent as it is, the API refuses it and says why beside the ticket types.
    await page.getByRole('button', { name: 'Create event' }).click()
    await expect
      .poll(() => page.getByText('ticket types offer 550 tickets but the capacity is 500').count())
      .toBeGreaterThan(0)
    await visit(page, 'event-new-over-capacity', 'New ticketed event')
    await page.getByLabel('Ticket type 2: quantity').fill('100')
    expect(await rule.textContent()).toContain('500 of 500 places offered as tickets: 0 left')
    await page.getByRole('button', { name: 'Create event' }).click()
    await page.waitForURL(/\/events\/tev_/)
    await visit(page, 'event-detail-draft', 'Autumn Night')
  })

  it('shows the draft with its venue time, ticket types, performers and works, and publishes it', async () => {
    const header = page.locator('.page-header')
    expect(await header.textContent()).toContain('Draft')
    expect(await header.textContent()).toContain('Upcoming')
    // 20:00 at the venue, in its zone (the browser's own zone plays no part).
    const starts = page.locator('dt', { hasText: /^Starts$/ }).locator('xpath=following-sibling::dd[1]')
    expect(await starts.textContent()).toMatch(/08:00\s?PM|20:00/)
    const types = page.getByRole('table', { name: 'Ticket types' })
    expect(await types.getByRole('row', { name: /General admission/ }).textContent()).toContain('39.00 EUR')
    expect(await types.getByRole('row', { name: /Balcony/ }).textContent()).toContain('55.50 EUR')
    expect(await page.getByRole('link', { name: 'Ada Vos' }).count()).toBe(1)
    expect(await page.getByRole('link', { name: 'Harbour Lights' }).count()).toBe(1)
    const id = page.url().split('/').pop()!
    const stored = await apiCall<{ startsAt: string; endsAt: string }>(service.url, 'GET', `/api/events/${id}`, {
      token,
    })
    expect(stored.body.startsAt).toBe(`${nextYear}-10-12T18:00:00.000Z`)
    expect(stored.body.endsAt).toBe(`${nextYear}-10-12T21:30:00.000Z`)

    await page.getByRole('button', { name: 'Publish' }).click()
    await expect.poll(() => header.textContent()).toContain('Published')
    expect(await page.getByRole('button', { name: 'Publish' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Cancel event' }).count()).toBe(1)
    await visit(page, 'event-detail-published', 'Autumn Night')
  })

  it('cancels another event after asking, and offers no action on an ended one', async () => {
    const other = await apiCall<{ id: string }>(service.url, 'POST', '/api/events', {
      token,
      body: eventBody('Winter Matinee', `${nextYear}-12-20T14:00:00.000Z`, { status: 'published' }),
    })
    expect(other.status).toBe(201)
    const past = await apiCall(service.url, 'POST', '/api/events', {
      token,
      body: eventBody('Spring Opening', '2025-04-01T18:00:00.000Z', { status: 'published' }),
    })
    expect(past.status).toBe(201)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events' }).click()
    const rows = page.getByRole('table', { name: /Ticketed events/ }).getByRole('row')
    await expect.poll(() => rows.count()).toBe(4)
    expect(await rows.filter({ hasText: 'Autumn Night' }).textContent()).toContain('Published')
    expect(await rows.filter({ hasText: 'Spring Opening' }).textContent()).toContain('Ended')
    await visit(page, 'events-list', 'Ticketed events')

    await page.getByRole('link', { name: 'Spring Opening' }).click()
    await visit(page, 'event-detail-ended', 'Spring Opening')
    expect(await page.getByRole('button', { name: 'Cancel event' }).count()).toBe(0)
    await page.goBack()

    await page.getByRole('link', { name: 'Winter Matinee' }).click()
    await visit(page, 'event-detail-to-cancel', 'Winter Matinee')
    await page.getByRole('button', { name: 'Cancel event' }).click()
    const dialog = page.getByRole('dialog', { name: 'Cancel this event?' })
    await dialog.waitFor()
    await expectAccessible(page, 'event-cancel-dialog')
    await screenshots(page, 'event-cancel-dialog')
    await dialog.getByRole('button', { name: 'Yes, cancel the event' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => page.locator('.page-header').textContent()).toContain('Cancelled')
    expect(await page.getByRole('button', { name: /Publish|Cancel event/ }).count()).toBe(0)
    await visit(page, 'event-detail-cancelled', 'Winter Matinee')
    const stored = await apiCall<{ status: string }>(service.url, 'GET', `/api/events/${other.body.id}`, { token })
    expect(stored.body.status).toBe('cancelled')
  })

  it('pages the events by the cursor, kept in the URL', async () => {
    for (let index = 0; index < 23; index += 1) {
      const created = await apiCall(service.url, 'POST', '/api/events', {
        token,
        body: eventBody(
          `Club Night ${index + 1}`,
          `${nextYear}-11-${String(index + 1).padStart(2, '0')}T21:00:00.000Z`,
        ),
      })
      expect(created.status).toBe(201)
    }
    await page.goto('/events')
    const rows = page.getByRole('table', { name: /Ticketed events/ }).getByRole('row')
    await expect.poll(() => rows.count()).toBe(26)
    await page.getByRole('button', { name: 'Next page' }).click()
    await page.waitForURL(/cursor=/)
    await expect.poll(() => rows.count()).toBe(2)
    await page.reload()
    await expect.poll(() => rows.count()).toBe(2)
    expect(await page.getByRole('link', { name: 'Autumn Night' }).count()).toBe(1)
    await visit(page, 'events-page-2', 'Ticketed events')
  })
})
