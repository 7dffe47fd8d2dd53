import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabase, type Database } from '../database.js'
import type { ListenHandlers } from '../db/sql-backend.js'
import { call, buildTestApp, expectProblem, ownerWithOrg, type TestApp } from '../../test/helpers.js'
import { accessToken, createClient } from '../../test/partner-helpers.js'
import { eventually } from '../../test/eventually.js'
import { ManualClock, SECOND } from './clock.js'
import { createCredentialCache, CREDENTIAL_TTL_MS, type CredentialCache } from './credential-cache.js'

let a: TestApp
let b: TestApp

beforeAll(async () => {
  a = await buildTestApp()
  // A second node: its own app and caches, the same database.
  b = await buildTestApp({ db: a.db, clock: a.clock })
})
afterAll(async () => {
  await b.close()
  await a.close()
})

function loader(value: string, tags: string[] = ['client:cli_x']) {
  const calls = { count: 0 }
  return { calls, load: async () => ((calls.count += 1), { value, tags }) }
}

/** A cache over the test database whose notification stream the test controls. */
function controlledCache(db: Database, clock: ManualClock): { cache: CredentialCache; stream: () => ListenHandlers } {
  let handlers: ListenHandlers | undefined
  const backend = {
    ...db.backend,
    listen: async (_channel: string, given: ListenHandlers) => (
      (handlers = given),
      given.listening(true),
      { close: async () => undefined }
    ),
  }
  const cache = createCredentialCache({ db: createDatabase(backend, db.migrations), clock })
  return { cache, stream: () => handlers! }
}

