import type { Config } from './config.js'
import type { Database } from './database.js'
import { HOUR, systemClock, type Clock } from './platform/clock.js'
import { createPasswordHasher, type PasswordHasher } from './platform/crypto.js'
import { pruneIdempotencyKeys } from './platform/idempotency.js'
import { createIdGenerator, type IdGenerator } from './platform/ids.js'
import { createMemoryRateLimiter, type RateLimiter } from './platform/rate-limit.js'
import { createCredentialCache, type CredentialCache } from './platform/credential-cache.js'
import type { Job } from './worker/worker.js'
import { createSecretBox, type SecretBox } from './platform/crypto.js'
import { decodeSecretsKey } from './platform/secrets-key.js'
import { randomBytes } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { createEmailModule, type EmailModule, type EmailSender } from './modules/email/index.js'
import { createWebhooksModule, webhookOutbox, type WebhookNetwork } from './modules/webhooks/index.js'
import type { WebhookService } from './modules/webhooks/index.js'
import { createEvidenceModule } from './modules/evidence/index.js'
import type { EvidenceSigner } from './modules/evidence/index.js'
import type { EvidenceService } from './modules/evidence/index.js'
import { createClientsService, type ClientsService } from './modules/oauth/index.js'
import { createTokensService, type TokensService } from './modules/oauth/index.js'
import { createRequestLog, type RequestLog } from './modules/oauth/index.js'
import { createAuditLog, createEventHub, feedReader, type AuditLog, type StreamDeps } from './modules/audit/index.js'
import { createAuthService, type AuthService } from './modules/orgs/index.js'
import { createOrgsService, createPasswordResets, type OrgsService, type PasswordResets } from './modules/orgs/index.js'
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
  /** Where emails go (default: SMTP_URL, or files under DATA_DIR/mail/). */
  emailSender?: EmailSender
  /** The process's log (the email path says where a file was written). */
  log?: Pick<FastifyBaseLogger, 'info'>
}

/** Every module's service, wired once; shared by the API (`buildApp`), the worker and the CLI. */
export interface Services {
  config: Config
  db: Database
  clock: Clock
  ids: IdGenerator
  limiter: RateLimiter
  passwords: PasswordHasher
  /** Seals what must be usable later (webhook signing secrets, invitation tokens, secret email variables). */
  secretBox: SecretBox
  /** The email outbox, templates and sending job. */
  email: EmailModule
  passwordResets: PasswordResets
  /** Resolved sessions and access tokens, invalidated across nodes (close it with the app). */
  credentials: CredentialCache
  audit: AuditLog
  /** The org event stream's reads and this node's one LISTEN connection (close it with the app). */
  eventStreams: StreamDeps
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
    secretBox:
      deps.secretBox ?? createSecretBox(config.secretsKey ? decodeSecretsKey(config.secretsKey) : randomBytes(32)),
  }
  const email = createEmailModule({
    config,
    db,
    clock,
    ids: base.ids,
    box: base.secretBox,
    ...(deps.emailSender ? { sender: deps.emailSender } : {}),
    ...(deps.log ? { log: deps.log } : {}),
  })
  const withEmail = { ...base, email }
  const access = createAccessServices(withEmail)
  const records = createRecordServices(base, access.audit)
  const partnerProgram = createPartnerProgram(withEmail, access, records)
  const payouts = createPayoutsService({ db, clock, ids: base.ids, audit: access.audit, outbox: email.outbox, config })
  const background = createBackgroundModules(deps, withEmail, access, payouts)
  return { ...withEmail, ...access, ...records, ...partnerProgram, payouts, ...background }
}

/** What every service is built from: the configuration, the database and the process's clock, ids, limiter and hasher. */
type BaseServices = Pick<Services, 'config' | 'db' | 'clock' | 'ids' | 'limiter' | 'passwords' | 'secretBox'>

/** The base, with the email path every writer that tells someone uses. */
type BaseWithEmail = BaseServices & Pick<Services, 'email'>

type AccessServices = Pick<
  Services,
  'credentials' | 'audit' | 'eventStreams' | 'auth' | 'orgs' | 'oauthTokens' | 'requestLog' | 'passwordResets'
>

type RecordServices = Pick<Services, 'creators' | 'catalog' | 'ticketing' | 'revenue'>

/** Who is calling and what they did: credentials, the audit log, sessions, orgs, access tokens and the request log. */
function createAccessServices(base: BaseWithEmail): AccessServices {
  const { config, db, clock, ids, limiter, passwords, secretBox, email } = base
  const credentials = createCredentialCache({ db, clock })
  const audit = createAuditLog({ db, clock, ids, outbox: webhookOutbox(config) })
  const auth = createAuthService({ db, clock, ids, passwords, limiter, credentials })
  const orgs = createOrgsService({ db, clock, ids, audit, config, credentials, outbox: email.outbox, box: secretBox })
  const oauthTokens = createTokensService({ db, clock, ids, limiter, credentials })
  const requestLog = createRequestLog({ db, clock, config })
  const passwordResets = createPasswordResets({
    db,
    clock,
    ids,
    passwords,
    limiter,
    credentials,
    outbox: email.outbox,
    publicUrl: config.publicUrl,
  })
  const eventStreams: StreamDeps = {
    hub: createEventHub(db.backend),
    clock,
    read: feedReader(audit),
    ...config.stream,
  }
  return { credentials, audit, eventStreams, auth, orgs, oauthTokens, requestLog, passwordResets }
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
  { config, db, clock, ids, email }: BaseWithEmail,
  { audit, auth, orgs, credentials, passwordResets }: AccessServices,
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
    outbox: email.outbox,
    issueLink: passwordResets.issueLink,
    seedSandbox: (ctx) => seedRecords(demo, ctx),
  })
  return { oauthClients, partners }
}

/** The worker's jobs, with the webhook and evidence modules that contribute theirs. */
function createBackgroundModules(
  deps: ServiceDeps,
  { config, db, clock, ids, secretBox, email }: BaseWithEmail,
  { audit, oauthTokens, requestLog, passwordResets }: AccessServices,
  payouts: PayoutsService,
): Pick<Services, 'webhooks' | 'evidence' | 'evidenceSigner' | 'jobs'> {
  const jobs: Job[] = [{ name: 'prune-idempotency-keys', everyMs: HOUR, run: () => pruneIdempotencyKeys(db, clock) }]
  jobs.push({ name: 'prune-oauth-access-tokens', everyMs: HOUR, run: () => oauthTokens.prune() })
  jobs.push({ name: 'prune-client-requests', everyMs: HOUR, run: () => requestLog.prune() })
  jobs.push(createSandboxRail({ db, clock, payouts }))
  jobs.push(...email.jobs, ...passwordResets.jobs)
  const webhookModule = createWebhooksModule({
    config,
    db,
    clock,
    ids,
    audit,
    secretBox,
    outbox: email.outbox,
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
