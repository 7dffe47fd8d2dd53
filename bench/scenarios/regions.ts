import { createServer } from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { ownerWithOrg, post, type Owner } from '../lib/accounts.js'
import { Checks } from '../lib/checks.js'
import { withScenarioDatabase, type ScenarioDatabase } from '../lib/database.js'
import type { Scenario, ScenarioContext } from '../lib/scenario.js'
import { Cleanup, startOeuvre } from '../lib/servers.js'

/** A free port on 127.0.0.1: each deployment must know the other's URL before it starts. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

interface RegionDeployment {
  region: 'us-east' | 'eu-west'
  url: string
  owner: Owner
  client: { id: string; secret: string }
  token: string
  catalogId: string
}

async function seed(region: RegionDeployment['region'], url: string): Promise<RegionDeployment> {
  const owner = await ownerWithOrg(url, region)
  const client = await post<{ id: string; secret: string }>(
    `${url}/api/clients`,
    { name: 'drill', scopes: ['events:read', 'catalog:read'] },
    { token: owner.token },
  )
  const token = (
    await post<{ access_token: string }>(
      `${url}/oauth/token`,
      { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret, scope: 'events:read' },
      { form: true, status: 200 },
    )
  ).access_token
  const creator = await post<{ id: string }>(
    `${url}/api/creators`,
    { name: 'Ada', kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
    { token: owner.token },
  )
  const entry = await post<{ id: string }>(
    `${url}/api/catalog`,
    { kind: 'recording', title: 'Song', splits: [{ creatorId: creator.id, role: 'artist', shareBps: 10000 }] },
    { token: owner.token },
  )
  return { region, url, owner, client, token, catalogId: entry.id }
}

async function drill(context: ScenarioContext, usDb: ScenarioDatabase, euDb: ScenarioDatabase) {
  const cleanup = new Cleanup()
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'oeuvre-bench-regions-'))
  cleanup.add(() => rm(dataDir, { recursive: true, force: true }))
  try {
    const [usPort, euPort] = [await freePort(), await freePort()]
    const usUrl = `http://127.0.0.1:${usPort}`
    const euUrl = `http://127.0.0.1:${euPort}`
    const common = { REGION_DATABASE_URL_US_EAST: usDb.url, REGION_DATABASE_URL_EU_WEST: euDb.url }
    const usServer = await startOeuvre(usDb.url, context.redisUrl, {
      ...common,
      REGION: 'us-east',
      PORT: String(usPort),
      REGION_URL_EU_WEST: euUrl,
      DATA_DIR: path.join(dataDir, 'us'),
    })
    cleanup.add(usServer.stop)
    const euServer = await startOeuvre(euDb.url, context.redisUrl, {
      ...common,
      REGION: 'eu-west',
      PORT: String(euPort),
      REGION_URL_US_EAST: usUrl,
      DATA_DIR: path.join(dataDir, 'eu'),
    })
    cleanup.add(euServer.stop)
    const us = await seed('us-east', usUrl)
    const eu = await seed('eu-west', euUrl)

    const checks = new Checks(context.log)
    const wrongDoor = async (
      name: string,
      home: RegionDeployment,
      other: RegionDeployment,
      request: RequestInit & { path: string },
    ) => {
      const response = await fetch(`${other.url}${request.path}`, request)
      const body = (await response.json()) as { baseUrl?: string }
      checks.check(
        `${home.region} ${name} at ${other.region}`,
        response.status === 421 && body.baseUrl === home.url && response.headers.get('oeuvre-region') === other.region,
        `${response.status}, baseUrl ${body.baseUrl ?? '(none)'}`,
      )
    }
    for (const [home, other] of [
      [us, eu],
      [eu, us],
    ] as const) {
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: home.client.id,
        client_secret: home.client.secret,
        scope: 'events:read',
      }).toString()
      await wrongDoor('session token', home, other, {
        path: '/api/me',
        headers: { authorization: `Bearer ${home.owner.token}` },
      })
      await wrongDoor('access token', home, other, {
        path: `/v1/orgs/${home.owner.orgId}/events`,
        headers: { authorization: `Bearer ${home.token}` },
      })
      await wrongDoor('client credentials', home, other, {
        path: '/oauth/token',
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      })
      await wrongDoor('org id with a local token', home, other, {
        path: `/v1/orgs/${home.owner.orgId}/events`,
        headers: { authorization: `Bearer ${other.token}` },
      })
      await wrongDoor('catalog id with a local session', home, other, {
        path: `/api/catalog/${home.catalogId}`,
        headers: { authorization: `Bearer ${other.owner.token}` },
      })
      const own = await fetch(`${other.url}/api/catalog?limit=100`, {
        headers: { authorization: `Bearer ${other.owner.token}` },
      })
      const ids = ((await own.json()) as { data: { id: string }[] }).data.map((entry) => entry.id)
      checks.check(
        `${home.region} records not readable through ${other.region}`,
        own.status === 200 && ids.includes(other.catalogId) && !ids.includes(home.catalogId),
        `${other.region} lists ${ids.length} entr${ids.length === 1 ? 'y' : 'ies'}, its own only`,
      )
    }
    checks.assertAll('regions drill')

    // What a refusal at the wrong door costs, next to the cheapest answer the same server gives. Sequential,
    // and fewer than the anonymous burst: a refusal counts against its address's rate limit like any request.
    const timeEach = async (count: number, send: () => Promise<Response>) => {
      const started = performance.now()
      for (let i = 0; i < count; i++) await (await send()).arrayBuffer()
      return (performance.now() - started) / count
    }
    const count = Math.max(20, Math.round(100 * Math.min(1, context.scale * 10)))
    const floorMs = await timeEach(count, () => fetch(`${euUrl}/healthz`))
    const refusalMs = await timeEach(count, () =>
      fetch(`${euUrl}/v1/orgs/${us.owner.orgId}/events`, { headers: { authorization: `Bearer ${us.token}` } }),
    )
    return [
      {
        name: 'wrong-region refusal latency (floor: /healthz on the same server)',
        unit: 'ms',
        floor: floorMs,
        oeuvre: refusalMs,
        ratio: floorMs / refusalMs,
        // A refusal takes a rate-limit token and writes a problem body, but touches no database: it stays in the
        // class of a health check (a database read is about a tenth of it).
        target: 0.3,
        extra: { requests: count, checks: `${checks.results.length}/${checks.results.length}` },
        checks: checks.results,
      },
    ]
  } finally {
    await cleanup.run()
  }
}

export const regionsScenario: Scenario = {
  name: 'regions',
  description:
    'two deployments (us-east, eu-west) on two databases: every credential and id of one refused at the other',
  run: (context) =>
    withScenarioDatabase(context.databaseUrl, 'regions_us', (usDb) =>
      withScenarioDatabase(context.databaseUrl, 'regions_eu', (euDb) => drill(context, usDb, euDb)),
    ),
}
