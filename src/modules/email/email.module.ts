import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../config.js'
import type { Database } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { SecretBox } from '../../platform/crypto.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { Job } from '../../worker/worker.js'
import { createEmailOutbox, type EmailOutbox } from './email.outbox.js'
import { createEmailSender, type EmailSender } from './email.sender.js'
import { loadEmailTemplates, type EmailTemplates } from './email.templates.js'
import { createEmailJob, EmailCounts } from './email.worker.js'

export interface EmailModule {
  outbox: EmailOutbox
  templates: EmailTemplates
  counts: EmailCounts
  jobs: Job[]
  close(): void
}

/**
 * The email path: the outbox writers enqueue into, the templates (loaded and checked now: a bad
 * one stops the start naming its file), and the worker job that sends over SMTP or into
 * DATA_DIR/mail/.
 */
export function createEmailModule(deps: {
  config: Config
  db: Database
  clock: Clock
  ids: IdGenerator
  /** Seals the variables that carry a secret until the email is sent. */
  box: SecretBox
  log?: Pick<FastifyBaseLogger, 'info'>
  sender?: EmailSender
}): EmailModule {
  const { config } = deps
  const templates = loadEmailTemplates()
  const counts = new EmailCounts()
  const sender =
    deps.sender ??
    createEmailSender(config.mail, {
      mailDir: path.join(config.dataDir, 'mail'),
      log: (file) => deps.log?.info({ file }, 'email written to a file (SMTP_URL is not set)'),
    })
  const job = createEmailJob({
    db: deps.db,
    clock: deps.clock,
    templates,
    sender,
    counts,
    box: deps.box,
    brand: { name: 'Oeuvre', url: config.publicUrl },
  })
  return {
    outbox: createEmailOutbox({ clock: deps.clock, ids: deps.ids, box: deps.box }),
    templates,
    counts,
    jobs: [job],
    close: () => sender.close(),
  }
}
