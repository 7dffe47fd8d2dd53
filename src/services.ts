import type { Config } from './config.js'
import type { Database } from './database.js'
import { HOUR, systemClock, type Clock } from './platform/clock.js'
import { createPasswordHasher, type PasswordHasher } from './platform/crypto.js'
import { pruneIdempotencyKeys } from './platform/idempotency.js'
import { createIdGenerator, type IdGenerator } from './platform/ids.js'
import { createMemoryRateLimiter, type RateLimiter } from './platform/rate-limit.js'
import { createCredentialCache, type CredentialCache } from './platform/credential-cache.js'
import type { Job } from './worker/worker.js'
import type { SecretBox } from './platform/crypto.js'
import { createWebhooksModule, webhookOutbox, type WebhookNetwork } from './modules/webhooks/index.js'
import type { WebhookService } from './modules/webhooks/index.js'
import { createEvidenceModule } from './modules/evidence/index.js'
import type { EvidenceSigner } from './modules/evidence/index.js'
import type { EvidenceService } from './modules/evidence/index.js'
import { createClientsService, type ClientsService } from './modules/oauth/index.js'
import { createTokensService, type TokensService } from './modules/oauth/index.js'
import { createRequestLog, type RequestLog } from './modules/oauth/index.js'
import { createAuditLog, type AuditLog } from './modules/audit/index.js'
import { createAuthService, type AuthService } from './modules/orgs/index.js'
import { createOrgsService, type OrgsService } from './modules/orgs/index.js'
import { createCreatorsService, type CreatorsService } from './modules/creators/index.js'
import { createCatalogService, type CatalogService } from './modules/catalog/index.js'
import { createTicketingService, type TicketingService } from './modules/ticketing/index.js'
import { createRevenueService, type RevenueService } from './modules/revenue/index.js'
import { createPayoutsService, type PayoutsService } from './modules/payouts/index.js'
import { createSandboxRail } from './modules/payouts/index.js'
import { createPartnersService, partnerProductionAccess, type PartnersService } from './modules/partners/index.js'
import { seedRecords } from './seed.js'

export interface ServiceDeps {
  config: Config
  db: Database
  clock?: Clock
  limiter?: RateLimiter
  passwords?: PasswordHasher
  /** Encrypts webhook signing secrets; from `loadServiceKeys` (absent: SECRETS_KEY or a per-process key). */
  secretBox?: SecretBox
  /** Signs evidence seals; from `loadServiceKeys` (absent: derived from SECRETS_KEY or a per-process key). */
  evidenceSigner?: EvidenceSigner
  /** DNS, jitter and timeouts of webhook deliveries (tests). */
  webhookNetwork?: Partial<WebhookNetwork>
}

/** Every module's service, wired once; shared by the API (`buildApp`), the worker and the CLI. */
export interface Services {
  config: Config
  db: Database
  clock: Clock
  ids: IdGenerator
  limiter: RateLimiter
  passwords: PasswordHasher
  /** Resolved sessions and access tokens, invalidated across nodes (close it with the app). */
  credentials: CredentialCache
  audit: AuditLog
  auth: AuthService
  orgs: OrgsService
  creators: CreatorsService
  catalog: CatalogService
  ticketing: TicketingService
  revenue: RevenueService
  payouts: PayoutsService
  partners: PartnersService
  oauthClients: ClientsService
  oauthTokens: TokensService
  /** Requests made with OAuth clients' credentials, buffered and written in batches (close it with the app). */
  requestLog: RequestLog
  webhooks: WebhookService
  evidence: EvidenceService
  evidenceSigner: EvidenceSigner
  /** The worker's recurring duties, contributed by the modules. */
  jobs: Job[]
}

export function createServices(deps: ServiceDeps): Services {
  const { config, db } = deps
  const clock = deps.clock ?? systemClock
  const base: BaseServices = {
    config,
    db,
    clock,
    ids: createIdGenerator(clock, config.region),
    limiter: deps.limiter ?? createMemoryRateLimiter(clock),
    passwords: deps.passwords ?? createPasswordHasher(),
  }
  const access = createAccessServices(base)
  const records = createRecordServices(base, access.audit)
  const partnerProgram = createPartnerProgram(base, access, records)
  const payouts = createPayoutsService({ db, clock, ids: base.ids, audit: access.audit })
  const background = createBackgroundModules(deps, base, access, payouts)
  return { ...base, ...access, ...records, ...partnerProgram, payouts, ...background }
}

