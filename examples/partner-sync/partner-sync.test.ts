import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Oeuvre } from '@oeuvre/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../../test/eventually.js'
import { drain } from '../../test/webhook-helpers.js'
import { credentials, RealTimeClock, sandboxPartner, startService } from '../../packages/sdk/test/service.js'
import type { LiveService, Partner } from '../../packages/sdk/test/service.js'
import { decimal, microUnits, type MirrorState } from './mirror.js'

const here = fileURLToPath(new URL('.', import.meta.url))
let service: LiveService
let partner: Partner
let label: Oeuvre
let dir: string
let mirrorFile: string

beforeAll(async () => {
  service = await startService({ clock: new RealTimeClock(), isolated: true })
  partner = await sandboxPartner(service, [
    'events:read',
    'catalog:read',
    'catalog:write',
    'creators:write',
    'revenue:read',
    'revenue:write',
    'webhooks:read',
    'webhooks:write',
  ])
  // The label's own writes, through the SDK as well.
  label = new Oeuvre(credentials(service, partner))
  dir = await mkdtemp(path.join(tmpdir(), 'partner-sync-'))
  mirrorFile = path.join(dir, 'mirror.json')
})
afterAll(async () => {
  await service.close()
  await rm(dir, { recursive: true, force: true })
})

/** The example as its README runs it: its own directory, the built SDK, configuration in the environment. */
function start(args: string[]): { child: ChildProcess; output: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts', ...args], {
    cwd: here,
    env: {
      ...process.env,
      OEUVRE_URL: service.baseUrl,
      OEUVRE_CLIENT_ID: partner.clientId,
      OEUVRE_CLIENT_SECRET: partner.clientSecret,
      OEUVRE_ORG_ID: partner.orgId,
      MIRROR_FILE: mirrorFile,
      POLL_SECONDS: '3600',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output: () => output, exit }
}

async function once(): Promise<Record<string, unknown>> {
  const run = start(['--once'])
  expect(await run.exit, run.output()).toBe(0)
  return JSON.parse(run.output().trim().split('\n').at(-1)!) as Record<string, unknown>
}

const mirror = async () => JSON.parse(await readFile(mirrorFile, 'utf8')) as MirrorState

describe('examples/partner-sync', () => {
  let workId: string

  it('--once mirrors the catalog and revenue from the feed, and a second run resumes after them', async () => {
    const creator = await label.creators.create(partner.orgId, {
      name: 'Ada',
      kind: 'person',
      roles: ['composer'],
      payoutCurrency: 'EUR',
    })
    const work = await label.catalog.create(partner.orgId, {
      kind: 'work',
      title: 'First Song',
      splits: [{ creatorId: creator.id, role: 'composer', shareBps: 10_000 }],
    })
    workId = work.id
    const line = { catalogId: work.id, source: 'Spotify', type: 'stream' as const, territory: 'DE', units: 10 }
    const period = { periodStart: '2026-09-01', periodEnd: '2026-09-30' }
    await label.revenue.create(partner.orgId, { ...line, ...period, amount: '10.00', currency: 'EUR' })
    await label.revenue.create(partner.orgId, { ...line, ...period, amount: '0.004217', currency: 'EUR' })
    await label.revenue.create(partner.orgId, { ...line, ...period, amount: '3.50', currency: 'USD' })

    expect(await once()).toMatchObject({
      applied: 4,
      catalogEntries: 1,
      revenueEntries: 3,
      revenueTotals: { EUR: '10.004217', USD: '3.50' },
    })
    const state = await mirror()
    expect(Object.keys(state.catalog)).toEqual([work.id])
    const revenue = await label.revenue.list(partner.orgId).toArray()
    expect(Object.keys(state.revenue).sort()).toEqual(revenue.map((entry) => entry.id).sort())
    expect(state.cursor).toEqual(expect.any(String))

    expect(await once()).toMatchObject({ applied: 0, catalogEntries: 1, revenueEntries: 3 })
  })

  it('as a service: registers its endpoint, applies verified deliveries, refuses forged ones, and stops cleanly', async () => {
    const run = start([])
    await eventually(() => run.output().includes('listening on'), 'the example to listen', { timeoutMs: 30_000 })
    const url = /listening on (\S+)/.exec(run.output())![1]!
    const endpoints = await label.webhooks.list(partner.orgId)
    expect(endpoints.data.map((endpoint) => endpoint.url)).toEqual([`${url}/webhooks`])

    const correction = await label.catalog.create(partner.orgId, {
      kind: 'work',
      title: 'First Song (corrected)',
      splits: (await label.catalog.get(partner.orgId, workId)).splits,
      supersedes: workId,
    })
    const line = await label.revenue.create(partner.orgId, {
      catalogId: correction.id,
      source: 'Deezer',
      type: 'stream',
      periodStart: '2026-10-01',
      periodEnd: '2026-10-31',
      territory: 'FR',
      units: 5,
      amount: '1.25',
      currency: 'EUR',
    })
    await drain(service.t.services.jobs.find((job) => job.name === 'webhook-deliveries')!)
    await eventually(async () => {
      const current = (await (await fetch(`${url}/mirror`)).json()) as MirrorState & { revenueTotals: object }
      return Boolean(current.revenue[line.id]) && current.catalog[workId]?.supersededBy === correction.id
    }, 'the deliveries to reach the mirror')

    const forged = await fetch(`${url}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': `sha256=${'0'.repeat(64)}` },
      body: JSON.stringify({ id: 'evt_x', type: 'revenue.created', orgId: partner.orgId, data: {} }),
    })
    expect(forged.status).toBe(400)

    run.child.kill('SIGTERM')
    expect(await run.exit, run.output()).toBe(0)
    const state = await mirror()
    expect(Object.keys(state.catalog).sort()).toEqual([workId, correction.id].sort())
    expect(state.webhook).toMatchObject({ url: `${url}/webhooks`, secret: expect.stringMatching(/^whsec_/) })
    const totals = Object.values(state.revenue)
      .filter((entry) => entry.currency === 'EUR')
      .reduce((sum, entry) => sum + microUnits(entry.amount), 0n)
    expect(decimal(totals)).toBe('11.254217')
  })
})
