import type { Config } from './config.js'
import type { Database } from './db/database.js'
import { HOUR, systemClock, type Clock } from './platform/clock.js'
import { createPasswordHasher, type PasswordHasher } from './platform/crypto.js'
import { pruneIdempotencyKeys } from './platform/idempotency.js'
import { createIdGenerator, type IdGenerator } from './platform/ids.js'
import { createMemoryRateLimiter, type RateLimiter } from './platform/rate-limit.js'
import type { Job } from './worker/worker.js'
import { createAuditLog, type AuditLog } from './modules/audit/audit.service.js'
import { createAuthService, type AuthService } from './modules/orgs/auth.service.js'
import { createOrgsService, type OrgsService } from './modules/orgs/orgs.service.js'

export interface ServiceDeps {
  config: Config
  db: Database
  clock?: Clock
  limiter?: RateLimiter
  passwords?: PasswordHasher
}

/** Every module's service, wired once; shared by the API (`buildApp`), the worker and the CLI. */
export interface Services {
  config: Config
  db: Database
  clock: Clock
  ids: IdGenerator
  limiter: RateLimiter
  passwords: PasswordHasher
  audit: AuditLog
  auth: AuthService
  orgs: OrgsService
  /** The worker's recurring duties, contributed by the modules. */
  jobs: Job[]
}

export function createServices(deps: ServiceDeps): Services {
  const { config, db } = deps
  const clock = deps.clock ?? systemClock
  const ids = createIdGenerator(clock)
  const limiter = deps.limiter ?? createMemoryRateLimiter(clock)
  const passwords = deps.passwords ?? createPasswordHasher()

  const audit = createAuditLog({ db, clock, ids })
  const auth = createAuthService({ db, clock, ids, passwords, limiter })
  const orgs = createOrgsService({ db, clock, ids, audit, config })

  const jobs: Job[] = [{ name: 'prune-idempotency-keys', everyMs: HOUR, run: () => pruneIdempotencyKeys(db, clock) }]

  return { config, db, clock, ids, limiter, passwords, audit, auth, orgs, jobs }
}
