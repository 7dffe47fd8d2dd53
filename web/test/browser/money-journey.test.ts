import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD } from './api.js'
import { expectAccessible, launchBrowser, newPage, screenshots, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/**
 * Money, by reading the screen: record revenue on a split work and see its allocations, see the
 * balances, pay a creator and move the payout in transit then paid, fail another; a viewer
 * sees the same pages without a write button.
 */
let service: RunningService
let browser: Browser
let page: Page
let owner: { email: string; token: string }
let viewer: { email: string; token: string }

interface Allocation {
  creatorId: string
  amount: string
}

const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true })

/** The error shown beside a field: the control is marked invalid and described by it. */
const fieldError = async (label: string) => {
  const field = page.getByLabel(label, { exact: true })
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true')
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter((id) => id.endsWith('-error'))
  expect(ids).toHaveLength(1)
  return (await page.locator(`[id="${ids[0]}"]`).textContent()) ?? ''
}

async function logIn(email: string) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/catalog$/)
}

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ page } = await newPage(browser, service.url))
  owner = await apiUser(service.url, 'money-owner')
  const token = owner.token
  expect((await apiCall(service.url, 'POST', '/api/orgs', { token, body: { name: 'Harbour Music' } })).status).toBe(201)
  const creator = async (name: string, extra: Record<string, unknown> = {}) => {
    const made = await apiCall<{ id: string }>(service.url, 'POST', '/api/creators', {
      token,
      body: { name, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR', ...extra },
    })
    expect(made.status).toBe(201)
    return made.body.id
  }
  const ada = await creator('Ada Vos')
  const ben = await creator('Ben Berg', { minimumPayout: '1.00' })
  const work = await apiCall(service.url, 'POST', '/api/catalog', {
    token,
    body: {
      kind: 'work',
      title: 'Harbour Lights',
      splits: [
        { creatorId: ada, role: 'composer', shareBps: 7000 },
        { creatorId: ben, role: 'lyricist', shareBps: 3000 },
      ],
    },
  })
  expect(work.status).toBe(201)
  viewer = await apiUser(service.url, 'money-viewer')
  const invitation = await apiCall<{ token: string }>(service.url, 'POST', '/api/members/invitations', {
    token,
    body: { email: viewer.email, role: 'viewer' },
  })
  expect(invitation.status).toBe(201)
  expect(
    (
      await apiCall(service.url, 'POST', '/api/invitations/accept', {
        token: viewer.token,
        body: { token: invitation.body.token },
      })
    ).status,
  ).toBe(200)
  await logIn(owner.email)
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

describe('money', () => {
  it('records revenue in the form, the API’s errors beside the fields, and lists it with its allocations', async () => {
    await nav('Revenue').click()
    await expect.poll(() => page.getByText('No revenue recorded yet').count()).toBe(1)
    await visit(page, 'revenue-empty', 'Revenue')
    await page.getByRole('button', { name: 'Record revenue' }).click()
    await visit(page, 'revenue-new', 'Record revenue')

    await page.getByLabel('Catalog entry').selectOption({ label: 'Harbour Lights' })
    await page.getByLabel('Source', { exact: true }).fill('Spotify')
    await page.getByLabel('Period start').fill('2026-09-01')
    await page.getByLabel('Period end').fill('2026-09-30')
    await page.getByLabel('Territory').fill('de')
    await page.getByLabel('Units').fill('12000')
    await page.getByLabel('Amount').fill('100,25')
    await page.getByRole('button', { name: 'Record revenue' }).click()
    expect(await fieldError('Amount')).toMatch(/decimal/i)
    await visit(page, 'revenue-new-errors', 'Record revenue')
    expect(page.url()).toMatch(/\/revenue\/new$/)

    await page.getByLabel('Amount').fill('100.000001')
    await page.getByRole('button', { name: 'Record revenue' }).click()
    await page.waitForURL(/\/revenue$/)
    const recorded = await apiCall<{ data: { allocations: Allocation[] }[] }>(service.url, 'GET', '/api/revenue', {
      token: owner.token,
    })
    const allocations = recorded.body.data[0]!.allocations
    expect(allocations).toHaveLength(2)
    const row = page.getByRole('row').filter({ hasText: 'Spotify' })
    await expect.poll(() => row.count()).toBe(1)
    // Each creator's share exactly as the API gave it (six places, the odd micro-unit where the API put it).
    const text = (await row.textContent()) ?? ''
    expect(text).toContain('100.000001 EUR')
    expect(text).toContain(`Ada Vos: ${allocations.find((a) => a.amount.startsWith('70'))!.amount} EUR`)
    expect(text).toContain(`Ben Berg: ${allocations.find((a) => a.amount.startsWith('30'))!.amount} EUR`)
    await visit(page, 'revenue-list', 'Revenue')
  })

  it('keeps the revenue filters in the URL', async () => {
    await page.getByLabel('Creator').selectOption({ label: 'Ben Berg' })
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL(/creatorId=/)
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Spotify' }).count()).toBe(1)
    await page.getByLabel('Currency').fill('usd')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL(/currency=USD/)
    await expect.poll(() => page.getByText('No revenue matches these filters').count()).toBe(1)
    await page.reload()
    await expect.poll(() => page.getByText('No revenue matches these filters').count()).toBe(1)
    await visit(page, 'revenue-filtered', 'Revenue')
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Spotify' }).count()).toBe(1)
  })

  it('shows the balances and pays Ada: in transit, then paid', async () => {
    await nav('Balances').click()
    const ada = page.getByRole('row').filter({ hasText: 'Ada Vos' })
    await expect.poll(() => ada.count()).toBe(1)
    await visit(page, 'balances', 'Balances')
    const balances = await apiCall<{ data: { creatorId: string; payable: string; balance: string }[] }>(
      service.url,
      'GET',
      '/api/payouts/balances',
      { token: owner.token },
    )
    const adaBalance = balances.body.data.find((row) => row.balance.startsWith('70'))!
    expect(await ada.textContent()).toContain(adaBalance.payable)
    await ada.getByRole('button', { name: 'Create payout' }).click()
    // Money moves only after a confirmation that names the amount, the currency and the payee.
    const confirm = page.getByRole('dialog', { name: `Pay ${adaBalance.payable} EUR to Ada Vos?` })
    await confirm.waitFor()
    await expectAccessible(page, 'payout-create-confirm')
    await screenshots(page, 'payout-create-confirm')
    await confirm.getByRole('button', { name: `Create the payout of ${adaBalance.payable} EUR` }).click()

    await page.waitForURL(/\/payouts\/po_/)
    await visit(page, 'payout-pending', `Payout of ${adaBalance.payable} EUR`)
    expect(await page.getByText('Pending', { exact: true }).count()).toBe(1)
    // The statement's one line: Ada's allocation of the Spotify entry, as the API gave it.
    const line = page.getByRole('row').filter({ hasText: 'Spotify' })
    await expect.poll(() => line.count()).toBe(1)
    expect(await line.textContent()).toContain(`${adaBalance.balance} EUR`)
    expect(await page.getByRole('button', { name: 'Mark paid' }).count()).toBe(0)
    await page.getByRole('button', { name: 'Mark in transit' }).click()
    const inTransit = page.getByRole('dialog', {
      name: `Mark the payout of ${adaBalance.payable} EUR to Ada Vos in transit?`,
    })
    await inTransit.getByRole('button', { name: 'Yes, mark it in transit' }).click()
    await inTransit.waitFor({ state: 'detached' })
    await expect.poll(() => page.getByText('In transit', { exact: true }).count()).toBe(1)
    expect(await page.getByRole('button', { name: 'Cancel payout' }).count()).toBe(0)
    await visit(page, 'payout-in-transit', /^Payout of/)
    await page.getByRole('button', { name: 'Mark paid' }).click()
    const paid = page.getByRole('dialog', { name: `Mark the payout of ${adaBalance.payable} EUR to Ada Vos paid?` })
    await paid.waitFor()
    await expectAccessible(page, 'payout-mark-paid-confirm')
    await screenshots(page, 'payout-mark-paid-confirm')
    await paid.getByRole('button', { name: 'Yes, mark it paid' }).click()
    await paid.waitFor({ state: 'detached' })
    await expect.poll(() => page.getByText('Paid', { exact: true }).count()).toBe(1)
    expect(await page.getByRole('main').getByRole('button').count()).toBe(0)
    await visit(page, 'payout-paid', /^Payout of/)

    // What was paid has left the balance: only the sub-cent remainder is carried.
    await nav('Balances').click()
    await expect.poll(async () => (await ada.textContent()) ?? '').toContain('Nothing to pay')
  })

  it('marks Ben’s payout failed with a reason, and filters the payouts by status', async () => {
    const ben = page.getByRole('row').filter({ hasText: 'Ben Berg' })
    await ben.getByRole('button', { name: 'Create payout' }).click()
    await page
      .getByRole('dialog', { name: /^Pay 30\.\d+ EUR to Ben Berg\?$/ })
      .getByRole('button', { name: /^Create the payout of 30/ })
      .click()
    await page.waitForURL(/\/payouts\/po_/)
    await visit(page, 'payout-ben', /^Payout of 30/)
    await page.getByRole('button', { name: 'Mark failed' }).click()
    await expect
      .poll(() => page.getByRole('dialog', { name: /^Mark the payout of 30\.\d+ EUR to Ben Berg failed\?$/ }).count())
      .toBe(1)
    await page.getByRole('button', { name: 'Mark the payout failed' }).click()
    expect(await fieldError('Reason')).not.toBe('')
    await page.getByLabel('Reason').fill('The bank returned the transfer')
    await page.getByLabel('Failure code').fill('account_closed')
    await page.getByRole('button', { name: 'Mark the payout failed' }).click()
    await expect.poll(() => page.getByText('Failed', { exact: true }).count()).toBe(1)
    expect(await page.getByText('account_closed: The bank returned the transfer').count()).toBe(1)
    await visit(page, 'payout-failed', /^Payout of 30/)

    await nav('Payouts').click()
    await expect.poll(() => page.getByRole('row').count()).toBe(3)
    await visit(page, 'payouts-list', 'Payouts')
    await page.getByLabel('Status').selectOption('paid')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL(/status=paid/)
    await expect.poll(() => page.getByRole('row').count()).toBe(2)
    expect(await page.getByRole('row').filter({ hasText: 'Ada Vos' }).count()).toBe(1)
    await page.getByLabel('Status').selectOption('pending')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await expect.poll(() => page.getByText('No payouts match this filter').count()).toBe(1)
    await visit(page, 'payouts-filtered', 'Payouts')
  })

  it('opens the revenue form from an event’s page as a ticket sale of that event', async () => {
    const event = await apiCall<{ id: string }>(service.url, 'POST', '/api/events', {
      token: owner.token,
      body: {
        name: 'Harbour Night',
        venue: { name: 'Paradiso', city: 'Amsterdam', country: 'NL' },
        startsAt: `${new Date().getUTCFullYear() + 1}-06-01T18:00:00.000Z`,
        timezone: 'Europe/Amsterdam',
        currency: 'EUR',
        capacity: 100,
        ticketTypes: [{ name: 'Standing', price: '20.00', quantity: 100 }],
      },
    })
    expect(event.status).toBe(201)
    await page.goto(`/events/${event.body.id}`)
    await page.getByRole('link', { name: 'Record ticket sales' }).click()
    await page.waitForURL(/\/revenue\/new\?eventId=/)
    await visit(page, 'revenue-new-ticket-sale', 'Record revenue')
    await expect.poll(() => page.getByLabel('Ticketed event').inputValue()).toBe(event.body.id)
    expect(await page.getByLabel('Type', { exact: true }).inputValue()).toBe('ticket_sale')
  })

  it('shows a viewer the same pages without a write button', async () => {
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL(/\/login/)
    await logIn(viewer.email)
    const noWriteButton = async () =>
      expect(
        await page
          .getByRole('main')
          .getByRole('button')
          .filter({ hasText: /record|create|mark|cancel/i })
          .count(),
      ).toBe(0)

    await nav('Revenue').click()
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Spotify' }).count()).toBe(1)
    await visit(page, 'viewer-revenue', 'Revenue')
    await noWriteButton()

    await nav('Balances').click()
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Ben Berg' }).count()).toBe(1)
    await visit(page, 'viewer-balances', 'Balances')
    await noWriteButton()

    await nav('Payouts').click()
    await expect.poll(() => page.getByRole('row').count()).toBe(3)
    await visit(page, 'viewer-payouts', 'Payouts')
    await page.getByRole('row').filter({ hasText: 'Ben Berg' }).getByRole('link').click()
    await visit(page, 'viewer-payout', /^Payout of 30/)
    await noWriteButton()
  })
})
