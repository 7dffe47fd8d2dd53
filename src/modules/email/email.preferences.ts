import type { Database } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import { EMAIL_KIND_SPECS } from './email.kinds.js'
import { CHOSEN_KINDS, type EmailPreferences, type EmailPreferencesBody } from './email.schemas.js'

/** A person's choices of the non-security emails: each chosen kind, or the kind's default. */
export async function preferencesOf(db: Database, userId: string): Promise<EmailPreferences> {
  const rows = await db.global
    .selectFrom('email_preferences')
    .select(['kind', 'receive'])
    .where('user_id', '=', userId)
    .execute()
  const chosen = new Map(rows.map((row) => [row.kind, row.receive]))
  return Object.fromEntries(
    CHOSEN_KINDS.map((kind) => [kind, chosen.get(kind) ?? EMAIL_KIND_SPECS[kind].receivedByDefault]),
  ) as EmailPreferences
}

export async function choosePreferences(
  db: Database,
  clock: Clock,
  userId: string,
  body: EmailPreferencesBody,
): Promise<EmailPreferences> {
  const now = clock.now()
  const values = CHOSEN_KINDS.filter((kind) => body[kind] !== undefined).map((kind) => ({
    user_id: userId,
    kind,
    receive: body[kind]!,
    updated_at: now,
  }))
  if (values.length > 0)
    await db.global
      .insertInto('email_preferences')
      .values(values)
      .onConflict((conflict) =>
        conflict.columns(['user_id', 'kind']).doUpdateSet((eb) => ({
          receive: eb.ref('excluded.receive'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute()
  return preferencesOf(db, userId)
}
