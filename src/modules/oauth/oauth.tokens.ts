import { sql } from 'kysely'
import type { Database } from '../../database.js'
import { DAY, type Clock } from '../../platform/clock.js'
import type { Identity } from '../../platform/context.js'
import type { CredentialCache } from '../../platform/credential-cache.js'
import { hashSecret } from '../../platform/crypto.js'
import { AppError } from '../../platform/errors.js'
import { wwwAuthenticate } from '../../platform/guard.js'
import type { IdGenerator } from '../../platform/ids.js'
import { SCOPES, type Scope } from '../../platform/permissions.js'
import { rateHeaders, type BucketVerdict, type RateLimiter } from '../../platform/rate-limit.js'
import type { OAuthErrorCode, TokenResponse } from './oauth.schemas.js'
import { createTokenLimits, type TokenLimits } from './oauth.token-limits.js'

export const ACCESS_TOKEN_TTL_SECONDS = 3600

/** An RFC 6749 section 5.2 error: the token endpoint answers these instead of problem+json. */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status: 400 | 401 | 421 | 429 | 500 | 503 = 400,
    readonly headers: Record<string, string> = {},
    /** Members added to the body (wrong_region: region and baseUrl). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(description)
  }

  /** Whether a bucket answered for this request already (its X-RateLimit-* headers are set). */
  get counted(): boolean {
    return 'x-ratelimit-limit' in this.headers
  }

  /** The same error, with the verdict of the bucket the request drew from. */
  withLimit(verdict: BucketVerdict): OAuthError {
    return new OAuthError(
      this.error,
      this.description,
      this.status,
      { ...this.headers, ...rateHeaders(verdict) },
      this.extra,
    )
  }
}

/** 429 for a request its bucket refused: nothing was done, retry after `Retry-After` seconds. */
function throttled(description: string, verdict: BucketVerdict): OAuthError {
  return new OAuthError('rate_limited', description, 429, { 'retry-after': String(verdict.retryAfter) }).withLimit(
    verdict,
  )
}

/** A token request as received: credentials already taken from the body or from HTTP Basic. */
export interface TokenRequestInput {
  grantType: string | undefined
  clientId: string | undefined
  clientSecret: string | undefined
  scope: string | undefined
  /** The credentials came in an Authorization: Basic header (401s then carry WWW-Authenticate). */
  basic: boolean
  address: string
}

/** A token issued, with the X-RateLimit-* headers of the client's bucket it was counted in. */
export interface TokenExchange {
  token: TokenResponse
  headers: Record<string, string>
}

export interface TokensService {
  exchange(input: TokenRequestInput): Promise<TokenExchange>
  /**
   * A token request refused before any client authenticated (an error without a bucket's
   * verdict): counted in the address's bucket for unauthenticated requests, and 429 when it is empty.
   */
  refuse(error: OAuthError, address: string): Promise<OAuthError>
  /** The guard's authenticator for `oat_` bearer tokens. */
  authenticate(token: string): Promise<Identity>
  /** Deletes tokens that expired more than a day ago; returns how many. */
  prune(): Promise<number>
}

const invalidToken = (detail: string) =>
  new AppError('invalid_token', detail, { headers: wwwAuthenticate('invalid_token') })

/** The requested scopes, each known and allowed for the client, in the order asked. */
function grantScopes(requested: string | undefined, allowed: readonly string[]): Scope[] {
  const names = [...new Set((requested ?? '').split(' ').filter((name) => name.length > 0))]
  if (names.length === 0) {
    throw new OAuthError('invalid_scope', `scope is required: space-separated names from ${allowed.join(', ')}`)
  }
  for (const name of names) {
    if (!(SCOPES as readonly string[]).includes(name)) throw new OAuthError('invalid_scope', `${name} is not a scope`)
    if (!allowed.includes(name)) throw new OAuthError('invalid_scope', `scope ${name} is not allowed for this client`)
  }
  return names as Scope[]
}

/** A client whose secret matched, as `auth_oauth_client` returns it (migration 0017). */
interface AuthenticatedClient {
  org_id: string
  client_id: string
  scopes: string[]
  rate_per_minute: number
  rate_burst: number
}

/** An access token's grant as `auth_access_token` resolves it. */
interface AccessGrant {
  org_id: string
  client_id: string
  scopes: string[]
  expires_at: Date
  revoked: boolean
  service_user_id: string
  rate_per_minute: number
  rate_burst: number
}

/** What makes a cached access token stale: its client (revocation, tier). */
export const clientTag = (clientId: string): string => `client:${clientId}`

export interface TokensDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  limiter: RateLimiter
  credentials: CredentialCache
}

