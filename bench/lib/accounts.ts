import { randomBytes } from 'node:crypto'
import { hashSecret } from '../../src/platform/crypto.js'
import { newSecret } from '../../src/platform/ids.js'
import { Cleanup, startOeuvre } from './servers.js'

/** Setting up who calls Oeuvre in a scenario: over its HTTP API, as a user would, plus owner SQL where the API has no shortcut. */

/** Owner SQL a setup step needs: a pg.Pool on PostgreSQL, the PGlite instance itself on PGlite. */
export interface OwnerSql {
  query(sql: string, params: unknown[]): Promise<unknown>
}

export interface Owner {
  token: string
  userId: string
  orgId: string
}

/** POSTs JSON (or a form) and returns the parsed body; anything but the expected status throws with the body. */
export async function post<T>(
  url: string,
  body: unknown,
  options: { token?: string; status?: number; form?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = {
    'content-type': options.form ? 'application/x-www-form-urlencoded' : 'application/json',
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`
  const payload = options.form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body)
  const response = await fetch(url, { method: 'POST', headers, body: payload })
  const text = await response.text()
  if (response.status !== (options.status ?? 201)) throw new Error(`POST ${url}: ${response.status} ${text}`)
  return JSON.parse(text) as T
}

/** A new user owning a new sandbox org (the session's active org). */
export async function ownerWithOrg(baseUrl: string, label: string): Promise<Owner> {
  const email = `bench.${label}.${Date.now()}@example.com`
  const signup = await post<{ token: string; user: { id: string } }>(`${baseUrl}/api/auth/signup`, {
    email,
    password: 'correct horse battery',
    name: 'Bench',
  })
  const org = await post<{ id: string }>(
    `${baseUrl}/api/orgs`,
    { name: `Bench ${label}`, environment: 'sandbox' },
    { token: signup.token },
  )
  return { token: signup.token, userId: signup.user.id, orgId: org.id }
}

/**
 * An owner and org made over HTTP by an Oeuvre started for just that and stopped again,
 * for scenarios that then seed with owner SQL and measure a CLI command.
 */
export async function provisionOrg(databaseUrl: string, redisUrl: string | null, label: string): Promise<Owner> {
  const cleanup = new Cleanup()
  try {
    const oeuvre = await startOeuvre(databaseUrl, redisUrl)
    cleanup.add(oeuvre.stop)
    return await ownerWithOrg(oeuvre.ready, label)
  } finally {
    await cleanup.run()
  }
}

/** Several owners and orgs, one per label, made by one Oeuvre started for just that (a scenario's side and its floor's). */
export async function provisionOrgs(databaseUrl: string, redisUrl: string | null, labels: string[]): Promise<Owner[]> {
  const cleanup = new Cleanup()
  try {
    const oeuvre = await startOeuvre(databaseUrl, redisUrl)
    cleanup.add(oeuvre.stop)
    const owners: Owner[] = []
    for (const label of labels) owners.push(await ownerWithOrg(oeuvre.ready, label))
    return owners
  } finally {
    await cleanup.run()
  }
}

/**
 * An access token of a client whose rate tier never throttles the benchmark: created through
 * the API (a sandbox client), then raised by the operator to platform_integrator with a large
 * custom limit, as support would for an integrator (the API only grants that to reviewed production orgs).
 */
export async function unthrottledClientToken(
  baseUrl: string,
  owner: Owner,
  ownerSql: OwnerSql,
  scopes: string[],
): Promise<string> {
  const client = await post<{ id: string; secret: string }>(
    `${baseUrl}/api/clients`,
    { name: 'Bench integrator', scopes },
    { token: owner.token },
  )
  await raiseClientTier(ownerSql, owner.orgId, client.id)
  return clientToken(baseUrl, client, scopes)
}

/** The operator's side of unthrottledClientToken: the client's tier raised to platform_integrator with a large custom limit. */
export async function raiseClientTier(ownerSql: OwnerSql, orgId: string, clientId: string): Promise<void> {
  await ownerSql.query(
    `update oauth_clients set tier = 'platform_integrator', rate_per_minute = 60000000, rate_burst = 10000000 where org_id = $1 and id = $2`,
    [orgId, clientId],
  )
}

/** An access token of the client (client credentials grant). */
export async function clientToken(
  baseUrl: string,
  client: { id: string; secret: string },
  scopes: string[],
): Promise<string> {
  const token = await post<{ access_token: string }>(
    `${baseUrl}/oauth/token`,
    { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret, scope: scopes.join(' ') },
    { form: true, status: 200 },
  )
  return token.access_token
}

/**
 * `count` more members of the owner's org (role finance), each with a session token, written
 * as the owner in SQL: each member is a rate bucket of its own, as many staff of one label would be.
 */
export async function memberSessions(ownerSql: OwnerSql, orgId: string, count: number): Promise<string[]> {
  const tokens: string[] = []
  for (let i = 0; i < count; i += 1) {
    const userId = `usr_bench${randomBytes(8).toString('hex')}`
    const token = newSecret('sess_')
    await ownerSql.query(
      `with u as (insert into users (id, kind, email, name, password_hash, home_org_id, created_at) values ($1, 'person', $2, 'Bench member', null, null, now()) returning id),
            m as (insert into memberships (org_id, user_id, role, created_at) select $3, id, 'finance', now() from u)
       insert into sessions (token_hash, user_id, active_org_id, created_at, last_used_at, expires_at) select $4, id, $3, now(), now(), now() + interval '1 day' from u`,
      [userId, `${userId}@example.com`, orgId, hashSecret(token)],
    )
    tokens.push(token)
  }
  return tokens
}

/** Three creators and a work split between them, made through the API by the org's owner: what each side books revenue on. */
export async function revenueFixture(baseUrl: string, token: string): Promise<{ id: string }> {
  const creators: string[] = []
  for (const name of ['A', 'B', 'C']) {
    const creator = await post<{ id: string }>(
      `${baseUrl}/api/creators`,
      { name, kind: 'person', roles: ['composer'], payoutCurrency: 'EUR' },
      { token },
    )
    creators.push(creator.id)
  }
  return post<{ id: string }>(
    `${baseUrl}/api/catalog`,
    {
      kind: 'work',
      title: 'Bench Song',
      splits: creators.map((creatorId, i) => ({ creatorId, role: 'composer', shareBps: i === 2 ? 3334 : 3333 })),
    },
    { token },
  )
}
