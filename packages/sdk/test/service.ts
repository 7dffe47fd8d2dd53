import type { AddressInfo } from 'node:net'
import type { Clock } from '@oeuvre/sdk'
import { ManualClock } from '../../../src/platform/clock.js'
import { buildTestApp, ownerWithOrg, type OrgAccount, type TestApp } from '../../../test/helpers.js'
import { createClient } from '../../../test/partner-helpers.js'
import { openIsolatedDatabase } from '../../../test/webhook-helpers.js'

/** Every partner scope: the SDK's tests call every /v1 route. */
export const ALL_SCOPES = [
  'events:read',
  'members:read',
  'catalog:read',
  'catalog:write',
  'creators:read',
  'creators:write',
  'revenue:read',
  'revenue:write',
  'payouts:read',
  'payouts:write',
  'ticketing:read',
  'ticketing:write',
  'webhooks:read',
  'webhooks:write',
] as const

/** The real service on a real socket (127.0.0.1, a free port), over the suite's database. */
export interface LiveService {
  t: TestApp
  baseUrl: string
  close(): Promise<void>
}

/**
 * Starts the service as the SDK meets it. `isolated`: a database no other test file uses (on
 * PostgreSQL), for files that run the webhook worker, which works across every org.
 */
export async function startService(
  options: { env?: Record<string, string>; clock?: ManualClock; isolated?: boolean } = {},
): Promise<LiveService> {
  const isolated = options.isolated ? await openIsolatedDatabase() : undefined
  const t = await buildTestApp({
    env: { WEBHOOKS_ALLOW_LOOPBACK: 'true', ...options.env },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(isolated ? { db: isolated.db } : {}),
  })
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = t.app.server.address() as AddressInfo
  return {
    t,
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      await t.close()
      if (isolated) {
        await isolated.db.close()
        await isolated.drop()
      }
    },
  }
}

/** A sandbox org with an owner (session surface) and an OAuth client holding `scopes`. */
export interface Partner {
  owner: OrgAccount
  orgId: string
  clientId: string
  clientSecret: string
  scopes: readonly string[]
}

export async function sandboxPartner(service: LiveService, scopes: readonly string[] = ALL_SCOPES): Promise<Partner> {
  const owner = await ownerWithOrg(service.t.app, { environment: 'sandbox' })
  const client = await createClient(service.t.app, owner, scopes)
  return { owner, orgId: owner.orgId, clientId: client.id, clientSecret: client.secret, scopes }
}

/** The client options for a partner of this service. */
export function credentials(service: LiveService, partner: Partner) {
  return {
    baseUrl: service.baseUrl,
    clientId: partner.clientId,
    clientSecret: partner.clientSecret,
    scopes: partner.scopes,
  }
}

/**
 * The SDK's time tied to the service's: `now` is the service's manual clock, and every wait
 * the SDK makes moves that clock on by as long instead of waiting, recording how long it was.
 */
export class LinkedClock implements Clock {
  readonly sleeps: number[] = []

  constructor(readonly server: ManualClock) {}

  now(): number {
    return this.server.now().getTime()
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted()
    this.sleeps.push(ms)
    this.server.advance(ms)
    // Let other work run, as a real wait would.
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/** A manual clock that reads the real time: for the services whose waits the test does not drive. */
export class RealTimeClock extends ManualClock {
  override now(): Date {
    return new Date()
  }
}