/** What every service is built from: the configuration, the database and the process's clock, ids, limiter and hasher. */
type BaseServices = Pick<Services, 'config' | 'db' | 'clock' | 'ids' | 'limiter' | 'passwords'>

type AccessServices = Pick<Services, 'credentials' | 'audit' | 'auth' | 'orgs' | 'oauthTokens' | 'requestLog'>

type RecordServices = Pick<Services, 'creators' | 'catalog' | 'ticketing' | 'revenue'>

/** Who is calling and what they did: credentials, the audit log, sessions, orgs, access tokens and the request log. */
function createAccessServices({ config, db, clock, ids, limiter, passwords }: BaseServices): AccessServices {
  const credentials = createCredentialCache({ db, clock })
  const audit = createAuditLog({ db, clock, ids, outbox: webhookOutbox(config) })
  const auth = createAuthService({ db, clock, ids, passwords, limiter, credentials })
  const orgs = createOrgsService({ db, clock, ids, audit, config, credentials })
  const oauthTokens = createTokensService({ db, clock, ids, limiter, credentials })
  const requestLog = createRequestLog({ db, clock, config })
  return { credentials, audit, auth, orgs, oauthTokens, requestLog }
}

function createRecordServices({ db, clock, ids }: BaseServices, audit: AuditLog): RecordServices {
  const creators = createCreatorsService({ db, clock, ids, audit })
  const catalog = createCatalogService({ db, clock, ids, audit })
  const ticketing = createTicketingService({ db, clock, ids, audit })
  const revenue = createRevenueService({ db, clock, ids, audit })
  return { creators, catalog, ticketing, revenue }
}

/** OAuth clients (production access comes from the partner program) and the partner program itself. */
function createPartnerProgram(
  { config, db, clock, ids }: BaseServices,
  { audit, auth, orgs, credentials }: AccessServices,
  records: RecordServices,
): Pick<Services, 'oauthClients' | 'partners'> {
  const oauthClients = createClientsService({
    db,
    clock,
    ids,
    audit,
    config,
    credentials,
    productionAccess: partnerProductionAccess(db),
  })
  const demo = { clock, ...records }
  const partners = createPartnersService({
    db,
    clock,
    ids,
    config,
    audit,
    auth,
    orgs,
    clients: oauthClients,
    credentials,
    seedSandbox: (ctx) => seedRecords(demo, ctx),
  })
  return { oauthClients, partners }
}

/** The worker's jobs, with the webhook and evidence modules that contribute theirs. */
function createBackgroundModules(
  deps: ServiceDeps,
  { config, db, clock, ids }: BaseServices,
  { audit, oauthTokens, requestLog }: AccessServices,
  payouts: PayoutsService,
): Pick<Services, 'webhooks' | 'evidence' | 'evidenceSigner' | 'jobs'> {
  const jobs: Job[] = [{ name: 'prune-idempotency-keys', everyMs: HOUR, run: () => pruneIdempotencyKeys(db, clock) }]
  jobs.push({ name: 'prune-oauth-access-tokens', everyMs: HOUR, run: () => oauthTokens.prune() })
  jobs.push({ name: 'prune-client-requests', everyMs: HOUR, run: () => requestLog.prune() })
  jobs.push(createSandboxRail({ db, clock, payouts }))
  const webhookModule = createWebhooksModule({
    config,
    db,
    clock,
    ids,
    audit,
    ...(deps.secretBox ? { secretBox: deps.secretBox } : {}),
    ...(deps.webhookNetwork ? { network: deps.webhookNetwork } : {}),
  })
  const evidenceModule = createEvidenceModule({
    config,
    db,
    clock,
    ids,
    audit,
    ...(deps.evidenceSigner ? { signer: deps.evidenceSigner } : {}),
  })
  jobs.push(...webhookModule.jobs, ...evidenceModule.jobs)
  const { webhooks } = webhookModule
  const { evidence, signer: evidenceSigner } = evidenceModule
  return { webhooks, evidence, evidenceSigner, jobs }
}
