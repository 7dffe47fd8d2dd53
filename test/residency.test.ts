import { randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import pg from 'pg'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, REGIONS, type Region } from '../src/config.js'
import { openDatabase, type Database } from '../src/database.js'
import { ManualClock } from '../src/platform/clock.js'
import { createIdGenerator, ID_PREFIXES, newSecret, type IdKind } from '../src/platform/ids.js'
import { regionOf, regionOfId, regionOfSecret } from '../src/platform/region.js'
import { sessionCookieName } from '../src/platform/session-cookie.js'
import { buildTestApp, call, ownerWithOrg, signup, openTestDatabase, type OrgAccount, type TestApp } from './helpers.js'
import { accessToken, createClient, requestToken, type ClientCredentials } from './partner-helpers.js'

const US_URL = 'https://us.oeuvre.test'
const EU_URL = 'https://eu.oeuvre.test'

describe('ids and secrets carry their region', () => {
  const kinds = Object.keys(ID_PREFIXES) as IdKind[]

  it('reads back the region every id and secret was issued in', () => {
    fc.assert(
      fc.property(fc.constantFrom(...REGIONS), fc.constantFrom(...kinds), (region, kind) => {
        const ids = createIdGenerator(new ManualClock(), region)
        expect(regionOfId(ids.next(kind))).toBe(region)
        for (const prefix of ['sess_', 'oat_', 'cs_test_', 'cs_live_', 'invt_'] as const)
          expect(regionOfSecret(ids.secret(prefix))).toBe(region)
      }),
    )
  })

  it('keeps a region’s ids sorted by time', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...REGIONS),
        fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 2, maxLength: 50 }),
        (region, steps) => {
          const clock = new ManualClock(new Date('2026-11-27T00:00:00.000Z'))
          const ids = createIdGenerator(clock, region)
          const made: string[] = []
          for (const step of steps) {
            clock.advance(step)
            made.push(ids.next('event'))
          }
          expect([...made].sort()).toEqual(made)
        },
      ),
    )
  })

  it('reads no region from ids and secrets made before regions were marked, or from other values', () => {
    const legacy = createIdGenerator(new ManualClock())
    expect(regionOf(legacy.next('org'))).toBeNull()
    expect(regionOf(newSecret('sess_'))).toBeNull()
    expect(regionOf('hello')).toBeNull()
    expect(regionOf('org_2')).toBeNull()
  })
})

describe('configuration', () => {
  const stores = {
    REGION_DATABASE_URL_US_EAST: 'postgres://app@us-db.internal:5432/oeuvre',
    REGION_REDIS_URL_US_EAST: 'redis://us-redis.internal:6379/0',
    REGION_DATABASE_URL_EU_WEST: 'postgres://app@eu-db.internal/oeuvre',
  }

  it('refuses to start on another region’s database or Redis, whatever the credentials', () => {
    expect(() =>
      loadConfig({ ...stores, REGION: 'eu-west', DATABASE_URL: 'postgres://other:secret@us-db.internal/oeuvre' }),
    ).toThrow(new ConfigError('DATABASE_URL', "is the us-east region's database; this deployment serves eu-west"))
    expect(() => loadConfig({ ...stores, REGION: 'eu-west', REDIS_URL: 'redis://us-redis.internal/0' })).toThrow(
      /REDIS_URL: is the us-east region's Redis/,
    )
  })

  it('starts on its own region’s stores', () => {
    const config = loadConfig({
      ...stores,
      REGION: 'eu-west',
      DATABASE_URL: 'postgres://app@eu-db.internal:5432/oeuvre',
    })
    expect(config.databaseUrl).toBe('postgres://app@eu-db.internal:5432/oeuvre')
  })
})

/** A second database for the other region: its own PostgreSQL database, or its own PGlite copy. */
async function openOtherRegionDatabase(): Promise<{ db: Database; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL
  if (!server) {
    const db = await openTestDatabase()
    return { db, drop: () => db.close() }
  }
  const name = `oeuvre_test_region_${Date.now()}_${randomBytes(3).toString('hex')}`
  const admin = new pg.Client({ connectionString: server })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(server)
  url.pathname = `/${name}`
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://', poolSize: 3 })
  return {
    db,
    async drop() {
      await db.close()
      const cleanup = new pg.Client({ connectionString: server })
      await cleanup.connect()
      await cleanup.query(`drop database if exists ${name} with (force)`)
      await cleanup.end()
    },
  }
}

