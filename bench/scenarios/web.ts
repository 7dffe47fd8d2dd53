import { execFileSync } from 'node:child_process'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type pg from 'pg'
import { post } from '../lib/accounts.js'
import { withScenarioDatabase } from '../lib/database.js'
import { launchChromium, loadUntilRows, median, type PageLoad, type SessionCookie } from '../lib/page-load.js'
import { seedCreators, seedRecordings } from '../lib/records-seed.js'
import type { Measurement, Scenario, ScenarioContext } from '../lib/scenario.js'
import { benchNodeArgs, Cleanup, ROOT, startChild, startOeuvre } from '../lib/servers.js'

const DIST = path.join(ROOT, 'web/dist')
/** The goal for the JavaScript the first page load needs, gzip (1 KB = 1,000 bytes). */
const INITIAL_JS_GOAL_BYTES = 200_000
const ROWS = 100
/** More entries than one page holds, so the page has a next one, as a real catalog would. */
const ENTRIES = 150
const CREATORS = 30
const PASSWORD = 'correct horse battery'

/** A chunk in Vite's build manifest (web/dist/.vite/manifest.json). */
interface ManifestChunk {
  file: string
  imports?: string[]
  css?: string[]
}

interface InitialJavaScript {
  /** Paths as the browser asks for them (`/assets/index-....js`). */
  files: string[]
  bytes: number
  gzipBytes: number
  brotliBytes: number
  cssGzipBytes: number
}

const size = async (file: string): Promise<number> => (await stat(path.join(DIST, file))).size

/**
 * What index.html loads before any lazy chunk: its entry script and, transitively, the chunks
 * it imports statically (Vite's manifest; `dynamicImports` are the pages, loaded when visited).
 * Sizes are those of the .gz and .br files the build writes and the service sends.
 */
async function initialJavaScript(): Promise<InitialJavaScript> {
  const manifest = JSON.parse(await readFile(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >
  const seen = new Set<string>()
  const visit = (key: string) => {
    if (seen.has(key)) return
    seen.add(key)
    for (const imported of manifest[key]?.imports ?? []) visit(imported)
  }
  visit('index.html')
  const chunks = [...seen].map((key) => manifest[key]!)
  const files = chunks.map((chunk) => chunk.file)
  const css = [...new Set(chunks.flatMap((chunk) => chunk.css ?? []))]
  const sum = async (names: string[], suffix: string) =>
    (await Promise.all(names.map((name) => size(name + suffix)))).reduce((a, b) => a + b, 0)
  return {
    files: files.map((file) => `/${file}`),
    bytes: await sum(files, ''),
    gzipBytes: await sum(files, '.gz'),
    brotliBytes: await sum(files, '.br'),
    cssGzipBytes: await sum(css, '.gz'),
  }
}

/** A user signed in as the app signs in (`POST /api/auth/login/cookie`): the session cookie it is given. */
async function cookieSession(baseUrl: string, email: string): Promise<SessionCookie> {
  const response = await fetch(`${baseUrl}/api/auth/login/cookie`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(baseUrl).origin, 'x-oeuvre-csrf': '1' },
    body: JSON.stringify({ email, password: PASSWORD }),
  })
  if (response.status !== 200) throw new Error(`cookie login: ${response.status} ${await response.text()}`)
  const [pair] = (response.headers.get('set-cookie') ?? '').split(';')
  const [name, value] = (pair ?? '').split('=')
  if (!name || !value) throw new Error('cookie login set no cookie')
  // For 127.0.0.1 whatever the port: the floor's server is another origin of the same site.
  return { name, value, url: baseUrl }
}

/** The org to show: its owner, 30 creators and 150 recordings with splits (set-based SQL, as the other scenarios seed). */
async function seedOrg(baseUrl: string, owner: pg.Pool): Promise<{ email: string; orgId: string }> {
  const email = `bench.web.${Date.now()}@example.com`
  const signup = await post<{ token: string; user: { id: string } }>(`${baseUrl}/api/auth/signup`, {
    email,
    password: PASSWORD,
    name: 'Bench',
  })
  const org = await post<{ id: string }>(
    `${baseUrl}/api/orgs`,
    { name: 'Bench web', environment: 'sandbox' },
    { token: signup.token },
  )
  await seedCreators(owner, org.id, signup.user.id, CREATORS)
  await seedRecordings(owner, org.id, signup.user.id, ENTRIES, CREATORS)
  await owner.query('analyze creators, catalog_entries, catalog_splits')
  return { email, orgId: org.id }
}

