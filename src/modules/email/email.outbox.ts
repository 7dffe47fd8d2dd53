import { sql } from 'kysely'
import type { Reader, Tx } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { SecretBox } from '../../platform/crypto.js'
import type { IdGenerator } from '../../platform/ids.js'
import { EMAIL_KIND_SPECS, type EmailKind } from './email.kinds.js'
import { kindVariables } from './email.templates.js'

/** An email to send: to whom, of which kind, about which org, with its kind's variables (`brand.*` are added when sent). */
export interface NewEmail {
  kind: EmailKind
  to: { address: string; name?: string | null }
  orgId?: string | null
  variables: Record<string, unknown>
  /** Variables that carry a secret (a link with a token): stored sealed, erased once sent, merged over `variables`. */
  secret?: Record<string, unknown>
}

export interface EmailOutbox {
  /** Writes the email in the caller's transaction: it goes out once the write commits, and never if it does not. */
  enqueue(tx: Tx | Reader, email: NewEmail): Promise<string>
  /**
   * Emails to an org's members in these roles who receive the kind (their choice, or the kind's
   * default), in the caller's transaction; how many.
   */
  enqueueToMembers(
    tx: Tx,
    members: { orgId: string; roles: readonly string[] },
    email: Omit<NewEmail, 'to' | 'orgId'>,
  ): Promise<number>
}

export function createEmailOutbox(deps: { clock: Clock; ids: IdGenerator; box: SecretBox }): EmailOutbox {
  async function enqueue(tx: Tx | Reader, email: NewEmail): Promise<string> {
    checkVariables(email.kind, { ...email.variables, ...email.secret })
    const id = deps.ids.next('email')
    const now = deps.clock.now()
    await tx
      .insertInto('email_outbox')
      .values({
        id,
        kind: email.kind,
        to_address: email.to.address,
        to_name: email.to.name ?? null,
        tenant_org: email.orgId ?? null,
        variables: JSON.stringify(email.variables),
        sealed_variables: email.secret ? deps.box.seal(JSON.stringify(email.secret)) : null,
        status: 'pending',
        attempts: 0,
        due_at: now,
        leased_until: null,
        lease_token: null,
        last_error: null,
        message_id: null,
        created_at: now,
        finished_at: null,
      })
      .execute()
    return id
  }

  return {
    enqueue,
    async enqueueToMembers(tx, members, email) {
      const { receivedByDefault } = EMAIL_KIND_SPECS[email.kind]
      const { rows } = await sql<{ email: string; name: string }>`
        select u.email, u.name from memberships m
        join users u on u.id = m.user_id
        left join email_preferences p on p.user_id = u.id and p.kind = ${email.kind}
        where m.org_id = ${members.orgId} and m.role = any(${[...members.roles]}::text[]) and u.email is not null
          and coalesce(p.receive, ${receivedByDefault}) order by u.email`.execute(tx)
      for (const row of rows)
        await enqueue(tx, { ...email, orgId: members.orgId, to: { address: row.email, name: row.name } })
      return rows.length
    },
  }
}

/** Every variable the kind declares is given (the brand's are added when sent): a template then never meets an undefined one. */
function checkVariables(kind: EmailKind, variables: Record<string, unknown>): void {
  for (const path of kindVariables(kind)) {
    if (path.startsWith('brand.')) continue
    let at: unknown = variables
    for (const part of path.split('.')) at = (at as Record<string, unknown> | undefined)?.[part]
    if (at === undefined || at === null) throw new Error(`the ${kind} email needs ${path}`)
  }
}