interface Deployment {
  t: TestApp
  owner: OrgAccount
  client: ClientCredentials
  token: string
  catalogId: string
  invitation: string
}

async function deploy(region: Region, publicUrl: string, env: Record<string, string>, db: Database) {
  const t = await buildTestApp({ db, env: { REGION: region, PUBLIC_URL: publicUrl, ...env } })
  const owner = await ownerWithOrg(t.app, { environment: 'sandbox' })
  const client = await createClient(t.app, owner, ['events:read', 'catalog:read', 'members:read'])
  const token = await accessToken(t.app, client, 'events:read catalog:read')
  const creator = await call(t.app, {
    method: 'POST',
    url: '/api/creators',
    token: owner.token,
    body: { name: 'Ada', kind: 'person', roles: ['artist'], payoutCurrency: 'EUR' },
  })
  const entry = await call(t.app, {
    method: 'POST',
    url: '/api/catalog',
    token: owner.token,
    body: {
      kind: 'recording',
      title: 'Song',
      splits: [{ creatorId: creator.json().id, role: 'artist', shareBps: 10000 }],
    },
  })
  expect(entry.statusCode, entry.body).toBe(201)
  const invite = await call(t.app, {
    method: 'POST',
    url: '/api/members/invitations',
    token: owner.token,
    body: { email: 'someone@example.com', role: 'viewer' },
  })
  expect(invite.statusCode, invite.body).toBe(201)
  return { t, owner, client, token, catalogId: entry.json().id, invitation: invite.json().token } as Deployment
}

