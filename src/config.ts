import path from 'node:path'
import { ConfigError } from './config-error.js'
import { readMailConfig, type MailConfig } from './config-mail.js'

export type Region = 'us-east' | 'eu-west' | 'au-east'
export const REGIONS: readonly Region[] = ['us-east', 'eu-west', 'au-east']

export interface Config {
  readonly port: number
  readonly host: string
  readonly databaseUrl: string | null
  readonly dataDir: string
  readonly redisUrl: string | null
  /** Prefix of this deployment's Redis keys; null: the deployment id its database holds (migration 0018). */
  readonly redisNamespace: string | null
  readonly region: Region
  readonly publicUrl: string
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  readonly worker: 'inline' | 'off'
  readonly webhooksAllowLoopback: boolean
  readonly webhookRetrySchedule: readonly number[] | null
  readonly sealEveryEvents: number
  readonly sealEverySeconds: number
  /** Key that encrypts stored signing secrets (32 bytes, base64 or hex). Generated into DATA_DIR when unset. */
  readonly secretsKey: string | null
  readonly seedDemo: boolean
  readonly bodyLimitBytes: number
  readonly clientSecretGraceHours: number
  /** The request log: buffered rows are written every this many ms, or at once when a batch fills. */
  readonly requestLog: { readonly flushMs: number; readonly batchRows: number; readonly bufferRows: number }
  /** The event stream: open streams a client may hold (per node), and the heartbeat's period. */
  readonly stream: { readonly maxPerClient: number; readonly heartbeatMs: number }
  readonly deprecation: { readonly date: string; readonly sunset: string; readonly link: string } | null
  /** Base URLs of the other regions' deployments, for 421 wrong_region answers. */
  readonly regionUrls: Readonly<Partial<Record<Region, string>>>
  /** Where email goes: SMTP_URL, MAIL_FROM, MAIL_DKIM_* (src/config-mail.ts). */
  readonly mail: MailConfig
  /** Each region's stores where named (REGION_DATABASE_URL_*, REGION_REDIS_URL_*): this deployment refuses another's. */
  readonly regionStores: Readonly<Partial<Record<Region, { database?: string; redis?: string }>>>
}

export { ConfigError } from './config-error.js'

type Env = Record<string, string | undefined>

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`)
  const value = Number(raw)
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`)
  return value
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (raw === 'true' || raw === '1') return true
  if (raw === 'false' || raw === '0') return false
  throw new ConfigError(name, `must be true or false, got "${raw}"`)
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`)
  }
  return raw as T
}

function url(env: Env, name: string, protocols: readonly string[]): string | null {
  const raw = env[name]
  if (raw === undefined || raw === '') return null
  let parsed: URL
  try {
    parsed = new URL(raw)
  } catch {
    throw new ConfigError(name, 'is not a valid URL')
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got ${parsed.protocol}`)
  }
  return raw
}

function httpDate(env: Env, name: string): string | null {
  const raw = env[name]
  if (raw === undefined || raw === '') return null
  const time = Date.parse(raw)
  if (Number.isNaN(time)) throw new ConfigError(name, `must be a date (ISO 8601), got "${raw}"`)
  return new Date(time).toISOString()
}

