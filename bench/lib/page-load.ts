import { chromium, type Browser } from 'playwright-core'

/** Debian's Chromium as the browser tests and CI run it (CHROMIUM_PATH overrides). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
}

/** A cookie the page load starts with (the signed-in session). */
export interface SessionCookie {
  name: string
  value: string
  url: string
}

/** A resource the page fetched before its rows were in, from Resource Timing (ms since the navigation started). */
export interface LoadedResource {
  path: string
  startTime: number
  responseEnd: number
  /** Body bytes as sent (compressed), and with headers. */
  encodedBodySize: number
  transferSize: number
  /** The response's Content-Encoding (`gzip`, `br`, or empty). */
  encoding: string
}

export interface PageLoad {
  /** From the navigation's start to the moment the `rows`-th table row was inserted into the DOM. */
  ms: number
  /** CPU time of the page's main thread until then (Chromium's TaskDuration; ScriptDuration of it ran scripts), ms. */
  mainThreadMs: number
  scriptMs: number
  /** The last row's first cell, to check that both pages show the same rows. */
  lastRowText: string
  resources: LoadedResource[]
}

/**
 * The same in-page probe for every page measured, installed before any of the page's scripts
 * run: a MutationObserver that marks (`performance.mark`) the moment a `tbody` first holds its
 * `rows`-th row, and hands the mark's time to the bench through a binding.
 */
function rowProbe(rows: number): string {
  return `(() => {
  const observer = new MutationObserver(() => {
    const row = document.querySelector('tbody > tr:nth-child(${rows})')
    if (!row) return
    observer.disconnect()
    const mark = performance.mark('rows-${rows}')
    window.__benchRows({ ms: mark.startTime, lastRowText: row.cells[0].textContent })
  })
  observer.observe(document, { childList: true, subtree: true })
})()`
}

const RESOURCES = `performance.getEntriesByType('resource').map((entry) => ({
  path: new URL(entry.name).pathname + new URL(entry.name).search,
  startTime: entry.startTime,
  responseEnd: entry.responseEnd,
  encodedBodySize: entry.encodedBodySize,
  transferSize: entry.transferSize,
}))`

/**
 * One cold page load: a fresh browser context (empty cache, no connections), the session cookie
 * set, `url` opened, and the time until the `rows`-th row is in the DOM.
 */
export async function loadUntilRows(
  browser: Browser,
  url: string,
  cookie: SessionCookie,
  rows: number,
  timeoutMs = 30_000,
): Promise<PageLoad> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  try {
    await context.addCookies([cookie])
    let reached: (value: { ms: number; lastRowText: string }) => void = () => undefined
    const done = new Promise<{ ms: number; lastRowText: string }>((resolve) => (reached = resolve))
    await context.exposeBinding('__benchRows', (_source, value: { ms: number; lastRowText: string }) => reached(value))
    await context.addInitScript({ content: rowProbe(rows) })
    const page = await context.newPage()
    // The renderer's own account of its main thread, in CPU time (threadTicks): what the page cost, whatever else ran.
    const devtools = await context.newCDPSession(page)
    await devtools.send('Performance.enable', { timeDomain: 'threadTicks' })
    const encodings = new Map<string, string>()
    page.on('response', (response) => {
      const at = new URL(response.url())
      encodings.set(at.pathname + at.search, response.headers()['content-encoding'] ?? '')
    })
    const failures: string[] = []
    page.on('pageerror', (error) => failures.push(error.message))
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${url}: no ${rows}th row after ${timeoutMs} ms ${failures.join('; ')}`)),
        timeoutMs,
      )
    })
    try {
      await page.goto(url, { waitUntil: 'commit' })
      const result = await Promise.race([done, timeout])
      const { metrics } = await devtools.send('Performance.getMetrics')
      const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000
      const resources = (await page.evaluate(RESOURCES)) as Omit<LoadedResource, 'encoding'>[]
      return {
        ...result,
        mainThreadMs: metric('TaskDuration'),
        scriptMs: metric('ScriptDuration'),
        resources: resources
          .filter((resource) => resource.startTime <= result.ms)
          .map((resource) => ({ ...resource, encoding: encodings.get(resource.path) ?? '' })),
      }
    } finally {
      clearTimeout(timer)
    }
  } finally {
    await context.close()
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