describe('two regions, two deployments, two databases', () => {
  let us: Deployment
  let eu: Deployment
  let otherDb: { db: Database; drop(): Promise<void> }

  beforeAll(async () => {
    otherDb = await openOtherRegionDatabase()
    const euDb = await openTestDatabase()
    us = await deploy('us-east', US_URL, { REGION_URL_EU_WEST: EU_URL }, otherDb.db)
    eu = await deploy('eu-west', EU_URL, { REGION_URL_US_EAST: US_URL }, euDb)
    // The eu deployment owns its database; the us one is dropped with its own.
    const close = eu.t.close.bind(eu.t)
    eu.t.close = async () => {
      await close()
      await euDb.close()
    }
  })
  afterAll(async () => {
    await us.t.close()
    await eu.t.close()
    await otherDb.drop()
  })

  function expectWrongRegion(response: LightMyRequestResponse) {
    expect(response.statusCode, response.body).toBe(421)
    expect(response.json().baseUrl).toBe(US_URL)
    expect(response.json().region).toBe('us-east')
    expect(response.headers['oeuvre-region']).toBe('eu-west')
  }

  it('names its region on every answer and at /api/deployment', async () => {
    for (const url of ['/healthz', '/api/deployment', '/api/nowhere', '/v1/evidence/keys']) {
      const response = await call(eu.t.app, { url })
      expect(response.headers['oeuvre-region'], url).toBe('eu-west')
    }
    const deployment = (await call(eu.t.app, { url: '/api/deployment' })).json()
    expect(deployment.region).toBe('eu-west')
    expect(deployment.regions).toEqual([
      { region: 'us-east', baseUrl: US_URL },
      { region: 'eu-west', baseUrl: EU_URL },
      { region: 'au-east', baseUrl: null },
    ])
    const keys = (await call(eu.t.app, { url: '/v1/evidence/keys' })).json()
    expect(keys.region).toBe('eu-west')
    expect(keys.keys.every((key: { region: string }) => key.region === 'eu-west')).toBe(true)
  })

  it('refuses the other region’s session token, before any other answer', async () => {
    expectWrongRegion(await call(eu.t.app, { url: '/api/me', token: us.owner.token }))
    expectWrongRegion(await call(eu.t.app, { url: '/api/catalog', token: us.owner.token }))
    // Even where the body would have been refused: the region is decided first.
    expectWrongRegion(
      await call(eu.t.app, { method: 'POST', url: '/api/catalog', token: us.owner.token, body: { nonsense: true } }),
    )
  })

  it('takes the other region’s session cookie for an unknown session (the browser sends it, not the person), so sign-in works here', async () => {
    const cookies = { [sessionCookieName(eu.t.config)]: us.owner.token }
    const me = await eu.t.app.inject({ method: 'GET', url: '/api/me', cookies })
    expect(me.statusCode, me.body).toBe(401)
    const login = await eu.t.app.inject({
      method: 'POST',
      url: '/api/auth/login/cookie',
      cookies,
      headers: { 'x-oeuvre-csrf': '1', origin: new URL(eu.t.config.publicUrl).origin },
      payload: { email: eu.owner.email, password: 'correct horse battery' },
    })
    expect(login.statusCode, login.body).toBe(200)
  })

  it('refuses the other region’s access token, client credentials and client secret', async () => {
    expectWrongRegion(await call(eu.t.app, { url: `/v1/orgs/${us.owner.orgId}/events`, token: us.token }))
    const form = { grant_type: 'client_credentials', scope: 'events:read' }
    const inBody = await requestToken(eu.t.app, { ...form, client_id: us.client.id, client_secret: us.client.secret })
    expect(inBody.statusCode, inBody.body).toBe(421)
    expect(inBody.json()).toMatchObject({ error: 'wrong_region', region: 'us-east', baseUrl: US_URL })
    const basic = await requestToken(eu.t.app, form, { basic: { id: us.client.id, secret: us.client.secret } })
    expect(basic.statusCode, basic.body).toBe(421)
    expect(basic.json()).toMatchObject({ error: 'wrong_region', baseUrl: US_URL })
  })

  it('refuses the other region’s org id and record ids in every path, even with its own valid credentials', async () => {
    expectWrongRegion(await call(eu.t.app, { url: `/v1/orgs/${us.owner.orgId}/events`, token: eu.token }))
    const usIds: Record<string, string> = { orgId: us.owner.orgId, id: us.catalogId }
    const routes = eu.t.app.routeTable.filter(
      (route) => /^\/(api|v1)\//.test(route.url) && /:[A-Za-z]+/.test(route.url),
    )
    expect(routes.length).toBeGreaterThan(20)
    for (const route of routes) {
      const url = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => usIds[name] ?? us.catalogId)
      const token = route.url.startsWith('/v1/') ? eu.token : eu.owner.token
      const response = await call(eu.t.app, {
        method: route.method as 'GET',
        url,
        token,
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body: {} }),
      })
      expect(response.statusCode, `${route.method} ${route.url}: ${response.body}`).toBe(421)
      expect(response.json().baseUrl, `${route.method} ${route.url}`).toBe(US_URL)
    }
  })

  it('refuses the other region’s invitation token and org id in a body', async () => {
    const invited = await signup(eu.t.app, 'invited')
    expectWrongRegion(
      await call(eu.t.app, {
        method: 'POST',
        url: '/api/invitations/accept',
        token: invited.token,
        body: { token: us.invitation },
      }),
    )
    expectWrongRegion(
      await call(eu.t.app, {
        method: 'POST',
        url: '/api/session/active-org',
        token: invited.token,
        body: { orgId: us.owner.orgId },
      }),
    )
  })

  it('serves each region’s own credentials at home, and nothing of one region through the other', async () => {
    expect((await call(us.t.app, { url: '/api/me', token: us.owner.token })).statusCode).toBe(200)
    const usFeed = await call(us.t.app, { url: `/v1/orgs/${us.owner.orgId}/events`, token: us.token })
    expect(usFeed.statusCode).toBe(200)
    const euCatalog = await call(eu.t.app, { url: '/api/catalog?limit=100', token: eu.owner.token })
    const euIds = euCatalog.json().data.map((entry: { id: string }) => entry.id)
    expect(euIds).toContain(eu.catalogId)
    expect(euIds).not.toContain(us.catalogId)
    for (const row of (await call(eu.t.app, { url: '/api/org-events?limit=100', token: eu.owner.token })).json().data)
      expect(regionOfId(row.id)).toBe('eu-west')
  })
})