describe('the credential cache', () => {
  it('answers from memory until the credential is forgotten, expires, or notifications stop', async () => {
    const clock = new ManualClock()
    const { cache, stream } = controlledCache(a.db, clock)
    const { calls, load } = loader('grant')
    expect(await cache.resolve('k', load)).toBe('grant')
    expect(await cache.resolve('k', load)).toBe('grant')
    expect(calls.count).toBe(1)

    cache.forget(['client:cli_other'])
    await cache.resolve('k', load)
    expect(calls.count).toBe(1)
    cache.forget(['client:cli_x'])
    await cache.resolve('k', load)
    expect(calls.count).toBe(2)

    clock.advance(CREDENTIAL_TTL_MS)
    await cache.resolve('k', load)
    expect(calls.count).toBe(3)

    stream().listening(false)
    await cache.resolve('k', load)
    await cache.resolve('k', load)
    expect(calls.count).toBe(5)
    expect(cache.stats().listening).toBe(false)
    stream().listening(true)
    await cache.resolve('k', load)
    await cache.resolve('k', load)
    expect(calls.count).toBe(6)

    stream().message('client:cli_x')
    await cache.resolve('k', load)
    expect(calls.count).toBe(7)
    await cache.close()
  })

  it('does not keep what a lookup read while a change was heard (it may predate the change)', async () => {
    const { cache } = controlledCache(a.db, new ManualClock())
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let loads = 0
    const slow = async () => {
      loads += 1
      await gate
      return { value: 'before the revocation', tags: ['client:cli_x'] }
    }
    const inFlight = cache.resolve('k', slow)
    await Promise.resolve()
    cache.forget(['client:cli_x'])
    release()
    expect(await inFlight).toBe('before the revocation')
    await cache.resolve('k', async () => ((loads += 1), { value: 'after', tags: ['client:cli_x'] }))
    expect(loads).toBe(2)
    await cache.close()
  })

  it('never caches a failed lookup', async () => {
    const { cache } = controlledCache(a.db, new ManualClock())
    let loads = 0
    const missing = async () => ((loads += 1), null)
    expect(await cache.resolve('k', missing)).toBeNull()
    expect(await cache.resolve('k', missing)).toBeNull()
    expect(loads).toBe(2)
    await cache.close()
  })

  it('hears a change announced in a transaction when it commits, and not when it rolls back', async () => {
    const clock = new ManualClock()
    const listener = createCredentialCache({ db: a.db, clock })
    const { calls, load } = loader('grant', ['client:cli_announced'])
    await listener.resolve('k', load)
    await eventually(() => listener.stats().listening, 'the listener to subscribe')
    await listener.resolve('k', load)
    await listener.resolve('k', load)
    expect(calls.count).toBe(2)
    const announcer = createCredentialCache({ db: a.db, clock })
    const orgId = (await ownerWithOrg(a.app)).orgId
    await expect(
      a.db.tx({ orgId }, async (tx) => {
        await announcer.announce(tx, ['client:cli_announced'])
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    await a.db.tx({ orgId }, (tx) => announcer.announce(tx, ['client:cli_unrelated']))
    await eventually(async () => (await listener.resolve('k', load), true), 'a round')
    expect(calls.count).toBe(2)
    await a.db.tx({ orgId }, (tx) => announcer.announce(tx, ['client:cli_announced']))
    await eventually(async () => (await listener.resolve('k', load), calls.count === 3), 'the committed announcement')
    await listener.close()
    await announcer.close()
  })
})

describe('credentials across two nodes', () => {
  const feed = (app: TestApp, orgId: string, token: string) =>
    call(app.app, { url: `/v1/orgs/${orgId}/events?limit=1`, token })

  it('a revoked client’s token is refused at once on the revoking node and as soon as the other node hears it', async () => {
    const owner = await ownerWithOrg(a.app, { environment: 'sandbox' })
    const client = await createClient(a.app, owner, ['events:read'])
    const token = await accessToken(a.app, client, 'events:read')
    await feed(a, owner.orgId, token)
    await feed(b, owner.orgId, token)
    await eventually(
      () => a.services.credentials.stats().listening && b.services.credentials.stats().listening,
      'both nodes to listen',
    )
    for (const node of [a, b]) {
      expect((await feed(node, owner.orgId, token)).statusCode).toBe(200)
      const before = node.services.credentials.stats().hits
      expect((await feed(node, owner.orgId, token)).statusCode).toBe(200)
      expect(node.services.credentials.stats().hits).toBe(before + 1)
    }

    const revoked = await call(a.app, { method: 'POST', url: `/api/clients/${client.id}/revoke`, token: owner.token })
    expect(revoked.statusCode, revoked.body).toBe(200)
    expectProblem(await feed(a, owner.orgId, token), 401, 'invalid_token')
    await eventually(
      async () => (await feed(b, owner.orgId, token)).statusCode === 401,
      'node b to refuse the revoked token',
    )
    expectProblem(await feed(b, owner.orgId, token), 401, 'invalid_token')
  })

  it('a session ended on one node is refused on the other, and a switch of active org is seen by both', async () => {
    const owner = await ownerWithOrg(a.app)
    const me = (node: TestApp) => call(node.app, { url: '/api/me', token: owner.token })
    await eventually(
      () => a.services.credentials.stats().listening && b.services.credentials.stats().listening,
      'both nodes to listen',
    )
    expect((await me(b)).json().activeOrgId).toBe(owner.orgId)

    const second = await call(a.app, {
      method: 'POST',
      url: '/api/orgs',
      token: owner.token,
      body: { name: 'Second label' },
    })
    expect(second.statusCode, second.body).toBe(201)
    expect((await me(a)).json().activeOrgId).toBe(second.json().id)
    await eventually(
      async () => (await me(b)).json().activeOrgId === second.json().id,
      'node b to see the new active org',
    )

    expect(
      (await call(a.app, { method: 'POST', url: '/api/auth/logout', token: owner.token })).statusCode,
    ).toBeLessThan(300)
    expectProblem(await me(a), 401, 'invalid_token')
    await eventually(async () => (await me(b)).statusCode === 401, 'node b to refuse the ended session')
  })

  it('still expires sessions and tokens by the clock while they are cached', async () => {
    const owner = await ownerWithOrg(a.app, { environment: 'sandbox' })
    const client = await createClient(a.app, owner, ['events:read'])
    const token = await accessToken(a.app, client, 'events:read')
    await eventually(() => a.services.credentials.stats().listening, 'node a to listen')
    expect((await feed(a, owner.orgId, token)).statusCode).toBe(200)
    a.clock.advance(3600 * SECOND)
    expectProblem(await feed(a, owner.orgId, token), 401, 'invalid_token')
  })
})