export function createTokensService(deps: TokensDeps): TokensService {
  const limits = createTokenLimits(deps.limiter)
  return {
    exchange: (input) => exchange(deps, limits, input),
    async refuse(error, address) {
      if (error.counted) return error
      const verdict = await limits.unauthenticated(address)
      if (!verdict.allowed) return throttled(`Rate limit of ${verdict.limit} requests per minute exceeded`, verdict)
      return error.withLimit(verdict)
    },
    authenticate: (token) => authenticate(deps, token),
    async prune() {
      const before = new Date(deps.clock.now().getTime() - DAY)
      const result = await sql<{
        pruned: string | bigint
      }>`select prune_oauth_access_tokens(${before}) as pruned`.execute(deps.db.global)
      return Number(result.rows[0]?.pruned ?? 0)
    },
  }
}

/** The client the request's credentials name, or the RFC 6749 error that refuses it (counted in its bucket). */
async function authenticateClient(
  { db, clock }: TokensDeps,
  limits: TokenLimits,
  input: TokenRequestInput,
): Promise<{ client: AuthenticatedClient; now: Date }> {
  if (!input.grantType) throw new OAuthError('invalid_request', 'grant_type is required (client_credentials)')
  if (input.grantType !== 'client_credentials') {
    throw new OAuthError(
      'unsupported_grant_type',
      `grant_type ${input.grantType} is not supported; use client_credentials`,
    )
  }
  const challenge: Record<string, string> = input.basic
    ? { 'www-authenticate': 'Basic realm="oeuvre", charset="UTF-8"' }
    : {}
  if (!input.clientId || !input.clientSecret) {
    throw new OAuthError(
      'invalid_client',
      'Client authentication is required: send client_id and client_secret in the body or with HTTP Basic',
      401,
      challenge,
    )
  }
  const attempt = await limits.attempt(input.clientId, input.address)
  if (!attempt.allowed)
    throw throttled('Too many failed client authentications; wait before trying again', attempt.verdict)
  const now = clock.now()
  const found = await sql<AuthenticatedClient>`
    select * from auth_oauth_client(${input.clientId}, ${hashSecret(input.clientSecret)}, ${now})`.execute(db.global)
  const client = found.rows[0]
  if (!client) {
    const failure = new OAuthError(
      'invalid_client',
      'Client authentication failed: unknown client, wrong secret, or revoked client',
      401,
      challenge,
    )
    throw failure.withLimit(attempt.verdict)
  }
  await attempt.succeeded()
  return { client, now }
}

async function exchange(deps: TokensDeps, limits: TokenLimits, input: TokenRequestInput): Promise<TokenExchange> {
  const { db, ids } = deps
  const { client, now } = await authenticateClient(deps, limits, input)
  // A valid exchange counts against the client (its tier), never against its address.
  const tier = { perMinute: client.rate_per_minute, burst: client.rate_burst }
  const verdict = await limits.exchange(client.client_id, tier)
  if (!verdict.allowed) throw throttled(`Rate limit of ${verdict.limit} requests per minute exceeded`, verdict)
  let scopes: Scope[]
  try {
    scopes = grantScopes(input.scope, client.scopes)
  } catch (error) {
    throw error instanceof OAuthError ? error.withLimit(verdict) : error
  }
  const token = ids.secret('oat_')
  // The client's lastUsedAt moves with the request log's next batch (oauth.request-log.ts).
  await db.tx({ orgId: client.org_id }, async (tx) => {
    await tx
      .insertInto('oauth_access_tokens')
      .values({
        org_id: client.org_id,
        token_hash: hashSecret(token),
        client_id: client.client_id,
        scopes,
        created_at: now,
        expires_at: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000),
      })
      .execute()
  })
  return {
    token: {
      access_token: token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      scope: scopes.join(' '),
      org_id: client.org_id,
    },
    headers: rateHeaders(verdict),
  }
}

async function authenticate({ db, clock, credentials }: TokensDeps, token: string): Promise<Identity> {
  const tokenHash = hashSecret(token)
  const grant = await credentials.resolve<AccessGrant>(`oat:${tokenHash}`, async () => {
    const found = (await sql<AccessGrant>`select * from auth_access_token(${tokenHash})`.execute(db.global)).rows[0]
    return found ? { value: found, tags: [clientTag(found.client_id)] } : null
  })
  if (!grant) throw invalidToken('The access token is not valid')
  if (grant.revoked) throw invalidToken('The client of this access token has been revoked')
  if (clock.now().getTime() >= grant.expires_at.getTime()) {
    throw invalidToken('The access token has expired; request a new one at /oauth/token')
  }
  return {
    kind: 'client',
    userId: grant.service_user_id,
    clientId: grant.client_id,
    orgId: grant.org_id,
    scopes: grant.scopes as Scope[],
    rateKey: `cli:${grant.client_id}`,
    rateTier: { perMinute: grant.rate_per_minute, burst: grant.rate_burst },
    expiresAt: grant.expires_at,
  }
}
