import { randomBytes } from 'node:crypto'
import { sql } from 'kysely'
import type { Database } from '../../database.js'
import { MINUTE, type Clock } from '../../platform/clock.js'
import type { SecretBox } from '../../platform/crypto.js'
import type { Job } from '../../worker/worker.js'
import { isEmailKind, type EmailKind } from './email.kinds.js'
import type { EmailSender, SendResult } from './email.sender.js'
import type { EmailTemplates } from './email.templates.js'

/** Waits before each retry of a temporary failure, in seconds; after the last, the email is given up. */
export const EMAIL_RETRY_SECONDS = [60, 300, 900, 3_600, 3 * 3_600, 6 * 3_600, 12 * 3_600, 24 * 3_600] as const
/** A claimed email is this worker's for this long: longer than any send can take (SMTP timeouts are 15-30 s). */
const LEASE_MS = 5 * MINUTE
const CLAIM = 20

export type EmailOutcome = 'sent' | 'retried' | 'failed'

/** Emails sent, retried and given up since start, by kind (/metrics). */
export class EmailCounts {
  private readonly counts = new Map<string, number>()
  add(kind: string, outcome: EmailOutcome): void {
    const key = `${kind}\u0000${outcome}`
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1)
  }
  list(): { kind: string; outcome: EmailOutcome; count: number }[] {
    return [...this.counts].map(([key, count]) => {
      const [kind, outcome] = key.split('\u0000') as [string, EmailOutcome]
      return { kind, outcome, count }
    })
  }
}

export interface EmailJobDeps {
  db: Database
  clock: Clock
  templates: EmailTemplates
  sender: EmailSender
  /** The product (or white-label brand) the emails come from: every template's `brand.*`. */
  brand: { name: string; url: string }
  counts: EmailCounts
  /** Opens the variables an email carries sealed. */
  box: SecretBox
  /** The From and Reply-To of this deployment's emails (a brand's support address); default MAIL_FROM. */
  replyTo?: string | null
}

interface ClaimedEmail {
  id: string
  kind: string
  to_address: string
  to_name: string | null
  variables: Record<string, unknown>
  sealed_variables: string | null
  attempts: number
}

/**
 * Sends what the outbox holds: claims due emails under a lease (FOR UPDATE SKIP LOCKED, so two
 * workers never claim the same one), renders and sends each, and records the outcome only while
 * its lease is still this worker's: sent; a temporary failure (an SMTP 4xx, a connection that
 * failed) due again after EMAIL_RETRY_SECONDS; a permanent one (an SMTP 5xx) given up with its reason.
 */
export function createEmailJob(deps: EmailJobDeps): Job {
  return {
    name: 'email-outbox',
    everyMs: 1_000,
    async run() {
      const now = deps.clock.now()
      const token = randomBytes(12).toString('base64url')
      const claimed = await claimDue(deps.db, now, token)
      for (const email of claimed) {
        const result = await sendOne(deps, email)
        await record(deps, email, token, result)
      }
      return claimed.length
    },
  }
}

async function claimDue(db: Database, now: Date, token: string): Promise<ClaimedEmail[]> {
  const until = new Date(now.getTime() + LEASE_MS)
  const { rows } = await sql<ClaimedEmail>`
    update email_outbox o set leased_until = ${until}, lease_token = ${token}
    where o.id in (
      select id from email_outbox
      where due_at <= ${now} and (leased_until is null or leased_until <= ${now})
      order by due_at, id limit ${CLAIM} for update skip locked)
    returning o.id, o.kind, o.to_address, o.to_name, o.variables, o.sealed_variables, o.attempts`.execute(db.global)
  return rows
}

async function sendOne(deps: EmailJobDeps, email: ClaimedEmail): Promise<SendResult> {
  if (!isEmailKind(email.kind)) return { sent: false, permanent: true, reason: `unknown kind ${email.kind}` }
  const secret = email.sealed_variables ? JSON.parse(deps.box.open(email.sealed_variables)) : {}
  let rendered
  try {
    rendered = await deps.templates.render(email.kind as EmailKind, {
      ...email.variables,
      ...secret,
      brand: deps.brand,
    })
  } catch (error) {
    return { sent: false, permanent: true, reason: `the template did not render: ${(error as Error).message}` }
  }
  return deps.sender.send({
    id: email.id,
    to: { address: email.to_address, name: email.to_name },
    ...rendered,
    ...(deps.replyTo ? { replyTo: deps.replyTo } : {}),
  })
}

async function record(deps: EmailJobDeps, email: ClaimedEmail, token: string, result: SendResult): Promise<void> {
  const now = deps.clock.now()
  const attempts = email.attempts + 1
  const wait = EMAIL_RETRY_SECONDS[attempts - 1]
  let outcome: EmailOutcome
  let set
  if (result.sent) {
    outcome = 'sent'
    set = {
      status: 'sent' as const,
      due_at: null,
      finished_at: now,
      message_id: result.messageId,
      last_error: null,
      sealed_variables: null,
    }
  } else if (!result.permanent && wait !== undefined) {
    outcome = 'retried'
    set = { due_at: new Date(now.getTime() + wait * 1000), last_error: result.reason }
  } else {
    outcome = 'failed'
    const reason = result.permanent ? result.reason : `gave up after ${attempts} attempts: ${result.reason}`
    set = { status: 'failed' as const, due_at: null, finished_at: now, last_error: reason, sealed_variables: null }
  }
  await deps.db.global
    .updateTable('email_outbox')
    .set({ ...set, attempts, leased_until: null, lease_token: null })
    .where('id', '=', email.id)
    .where('lease_token', '=', token)
    .execute()
  deps.counts.add(email.kind, outcome)
}
