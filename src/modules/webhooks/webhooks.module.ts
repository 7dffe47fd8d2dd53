import { randomBytes } from 'node:crypto'
import type { Config } from '../../config.js'
import type { Database } from '../../database.js'
import { createSecretBox, type SecretBox } from '../../platform/crypto.js'
import type { Clock } from '../../platform/clock.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { Job } from '../../worker/worker.js'
import type { AuditLog, Outbox } from '../audit/index.js'
import type { EmailOutbox } from '../email/index.js'
import { decodeSecretsKey } from '../../platform/secrets-key.js'
import { createWebhookService, type WebhookService } from './webhooks.service.js'
import { systemLookup, type HostLookup } from './webhooks.ssrf.js'
import {
  ATTEMPT_TIMEOUT_MS,
  createDeliveryJob,
  createPruneJob,
  DEFAULT_CONCURRENCY,
  DEFAULT_RETRY_SCHEDULE,
} from './webhooks.worker.js'

/** What the outside world looks like to deliveries; tests replace DNS and shorten timeouts. */
export interface WebhookNetwork {
  lookup: HostLookup
  /** Up to this fraction of each retry delay is added at random. */
  jitter: number
  timeoutMs: number
  /** Attempts under way at once per worker. */
  concurrency: number
}

export const DEFAULT_JITTER = 0.1

/**
 * The webhook outbox the audit log fills: the appending SQL writes a delivery per matching
 * endpoint in the transaction of the events, reading the endpoints once the chain is locked
 * (migration 0007), first due after the retry schedule's first delay.
 */
export function webhookOutbox(config: Pick<Config, 'webhookRetrySchedule'>): Outbox {
  const firstDelaySeconds = (config.webhookRetrySchedule ?? DEFAULT_RETRY_SCHEDULE)[0] ?? 0
  return { deliveriesDue: (now) => new Date(now.getTime() + firstDelaySeconds * 1000) }
}

export interface WebhooksModule {
  webhooks: WebhookService
  secretBox: SecretBox
  jobs: Job[]
}

/**
 * The webhook service and its worker jobs. Without a `secretBox` (tests) the key is
 * SECRETS_KEY or, failing that, a random key that lives as long as the process;
 * processes pass the one loaded by `loadServiceKeys`.
 */
export function createWebhooksModule(deps: {
  config: Config
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: AuditLog
  secretBox?: SecretBox
  /** Where the worker's notice of a disabled endpoint goes. */
  outbox: EmailOutbox
  network?: Partial<WebhookNetwork>
}): WebhooksModule {
  const { config, db, clock, ids, audit } = deps
  const secretBox =
    deps.secretBox ?? createSecretBox(config.secretsKey ? decodeSecretsKey(config.secretsKey) : randomBytes(32))
  const lookup = deps.network?.lookup ?? systemLookup
  const schedule = config.webhookRetrySchedule ?? DEFAULT_RETRY_SCHEDULE
  const allowLoopback = config.webhooksAllowLoopback
  const webhooks = createWebhookService({ db, clock, ids, audit, box: secretBox, allowLoopback, lookup, schedule })
  const jobs = [
    createDeliveryJob({
      notices: { outbox: deps.outbox, publicUrl: config.publicUrl },
      db,
      clock,
      audit,
      box: secretBox,
      allowLoopback,
      lookup,
      schedule,
      jitter: deps.network?.jitter ?? DEFAULT_JITTER,
      timeoutMs: deps.network?.timeoutMs ?? ATTEMPT_TIMEOUT_MS,
      concurrency: deps.network?.concurrency ?? DEFAULT_CONCURRENCY,
    }),
    createPruneJob({ db, clock }),
  ]
  return { webhooks, secretBox, jobs }
}