const kb = (bytes: number): string => (bytes / 1000).toFixed(1)

async function measure(context: ScenarioContext, initial: InitialJavaScript): Promise<Measurement[]> {
  return withScenarioDatabase(context.databaseUrl, 'web', async (db) => {
    const cleanup = new Cleanup()
    try {
      const oeuvre = await startOeuvre(db.url, context.redisUrl)
      cleanup.add(oeuvre.stop)
      const { email, orgId } = await seedOrg(oeuvre.ready, db.owner)
      const cookie = await cookieSession(oeuvre.ready, email)
      const me = (await (
        await fetch(`${oeuvre.ready}/api/me`, { headers: { cookie: `${cookie.name}=${cookie.value}` } })
      ).json()) as { activeOrgId: string | null }
      if (me.activeOrgId !== orgId)
        throw new Error(`the cookie session's active org is ${me.activeOrgId}, not ${orgId}`)

      const floor = await startChild(['bench/floors/web-floor.ts'], {
        nodeArgs: benchNodeArgs(),
        env: { OEUVRE_URL: oeuvre.ready },
        ready: /listening on (\S+)/,
      })
      cleanup.add(floor.stop)
      const browser = await launchChromium()
      cleanup.add(() => browser.close())

      const appUrl = `${oeuvre.ready}/catalog?limit=${ROWS}`
      const floorUrl = `${floor.ready}/catalog-floor`
      const load = (url: string) => loadUntilRows(browser, url, cookie, ROWS)
      // Unmeasured first loads: both servers' code paths compiled, Chromium's processes started.
      for (let i = 0; i < 2; i += 1) {
        await load(floorUrl)
        await load(appUrl)
      }
      const repetitions = Math.max(6, Math.round(16 * context.scale))
      const floorLoads: PageLoad[] = []
      const appLoads: PageLoad[] = []
      // Alternating (floor, app, app, floor, ...): a drift in the machine's speed weighs on both alike.
      for (let i = 0; i < repetitions; i += 1) {
        if (i % 2 === 0) {
          floorLoads.push(await load(floorUrl))
          appLoads.push(await load(appUrl))
        } else {
          appLoads.push(await load(appUrl))
          floorLoads.push(await load(floorUrl))
        }
      }
      return report(context, initial, floorLoads, appLoads)
    } finally {
      await cleanup.run()
    }
  })
}

/** When the page asked for the catalog's JSON, and when the answer was in (medians, ms since navigation). */
function catalogRequest(loads: PageLoad[]): { start: number; end: number } {
  const requests = loads.map((load) => {
    const request = load.resources.find((resource) => resource.path === `/api/catalog?limit=${ROWS}`)
    if (!request) throw new Error(`a page load made no /api/catalog?limit=${ROWS} request`)
    return request
  })
  return { start: median(requests.map((r) => r.startTime)), end: median(requests.map((r) => r.responseEnd)) }
}

