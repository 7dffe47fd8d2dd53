import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, apiUser, PASSWORD } from './api.js'
import { expectAccessible, launchBrowser, newPage, screenshots, visit } from './browser.js'
import { ORG_EVENT_ACTIONS } from '../../../src/modules/webhooks/webhooks.kinds.js'
import { startService, type RunningService } from './service.js'

/**
 * The frame and the shared formats, by looking at the screen: the navigation folds behind a menu
 * button on a phone, every date reads the same way (the reader's locale, a named zone, the ISO
 * time on hover), the balances' action is whole at 1280 px, and the webhook kinds sit in groups
 * by object without overlapping at any width.
 */
let service: RunningService
let browser: Browser
let page: Page
let token: string

const nav = () => page.getByRole('navigation', { name: 'Main' })
const menuButton = () => page.getByRole('button', { name: 'Menu' })

/** An instant written as the API writes it, or a calendar day: neither may reach a list as it is. */
const RAW_ISO = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2})?/

/** Every date shown in the page's records: none raw, each a <time> with the ISO text in `datetime` and `title`. */
async function expectReadableDates(name: string): Promise<number> {
  const records = page.locator('main table, main dl, main ol.deliveries')
  for (const text of await records.allInnerTexts())
    expect(text, `${name}: a raw ISO date in ${text}`).not.toMatch(RAW_ISO)
  const times = await page.locator('main time').evaluateAll((elements) =>
    elements.map((element) => ({
      iso: element.getAttribute('datetime') ?? '',
      title: element.getAttribute('title') ?? '',
      text: element.textContent ?? '',
    })),
  )
  for (const time of times) {
    expect(Number.isNaN(Date.parse(time.iso)), `${name}: ${time.iso} is a date`).toBe(false)
    expect(time.title, `${name}: the ISO time on hover`).toBe(time.iso)
    // An instant names its zone ("UTC", "GMT+1", "CET"); a calendar day has none.
    if (time.iso.includes('T'))
      expect(time.text, `${name}: ${time.text} names its zone`).toMatch(/(UTC|GMT|[A-Z]{3,5})/)
  }
  return times.length
}

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService({ WEBHOOKS_ALLOW_LOOPBACK: 'true' }), launchBrowser()])
  ;({ page } = await newPage(browser, service.url))
  const owner = await apiUser(service.url, 'layout-owner')
  token = owner.token
  expect(
    (await apiCall(service.url, 'POST', '/api/orgs', { token, body: { name: 'Lighthouse Records' } })).status,
  ).toBe(201)
  const creator = async (name: string) => {
    const made = await apiCall<{ id: string }>(service.url, 'POST', '/api/creators', {
      token,
      body: { name, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' },
    })
    expect(made.status).toBe(201)
    return made.body.id
  }
  // Long names and large amounts: the balances table at its widest.
  const first = await creator('Annemarie van Oostveen-Hardenberg')
  const second = await creator('Bartholomeus Cornelissen')
  const work = await apiCall<{ id: string }>(service.url, 'POST', '/api/catalog', {
    token,
    body: {
      kind: 'work',
      title: 'Lantern Song',
      splits: [
        { creatorId: first, role: 'composer', shareBps: 6000 },
        { creatorId: second, role: 'lyricist', shareBps: 4000 },
      ],
    },
  })
  expect(work.status).toBe(201)
  const revenue = await apiCall(service.url, 'POST', '/api/revenue', {
    token,
    body: {
      catalogId: work.body.id,
      source: 'Spotify',
      type: 'stream',
      periodStart: '2026-09-01',
      periodEnd: '2026-09-30',
      territory: 'NL',
      units: 9_000_000,
      amount: '1234567.123457',
      currency: 'EUR',
    },
  })
  expect(revenue.status).toBe(201)
  const event = await apiCall(service.url, 'POST', '/api/events', {
    token,
    body: {
      name: 'Lantern Night',
      venue: { name: 'Paradiso', city: 'Amsterdam', country: 'NL' },
      startsAt: `${new Date().getUTCFullYear() + 1}-06-01T18:00:00.000Z`,
      timezone: 'Europe/Amsterdam',
      currency: 'EUR',
      capacity: 100,
      ticketTypes: [{ name: 'Standing', price: '20.00', quantity: 100 }],
    },
  })
  expect(event.status).toBe(201)
  const payout = await apiCall(service.url, 'POST', '/api/payouts', {
    token,
    body: { creatorId: second, currency: 'EUR' },
  })
  expect(payout.status).toBe(201)
  const hook = await apiCall(service.url, 'POST', '/api/webhooks', {
    token,
    body: { url: 'http://127.0.0.1:9/nobody-listens', events: ['*'] },
  })
  expect(hook.status).toBe(201)
  await page.goto('/')
  await page.waitForURL(/\/login/)
  await page.getByLabel('Email').fill(owner.email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/catalog$/)
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

describe('the layout', () => {
  it('folds the navigation behind a menu button below 768 px, and shows it whole above', async () => {
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto('/')
    await page.waitForURL(/\/catalog$/)
    await visit(page, 'layout-phone-catalog', 'Catalog')
    await page.setViewportSize({ width: 375, height: 800 })
    const header = await page.locator('header').boundingBox()
    // The header and navigation take well under half of the screen's 800 px (they took 420).
    expect(header!.y + header!.height).toBeLessThanOrEqual(120)
    expect(await menuButton().getAttribute('aria-expanded')).toBe('false')
    expect(await nav().isVisible()).toBe(false)
    expect(await page.getByLabel('Organisation').isVisible()).toBe(false)

    await menuButton().click()
    expect(await menuButton().getAttribute('aria-expanded')).toBe('true')
    expect(await nav().isVisible()).toBe(true)
    expect(await page.getByLabel('Organisation').isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Log out' }).isVisible()).toBe(true)
    await expectAccessible(page, 'layout-phone-menu')
    await page.screenshot({ path: 'test-results/web/layout-phone-menu-375.png', fullPage: true })

    await nav().getByRole('link', { name: 'Payouts', exact: true }).click()
    await page.waitForURL(/\/payouts$/)
    await expect.poll(() => menuButton().getAttribute('aria-expanded')).toBe('false')
    expect(await nav().isVisible()).toBe(false)

    await page.setViewportSize({ width: 1280, height: 900 })
    expect(await menuButton().isVisible()).toBe(false)
    expect(await nav().isVisible()).toBe(true)
    expect(await page.getByLabel('Organisation').isVisible()).toBe(true)
  })

  it('writes every date of the list pages in the reader’s locale with its zone, the ISO time on hover', async () => {
    const pages: [link: string, heading: string, ready: () => Promise<unknown>][] = [
      ['Catalog', 'Catalog', () => page.getByRole('link', { name: 'Lantern Song' }).waitFor()],
      ['Events', 'Ticketed events', () => page.getByRole('link', { name: 'Lantern Night' }).waitFor()],
      ['Revenue', 'Revenue', () => page.getByRole('row').filter({ hasText: 'Spotify' }).waitFor()],
      ['Payouts', 'Payouts', () => page.getByRole('row').filter({ hasText: 'Bartholomeus' }).waitFor()],
      ['Members', 'Members', () => page.getByRole('row').filter({ hasText: 'layout-owner' }).waitFor()],
      ['Audit log', 'Audit log', () => page.getByRole('row').nth(1).waitFor()],
      ['Webhooks', 'Webhooks', () => page.getByRole('link', { name: /nobody-listens/ }).waitFor()],
    ]
    let dates = 0
    for (const [link, heading, ready] of pages) {
      await nav().getByRole('link', { name: link, exact: true }).click()
      await ready()
      await visit(page, `dates-${link.toLowerCase().replace(' ', '-')}`, heading)
      dates += await expectReadableDates(link)
    }
    // The webhook's page and its delivery log, and a payout's statement (calendar days).
    await page.getByRole('link', { name: /nobody-listens/ }).click()
    await visit(page, 'dates-webhook', 'Webhook')
    dates += await expectReadableDates('Webhook')
    await nav().getByRole('link', { name: 'Payouts', exact: true }).click()
    await page.getByRole('row').filter({ hasText: 'Bartholomeus' }).getByRole('link').click()
    await visit(page, 'dates-payout', /^Payout of/)
    dates += await expectReadableDates('Payout')
    expect(dates).toBeGreaterThan(10)
  })

  it('shows the balances’ action whole at 1280 px, however long the names and amounts', async () => {
    await nav().getByRole('link', { name: 'Balances', exact: true }).click()
    const row = page.getByRole('row').filter({ hasText: 'Annemarie' })
    await row.waitFor()
    await visit(page, 'balances-wide', 'Balances')
    await page.setViewportSize({ width: 1280, height: 900 })
    const region = page.getByRole('region', { name: 'Balances per creator and currency' })
    const overflow = await region.evaluate((element) => element.scrollWidth - element.clientWidth)
    expect(overflow, 'the balances table scrolls sideways at 1280 px').toBeLessThanOrEqual(0)
    const box = (await region.boundingBox())!
    const button = (await row.getByRole('button', { name: 'Create payout' }).boundingBox())!
    expect(button.x + button.width).toBeLessThanOrEqual(box.x + box.width)
    expect(button.x).toBeGreaterThanOrEqual(box.x)
  })

  it('groups the webhook kinds by object, explains the two special kinds, and never overlaps them', async () => {
    await nav().getByRole('link', { name: 'Webhooks', exact: true }).click()
    await page.getByRole('link', { name: 'Register webhook' }).click()
    await visit(page, 'webhook-kinds', 'Register a webhook')
    const everything = page.getByRole('group', { name: 'Everything' })
    // Each kind is labelled by itself and described in one line (GET /api/webhook-kinds).
    const described = async (name: string) => {
      const box = everything.getByRole('checkbox', { name, exact: true })
      await expect.poll(() => box.getAttribute('aria-describedby')).toMatch(/explanation/)
      return page.locator(`[id="${await box.getAttribute('aria-describedby')}"]`).textContent()
    }
    expect(await described('*')).toMatch(/including kinds added later/)
    expect(await described('audit.emitted')).toMatch(/under this one kind/)
    const kinds = page.getByRole('group', { name: 'Kinds' })
    const groups = kinds.getByRole('group')
    expect(await groups.count()).toBeGreaterThan(8)
    for (const group of await groups.all()) {
      const heading = (await group.locator('legend').textContent()) ?? ''
      const object = /(\w+)\.\*$/.exec(heading)?.[1]
      expect(object, `the group "${heading}" names its object`).toBeDefined()
      const names = await group
        .getByRole('checkbox')
        .evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).value))
      expect(names.length).toBeGreaterThan(0)
      for (const name of names) expect(name.split('.')[0]).toBe(object)
    }
    expect(
      await kinds
        .getByRole('group', { name: /payout\.\*$/ })
        .getByLabel('payout.paid', { exact: true })
        .count(),
    ).toBe(1)

    for (const width of [375, 414, 600, 768, 900, 1024, 1280, 1440, 1600, 1920]) {
      await page.setViewportSize({ width, height: 900 })
      const boxes = await page.locator('form fieldset .choice-option').evaluateAll((options) =>
        options.map((option) => {
          const { left, right, top, bottom } = option.getBoundingClientRect()
          const label = option.querySelector('label')!
          return {
            left,
            right,
            top,
            bottom,
            text: option.textContent ?? '',
            spills: label.scrollWidth - label.clientWidth,
          }
        }),
      )
      // Every kind: the two catch-alls and each org event action.
      expect(boxes.length).toBe(ORG_EVENT_ACTIONS.length + 2)
      for (const [index, a] of boxes.entries()) {
        expect(a.spills, `${a.text} spills out of its label at ${width} px`).toBeLessThanOrEqual(1)
        for (const b of boxes.slice(index + 1)) {
          const overlap = a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1
          expect(overlap, `${a.text} overlaps ${b.text} at ${width} px`).toBe(false)
        }
      }
      const pageOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(pageOverflow, `the form is wider than ${width} px`).toBeLessThanOrEqual(0)
    }
    await page.setViewportSize({ width: 1280, height: 900 })
    await screenshots(page, 'webhook-kinds-grouped')
  })
})
