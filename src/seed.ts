import type { Services } from './app.js'
import type { Database } from './database.js'
import type { PasswordHasher } from './platform/crypto.js'

export const DEMO_EMAIL = 'demo@oeuvre.local'
export const DEMO_PASSWORD = 'oeuvre-demo-password'

/** First run only: one demo org with a demo owner. Later starts find the user and do nothing. */
export async function seedDemo(
  db: Database,
  services: Services,
  passwords: PasswordHasher,
): Promise<{ created: boolean }> {
  const existing = await db.global.selectFrom('users').select('id').where('email', '=', DEMO_EMAIL).executeTakeFirst()
  if (existing) return { created: false }
  const user = {
    id: services.ids.next('user'),
    kind: 'person' as const,
    email: DEMO_EMAIL,
    name: 'Demo Owner',
    password_hash: await passwords.hash(DEMO_PASSWORD),
    home_org_id: null,
    created_at: services.clock.now(),
  }
  await db.global.insertInto('users').values(user).execute()
  await services.orgs.provision({ name: 'Demo Label', environment: 'sandbox', ownerId: user.id, requestId: 'seed' })
  return { created: true }
}