function report(
  context: ScenarioContext,
  initial: InitialJavaScript,
  floorLoads: PageLoad[],
  appLoads: PageLoad[],
): Measurement[] {
  const rowTexts = new Set([...floorLoads, ...appLoads].map((load) => load.lastRowText))
  if (rowTexts.size !== 1) throw new Error(`the pages' 100th rows differ: ${[...rowTexts].join(' | ')}`)

  // The initial scripts as the browser fetched them (the same in every cold load; the median one's).
  const transferred = appLoads.map((load) => {
    const scripts = load.resources.filter((resource) => initial.files.includes(resource.path))
    if (scripts.length !== initial.files.length)
      throw new Error(`the browser fetched ${scripts.length} of the ${initial.files.length} initial scripts`)
    return {
      body: scripts.reduce((sum, s) => sum + s.encodedBodySize, 0),
      encodings: [...new Set(scripts.map((s) => s.encoding || 'identity'))].join(','),
    }
  })
  const transferredBody = median(transferred.map((t) => t.body))
  const lazyChunks = median(
    appLoads.map(
      (load) =>
        load.resources.filter((r) => r.path.startsWith('/assets/') && r.path.endsWith('.js')).length -
        initial.files.length,
    ),
  )

  const floorMs = median(floorLoads.map((load) => load.ms))
  const appMs = median(appLoads.map((load) => load.ms))
  const floorApi = catalogRequest(floorLoads)
  const appApi = catalogRequest(appLoads)
  const cpu = (loads: PageLoad[], key: 'mainThreadMs' | 'scriptMs') => median(loads.map((load) => load[key]))
  const range = (loads: PageLoad[]) =>
    `${Math.min(...loads.map((l) => l.ms)).toFixed(0)}-${Math.max(...loads.map((l) => l.ms)).toFixed(0)}`
  context.log(
    `initial JS: ${initial.files.length} files, ${kb(initial.bytes)} KB, ${kb(initial.gzipBytes)} KB gzip, ` +
      `${kb(initial.brotliBytes)} KB brotli (CSS ${kb(initial.cssGzipBytes)} KB gzip); ` +
      `the browser fetched ${kb(transferredBody)} KB of it (${transferred[0]!.encodings})`,
  )
  context.log(
    `${ROWS} rows: floor ${floorMs.toFixed(0)} ms (${range(floorLoads)}), app ${appMs.toFixed(0)} ms (${range(appLoads)}); ` +
      `the catalog request asked at ${floorApi.start.toFixed(0)} / ${appApi.start.toFixed(0)} ms, ` +
      `answered at ${floorApi.end.toFixed(0)} / ${appApi.end.toFixed(0)} ms; the main thread's CPU ` +
      `${cpu(floorLoads, 'mainThreadMs').toFixed(0)} / ${cpu(appLoads, 'mainThreadMs').toFixed(0)} ms, ` +
      `scripts ${cpu(floorLoads, 'scriptMs').toFixed(0)} / ${cpu(appLoads, 'scriptMs').toFixed(0)} ms (floor / app)`,
  )
  return [
    {
      name: 'initial JS, gzip',
      unit: 'KB',
      floor: INITIAL_JS_GOAL_BYTES / 1000,
      oeuvre: initial.gzipBytes / 1000,
      ratio: INITIAL_JS_GOAL_BYTES / initial.gzipBytes,
      target: 1,
      extra: {
        files: initial.files.length,
        bytes: initial.bytes,
        gzipBytes: initial.gzipBytes,
        brotliBytes: initial.brotliBytes,
        transferredBytes: transferredBody,
        transferredEncoding: transferred[0]!.encodings,
        cssGzipBytes: initial.cssGzipBytes,
      },
    },
    {
      name: `navigation to ${ROWS} catalog rows`,
      unit: 'ms',
      floor: floorMs,
      oeuvre: appMs,
      ratio: floorMs / appMs,
      target: 0.5,
      extra: {
        repetitions: appLoads.length,
        floorRangeMs: range(floorLoads),
        appRangeMs: range(appLoads),
        floorApiStartMs: floorApi.start.toFixed(1),
        appApiStartMs: appApi.start.toFixed(1),
        floorApiEndMs: floorApi.end.toFixed(1),
        appApiEndMs: appApi.end.toFixed(1),
        floorMainThreadCpuMs: cpu(floorLoads, 'mainThreadMs').toFixed(1),
        appMainThreadCpuMs: cpu(appLoads, 'mainThreadMs').toFixed(1),
        floorScriptCpuMs: cpu(floorLoads, 'scriptMs').toFixed(1),
        appScriptCpuMs: cpu(appLoads, 'scriptMs').toFixed(1),
        appLazyChunks: lazyChunks,
      },
    },
  ]
}

/**
 * The web app's first page load in headless Chromium: (a) the JavaScript index.html loads before
 * any lazy chunk, gzip, against the 200 KB; (b) from a cold navigation to a rendered
 * 100-row catalog page, signed in, against a static page that fetches the same JSON from the same
 * API with the same session and renders the same rows with plain DOM code.
 */
export const webScenario: Scenario = {
  name: 'web',
  description: `initial JS (gzip) vs 200 KB; cold navigation to ${ROWS} rendered catalog rows in headless Chromium vs a static page rendering the same JSON`,
  async run(context) {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/web-build.ts', '--if-stale'], {
      cwd: ROOT,
      stdio: 'inherit',
    })
    return measure(context, await initialJavaScript())
  },
}
