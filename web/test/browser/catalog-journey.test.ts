import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiCall, PASSWORD, uniqueEmail } from './api.js'
import { expectAccessible, launchBrowser, newPage, screenshots, visit } from './browser.js'
import { startService, type RunningService } from './service.js'

/** A new user, by reading the screen: sign up, an org, creators, a catalog entry with splits, its correction. */
let service: RunningService
let browser: Browser
let page: Page
const email = uniqueEmail('journey')

beforeAll(async () => {
  ;[service, browser] = await Promise.all([startService(), launchBrowser()])
  ;({ page } = await newPage(browser, service.url))
})
afterAll(async () => {
  await browser?.close()
  await service?.stop()
})

const fieldError = async (page: Page, label: string | RegExp) => {
  const field = page.getByLabel(label, { exact: typeof label === 'string' })
  expect(await field.getAttribute('aria-invalid')).toBe('true')
  const described = (await field.getAttribute('aria-describedby')) ?? ''
  const ids = described.split(' ').filter((id) => id.endsWith('-error'))
  expect(ids).toHaveLength(1)
  return (await page.locator(`[id="${ids[0]}"]`).textContent()) ?? ''
}

describe('a new user’s first catalog entry', () => {
  it('signs up (the API’s field error shown beside the field) and lands on creating an org', async () => {
    await page.goto('/')
    await page.waitForURL(/\/login/)
    await visit(page, 'login', 'Log in')
    await page.getByRole('link', { name: 'Sign up' }).click()
    await visit(page, 'signup', 'Create your account')
    await page.getByLabel('Name').fill('Journey Owner')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill('short')
    await page.getByRole('button', { name: 'Sign up' }).click()
    await expect.poll(() => page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true')
    expect(await fieldError(page, 'Password')).toMatch(/password/i)
    await visit(page, 'signup-error', 'Create your account')
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign up' }).click()
    // Back to where the login page was asked for (/), and from there, with no org yet, to creating one.
    await page.waitForURL(/\/orgs\/new$/)
    // The app's root with no org: a redirect, not a page that hung the browser in a render loop.
    await page.goto('/')
    await page.waitForURL(/\/orgs\/new$/)
    await visit(page, 'org-new', 'New organisation')
  })

  it('creates a sandbox org and sees its empty catalog', async () => {
    await page.getByLabel('Name').fill('Journey Records')
    await page.getByLabel(/^Sandbox/).check()
    await page.getByRole('button', { name: 'Create organisation' }).click()
    await page.waitForURL(/\/catalog$/)
    await expect.poll(() => page.getByText('The catalog is empty').count()).toBe(1)
    await visit(page, 'catalog-empty', 'Catalog')
    const switcher = page.getByLabel('Organisation')
    expect(await switcher.locator('option:checked').textContent()).toContain('Journey Records (sandbox)')
  })

  it('creates two creators through the form, with a field error first', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Creators' }).click()
    await expect.poll(() => page.getByText('No creators yet').count()).toBe(1)
    await visit(page, 'creators-empty', 'Creators')
    await page.getByRole('button', { name: 'New creator' }).click()
    await visit(page, 'creator-new', 'New creator')
    await page.getByLabel('Name', { exact: true }).fill('Ada Vos')
    await page.getByLabel('Country').fill('N1')
    await page.getByRole('button', { name: 'Create creator' }).click()
    await expect.poll(() => page.getByLabel('Country').getAttribute('aria-invalid')).toBe('true')
    expect(await fieldError(page, 'Country')).toMatch(/country/i)
    await visit(page, 'creator-new-error', 'New creator')
    await page.getByLabel('Country').fill('NL')
    await page.getByLabel('Opening balance').fill('-250.50')
    await page.getByRole('button', { name: 'Create creator' }).click()
    await visit(page, 'creator-detail', 'Ada Vos')
    // Money exactly as the API gives it.
    expect(await page.getByText('-250.500000 EUR').or(page.getByText('-250.50 EUR')).count()).toBe(1)

    await page.goto('/creators/new')
    await page.getByLabel('Name', { exact: true }).fill('Ben Berg')
    await page.getByLabel('producer').check()
    await page.getByRole('button', { name: 'Create creator' }).click()
    await visit(page, 'creator-detail-2', 'Ben Berg')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Creators' }).click()
    await expect
      .poll(() =>
        page
          .getByRole('table', { name: /Creators/ })
          .getByRole('row')
          .count(),
      )
      .toBe(3)
    await visit(page, 'creators-list', 'Creators')
  })

  it('creates a recording whose splits show the 10000 bps rule as they are typed', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Catalog' }).click()
    await page.getByRole('button', { name: 'New catalog entry' }).click()
    await visit(page, 'catalog-new', 'New catalog entry')
    await page.getByLabel('Kind').selectOption('recording')
    await page.getByLabel('Title').fill('First Light')
    await page.getByLabel('Display artist').fill('Ada Vos')
    await page.getByLabel('ISRC').fill('NL-A1X-26-00099')
    await page.getByLabel('Split 1: creator').selectOption({ label: 'Ada Vos' })
    const total = page.getByRole('status').filter({ hasText: /basis points/ })
    await page.getByLabel('Split 1: share (basis points)').fill('6000')
    expect(await total.textContent()).toContain('Total 6000 of 10000 basis points (60%): 4000 left to assign')
    await page.getByLabel('Split 1: share (basis points)').fill('12000')
    expect(await total.textContent()).toContain('2000 too many')
    await page.getByLabel('Split 1: share (basis points)').fill('6000')
    // Sent as it is, the API refuses it and says why beside the splits.
    await page.getByRole('button', { name: 'Create entry' }).click()
    await expect.poll(() => page.getByText(/must sum to exactly 10000/).count()).toBeGreaterThan(1)
    await visit(page, 'catalog-new-splits-invalid', 'New catalog entry')
    await page.getByRole('button', { name: 'Add split' }).click()
    expect(await page.getByLabel('Split 2: share (basis points)').inputValue()).toBe('4000')
    await page.getByLabel('Split 2: creator').selectOption({ label: 'Ben Berg' })
    await page.getByLabel('Split 2: role').selectOption('producer')
    expect(await total.textContent()).toContain('the splits are complete')
    await visit(page, 'catalog-new-splits', 'New catalog entry')
    await page.getByRole('button', { name: 'Create entry' }).click()
    await page.waitForURL(/\/catalog\/cat_/)
    await visit(page, 'catalog-detail', 'First Light')
    const splits = page.getByRole('table', { name: 'Splits' })
    expect(await splits.getByRole('row').count()).toBe(3)
    expect(await splits.getByRole('row', { name: /Ada Vos/ }).textContent()).toContain('6000')
    expect(await splits.getByRole('row', { name: /Ben Berg/ }).textContent()).toContain('4000')
    // The dialog primitive: titled, focus inside while open, Escape closes it and focus returns.
    await page.getByRole('button', { name: 'Show API record' }).click()
    const dialog = page.getByRole('dialog', { name: 'API record' })
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('"shareBps": 6000')
    expect(await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true)
    await expectAccessible(page, 'catalog-record-dialog')
    await screenshots(page, 'catalog-record-dialog')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Show API record')
  })

  it('corrects the entry: the correction supersedes it and both link to each other', async () => {
    const original = page.url().split('/').pop()!
    await page.getByRole('button', { name: 'Correct this entry' }).click()
    await visit(page, 'catalog-correct', /^Correct/)
    expect(await page.getByLabel('Title').inputValue()).toBe('First Light')
    await page.getByLabel('Version').fill('Remastered')
    await page.getByRole('button', { name: 'Save correction' }).click()
    await page.waitForURL((url) => /\/catalog\/cat_/.test(url.pathname) && !url.pathname.endsWith(original))
    await visit(page, 'catalog-detail-correction', 'First Light')
    const supersedes = page.getByRole('link', { name: original })
    expect(await supersedes.count()).toBe(1)
    await supersedes.click()
    await page.waitForURL(new RegExp(`/catalog/${original}$`))
    await expect.poll(() => page.getByText(/superseded by/).count()).toBeGreaterThan(0)
    await visit(page, 'catalog-detail-superseded', 'First Light')
    expect(await page.getByRole('button', { name: 'Correct this entry' }).count()).toBe(0)
  })

  it('filters the catalog with the filters in the URL, and reloads to the same page', async () => {
    await page.goto('/catalog')
    await page.getByLabel('Kind').selectOption('work')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL(/kind=work/)
    await expect.poll(() => page.getByText('No entries match these filters').count()).toBe(1)
    await visit(page, 'catalog-filtered-empty', 'Catalog')
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await page.getByLabel('Search titles and artists').fill('first')
    await page.getByLabel('Creator').selectOption({ label: 'Ben Berg' })
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL(/q=first/)
    expect(page.url()).toMatch(/creatorId=crt_/)
    const rows = () =>
      page
        .getByRole('table', { name: /Catalog entries/ })
        .getByRole('row')
        .count()
    await expect.poll(rows).toBe(3)
    await page.reload()
    await expect.poll(rows).toBe(3)
    expect(await page.getByLabel('Search titles and artists').inputValue()).toBe('first')
    await visit(page, 'catalog-filtered', 'Catalog')
  })

  it('shows 25, 50 or 100 catalog rows per page, the choice kept in the URL', async () => {
    const login = await apiCall<{ token: string }>(service.url, 'POST', '/api/auth/login', {
      body: { email, password: PASSWORD },
    })
    const creators = await apiCall<{ data: { id: string }[] }>(service.url, 'GET', '/api/creators?limit=1', {
      token: login.body.token,
    })
    const creatorId = creators.body.data[0]!.id
    for (let index = 0; index < 25; index += 1) {
      const created = await apiCall(service.url, 'POST', '/api/catalog', {
        token: login.body.token,
        body: { kind: 'work', title: `Etude ${index}`, splits: [{ creatorId, role: 'composer', shareBps: 10000 }] },
      })
      expect(created.status).toBe(201)
    }
    await page.goto('/catalog')
    const rows = page.getByRole('table', { name: /Catalog entries/ }).getByRole('row')
    await expect.poll(() => rows.count()).toBe(26)
    expect(await page.getByRole('button', { name: 'Next page' }).isEnabled()).toBe(true)
    await page.getByLabel('Rows per page').selectOption('50')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL(/limit=50/)
    const total = 25 + 2
    await expect.poll(() => rows.count()).toBe(total + 1)
    expect(await page.getByRole('button', { name: 'Next page' }).count()).toBe(0)
    await page.reload()
    await expect.poll(() => rows.count()).toBe(total + 1)
    expect(await page.getByLabel('Rows per page').inputValue()).toBe('50')
    await visit(page, 'catalog-50-rows', 'Catalog')
    // A filter keeps the page size; clearing the filters keeps it too.
    await page.getByLabel('Kind').selectOption('work')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL(/kind=work/)
    expect(page.url()).toMatch(/limit=50/)
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await page.waitForURL((url) => !url.search.includes('kind='))
    expect(page.url()).toMatch(/limit=50/)
  })

  it('pages the creators by the cursor, kept in the URL', async () => {
    const login = await apiCall<{ token: string }>(service.url, 'POST', '/api/auth/login', {
      body: { email, password: PASSWORD },
    })
    for (let index = 0; index < 25; index += 1) {
      const created = await apiCall(service.url, 'POST', '/api/creators', {
        token: login.body.token,
        body: { name: `Session Player ${index}`, kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
      })
      expect(created.status).toBe(201)
    }
    await page.goto('/creators')
    const rows = page.getByRole('table', { name: /Creators/ }).getByRole('row')
    await expect.poll(() => rows.count()).toBe(26)
    await page.getByRole('button', { name: 'Next page' }).click()
    await page.waitForURL(/cursor=/)
    await expect.poll(() => rows.count()).toBe(3)
    await page.reload()
    await expect.poll(() => rows.count()).toBe(3)
    expect(await page.getByRole('link', { name: 'Ada Vos' }).count()).toBe(1)
    await visit(page, 'creators-page-2', 'Creators')
    await page.getByRole('button', { name: 'First page' }).click()
    await expect.poll(() => rows.count()).toBe(26)
  })
})
