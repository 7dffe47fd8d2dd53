import { mkdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { expect } from 'vitest'

/** Debian's Chromium, headless, as CI installs it (CHROMIUM_PATH overrides). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
}

export async function newPage(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  page.setDefaultTimeout(15_000)
  return { context, page }
}

const require = createRequire(import.meta.url)
let axeSource: string | undefined

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: unknown[] }[]
}

/** axe-core on the page as it is: no serious or critical violation. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8')
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') stays in force.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown[] }> } }).axe
    return (await axe.run(document)).violations
  })
  const serious = (violations as AxeViolation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical')
  const report = serious.map((v) => `${v.impact} ${v.id}: ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`)
  expect(report, `axe-core on ${name} (${page.url()})`).toEqual([])
}

export const SCREENSHOT_DIR = path.resolve('test-results/web')

/** Screenshots of the page at 1280 px and at 375 px wide, for a reviewer; nothing may overflow sideways at 375. */
export async function screenshots(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOT_DIR, { recursive: true })
  const original = page.viewportSize() ?? { width: 1280, height: 900 }
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 })
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true })
    if (width === 375) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow, `${name} is wider than 375 px`).toBeLessThanOrEqual(0)
    }
  }
  await page.setViewportSize(original)
}

/** Every page a test visits: wait for its heading, check it with axe-core and photograph it at both widths. */
export async function visit(page: Page, name: string, heading: string | RegExp): Promise<void> {
  await expect.poll(() => page.getByRole('heading', { level: 1, name: heading }).count()).toBeGreaterThan(0)
  await page
    .getByRole('status')
    .filter({ hasText: /^Loading/ })
    .waitFor({ state: 'detached' })
  await expectAccessible(page, name)
  await screenshots(page, name)
}

/** What a validator writes, which a person must never read. */
const VALIDATOR_PHRASES = [
  /must NOT have/i,
  /must be equal to constant/i,
  /must be integer/i,
  /has an invalid format/i,
  /must match (format|pattern)/i,
  /must be (string|number|boolean|array|object)\b/i,
  /is not a known parameter/i,
]

/** A camelCase word: an API parameter name (`failureMessage`, `minimumPayout`) that leaked onto the page. */
const CAMEL_CASE = /\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/

/**
 * The page in people's words: its visible text (code and preformatted records aside: an API path, the
 * JSON of a record) holds no validator phrase and no camelCase word; each error is shown in one
 * place, at its field or once at the top of its form, never both. Returns the errors shown.
 */
export async function expectPeoplesWords(page: Page, name: string): Promise<{ fields: string[]; forms: string[] }> {
  const seen = await page.evaluate(() => {
    const texts: string[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement
      if (!parent || parent.closest('code, pre, script, style, option, [hidden]')) continue
      if (!parent.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue
      const text = (node.textContent ?? '').trim()
      if (text) texts.push(text)
    }
    const visible = (selector: string) =>
      Array.from(document.querySelectorAll(selector))
        .filter((element) => element.checkVisibility())
        .map((element) => (element.textContent ?? '').trim())
    return { texts, fields: visible('.field-error'), forms: visible('.form-error') }
  })
  const text = seen.texts.join('\n')
  for (const phrase of VALIDATOR_PHRASES) expect(text, `${name}: a validator's phrase`).not.toMatch(phrase)
  const camel = seen.texts.flatMap((line) => line.match(new RegExp(CAMEL_CASE, 'g')) ?? [])
  expect(camel, `${name}: camelCase words on the page`).toEqual([])
  for (const field of seen.fields)
    for (const form of seen.forms) expect(form, `${name}: "${field}" at its field and at the top`).not.toContain(field)
  return { fields: seen.fields, forms: seen.forms }
}
