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
  const ids = createIdGenerator(clock, config.region)
  const limiter = deps.limiter ?? createMemoryRateLimiter(clock)
  const passwords = deps.passwords ?? createPasswordHasher()

  const credentials = createCredentialCache({ db, clock })
  const audit = createAuditLog({ db, clock, ids, outbox: webhookOutbox(config) })
  const auth = createAuthService({ db, clock, ids, passwords, limiter, credentials })
  const orgs = createOrgsService({ db, clock, ids, audit, config, credentials })
  const oauthTokens = createTokensService({ db, clock, ids, limiter, credentials })
  const requestLog = createRequestLog({ db, clock, config })
  const creators = createCreatorsService({ db, clock, ids, audit })
  const catalog = createCatalogService({ db, clock, ids, audit })
  const ticketing = createTicketingService({ db, clock, ids, audit })
  const revenue = createRevenueService({ db, clock, ids, audit })
  const oauthClients = createClientsService({
    db,
    clock,
    ids,
    audit,
    config,
    credentials,
    productionAccess: partnerProductionAccess(db),
  })
  const demo = { clock, creators, catalog, ticketing, revenue }
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
  const payouts = createPayoutsService({ db, clock, ids, audit })

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

  return {
    config,
    db,
    clock,
    ids,
    limiter,
    passwords,
    credentials,
    audit,
    auth,
    orgs,
    oauthClients,
    oauthTokens,
    requestLog,
    creators,
    catalog,
    ticketing,
    revenue,
    payouts,
    partners,
    webhooks,
    evidence,
    evidenceSigner,
    jobs,
  }
}