/** Parses the environment once; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535)
  const host = env.HOST || '127.0.0.1'
  const publicUrl =
    url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`

  const schedule = retrySchedule(env)
  const deprecation = deprecationPolicy(env, publicUrl)
  const regionUrls = readRegionUrls(env)

  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:'])
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:'])
  const region = oneOf(env, 'REGION', REGIONS, 'eu-west')
  const regionStores = readRegionStores(env)
  refuseOtherRegionsStores(region, regionStores, databaseUrl, redisUrl)

  const redisNamespace = readRedisNamespace(env)
  const secretsKey = readSecretsKey(env)

  return Object.freeze({
    port,
    host,
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    redisUrl,
    redisNamespace,
    region,
    publicUrl: publicUrl.replace(/\/$/, ''),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    worker: oneOf(env, 'WORKER', ['inline', 'off'] as const, 'inline'),
    webhooksAllowLoopback: bool(env, 'WEBHOOKS_ALLOW_LOOPBACK', false),
    webhookRetrySchedule: schedule,
    sealEveryEvents: int(env, 'SEAL_EVERY_EVENTS', 1000, 1, 10_000_000),
    sealEverySeconds: int(env, 'SEAL_EVERY_SECONDS', 300, 1, 86_400 * 30),
    secretsKey,
    seedDemo: bool(env, 'SEED_DEMO', true),
    bodyLimitBytes: 1024 * 1024,
    clientSecretGraceHours: int(env, 'CLIENT_SECRET_GRACE_HOURS', 24, 0, 24 * 30),
    requestLog: Object.freeze({
      flushMs: int(env, 'REQUEST_LOG_FLUSH_MS', 1000, 10, 60_000),
      batchRows: int(env, 'REQUEST_LOG_BATCH_ROWS', 500, 1, 5000),
      bufferRows: int(env, 'REQUEST_LOG_BUFFER_ROWS', 20_000, 1, 1_000_000),
    }),
    stream: Object.freeze({
      maxPerClient: int(env, 'STREAM_MAX_PER_CLIENT', 10, 1, 10_000),
      heartbeatMs: int(env, 'STREAM_HEARTBEAT_MS', 15_000, 10, 300_000),
    }),
    deprecation,
    regionUrls: Object.freeze(regionUrls),
    regionStores: Object.freeze(regionStores),
    mail: readMailConfig(env, publicUrl),
  })
}

function retrySchedule(env: Env): number[] | null {
  const rawSchedule = env.WEBHOOK_RETRY_SCHEDULE
  if (rawSchedule === undefined || rawSchedule === '') return null
  return rawSchedule.split(',').map((part) => {
    const trimmed = part.trim()
    if (!/^\d+$/.test(trimmed)) {
      throw new ConfigError('WEBHOOK_RETRY_SCHEDULE', `must be comma-separated whole seconds, got "${rawSchedule}"`)
    }
    return Number(trimmed)
  })
}

/** The /v1 deprecation: both dates or neither, the sunset at least 12 months after the deprecation. */
function deprecationPolicy(env: Env, publicUrl: string): Config['deprecation'] {
  const deprecationDate = httpDate(env, 'V1_DEPRECATION_DATE')
  const sunsetDate = httpDate(env, 'V1_SUNSET_DATE')
  if (deprecationDate === null && sunsetDate === null) return null
  if (deprecationDate === null) throw new ConfigError('V1_DEPRECATION_DATE', 'must be set when V1_SUNSET_DATE is')
  if (sunsetDate === null) throw new ConfigError('V1_SUNSET_DATE', 'must be set when V1_DEPRECATION_DATE is')
  const twelveMonthsLater = new Date(deprecationDate)
  twelveMonthsLater.setUTCFullYear(twelveMonthsLater.getUTCFullYear() + 1)
  if (Date.parse(sunsetDate) < twelveMonthsLater.getTime()) {
    throw new ConfigError('V1_SUNSET_DATE', 'must be at least 12 months after V1_DEPRECATION_DATE')
  }
  return {
    date: deprecationDate,
    sunset: sunsetDate,
    link: url(env, 'V1_DEPRECATION_LINK', ['http:', 'https:']) ?? `${publicUrl}/docs`,
  }
}

function readRegionUrls(env: Env): Partial<Record<Region, string>> {
  const regionUrls: Partial<Record<Region, string>> = {}
  for (const region of REGIONS) {
    const value = url(env, regionVariable('REGION_URL', region), ['http:', 'https:'])
    if (value !== null) regionUrls[region] = value
  }
  return regionUrls
}

/** A deployment configured with another region's database or Redis refuses to start. */
function refuseOtherRegionsStores(
  region: Region,
  regionStores: Partial<Record<Region, { database?: string; redis?: string }>>,
  databaseUrl: string | null,
  redisUrl: string | null,
): void {
  for (const [other, stores] of Object.entries(regionStores) as [Region, { database?: string; redis?: string }][]) {
    if (other === region) continue
    if (databaseUrl !== null && stores.database !== undefined && sameStore(databaseUrl, stores.database, 5432))
      throw new ConfigError('DATABASE_URL', `is the ${other} region's database; this deployment serves ${region}`)
    if (redisUrl !== null && stores.redis !== undefined && sameStore(redisUrl, stores.redis, 6379))
      throw new ConfigError('REDIS_URL', `is the ${other} region's Redis; this deployment serves ${region}`)
  }
}

function readRedisNamespace(env: Env): string | null {
  const redisNamespace = env.REDIS_NAMESPACE || null
  if (redisNamespace !== null && !/^[A-Za-z0-9._-]{1,64}$/.test(redisNamespace)) {
    throw new ConfigError(
      'REDIS_NAMESPACE',
      `must be 1 to 64 letters, digits, ".", "_" or "-", got "${redisNamespace}"`,
    )
  }
  return redisNamespace
}

function readSecretsKey(env: Env): string | null {
  const secretsKey = env.SECRETS_KEY || null
  if (secretsKey !== null && !/^([0-9a-f]{64}|[A-Za-z0-9+/]{43}=)$/.test(secretsKey)) {
    throw new ConfigError('SECRETS_KEY', 'must be 32 bytes as 64 hex characters or base64')
  }
  return secretsKey
}

const regionVariable = (prefix: string, region: Region) => `${prefix}_${region.replace('-', '_').toUpperCase()}`

function readRegionStores(env: Env): Partial<Record<Region, { database?: string; redis?: string }>> {
  const stores: Partial<Record<Region, { database?: string; redis?: string }>> = {}
  for (const region of REGIONS) {
    const database = url(env, regionVariable('REGION_DATABASE_URL', region), ['postgres:', 'postgresql:'])
    const redis = url(env, regionVariable('REGION_REDIS_URL', region), ['redis:', 'rediss:'])
    if (database !== null || redis !== null)
      stores[region] = { ...(database !== null ? { database } : {}), ...(redis !== null ? { redis } : {}) }
  }
  return stores
}

/** Whether two connection URLs name the same store: host, port and database (or Redis db), whatever the credentials. */
export function sameStore(a: string, b: string, defaultPort: number): boolean {
  const key = (raw: string) => {
    const parsed = new URL(raw)
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default)'
    return `${parsed.hostname.toLowerCase()}:${parsed.port || defaultPort}/${database}`
  }
  return key(a) === key(b)
}
