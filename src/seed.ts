import type { Database } from './database.js'
import type { PasswordHasher } from './platform/crypto.js'
import type { RequestContext } from './platform/context.js'
import type { Clock } from './platform/clock.js'
import type { IdGenerator } from './platform/ids.js'
import type { CatalogService } from './modules/catalog/index.js'
import type { CreateCreatorBody, CreatorsService } from './modules/creators/index.js'
import type { OrgsService } from './modules/orgs/index.js'
import type { RevenueService } from './modules/revenue/index.js'
import type { TicketingService } from './modules/ticketing/index.js'

export const DEMO_EMAIL = 'demo@oeuvre.local'
export const DEMO_PASSWORD = 'oeuvre-demo-password'

/** First run only: one demo org with a demo owner and records to look at. Later starts find the user and do nothing. */
export async function seedDemo(
  db: Database,
  services: DemoServices & { ids: IdGenerator; orgs: Pick<OrgsService, 'provision'> },
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
  const org = await services.orgs.provision({
    name: 'Demo Label',
    environment: 'sandbox',
    ownerId: user.id,
    requestId: 'seed',
  })
  await seedRecords(services, {
    orgId: org.id,
    requestId: 'seed',
    actor: { userId: user.id, kind: 'person', role: 'owner' },
  })
  return { created: true }
}

/** The services the demo records are written through (so every record has its org event). */
export interface DemoServices {
  clock: Clock
  creators: Pick<CreatorsService, 'create'>
  catalog: Pick<CatalogService, 'create'>
  ticketing: Pick<TicketingService, 'create'>
  revenue: Pick<RevenueService, 'create'>
}

/**
 * Creators, a work with its recording and a release, a quarter of revenue allocated to them, and
 * a concert: the demo org's records, and every partner sandbox org's.
 */
export async function seedRecords(services: DemoServices, ctx: RequestContext): Promise<void> {
  const creator = (name: string, roles: CreateCreatorBody['roles'], kind: 'person' | 'group' | 'company' = 'person') =>
    services.creators.create(ctx, { name, kind, roles, payoutCurrency: 'EUR', country: 'NL' })
  const [singer, writer, producer] = [
    await creator('Mira Vos', ['artist', 'lyricist']),
    await creator('Jonas Berg', ['composer']),
    await creator('Tidewater Studio', ['producer'], 'company'),
  ]
  const work = await services.catalog.create(ctx, {
    kind: 'work',
    title: 'Northern Lights',
    splits: [
      { creatorId: singer.id, role: 'lyricist', shareBps: 5000 },
      { creatorId: writer.id, role: 'composer', shareBps: 5000 },
    ],
  })
  const recording = await services.catalog.create(ctx, {
    kind: 'recording',
    title: 'Northern Lights',
    displayArtist: 'Mira Vos',
    identifiers: { isrc: 'NLA1X2600001' },
    releaseDate: '2026-03-06',
    workId: work.id,
    splits: [
      { creatorId: singer.id, role: 'artist', shareBps: 7000 },
      { creatorId: producer.id, role: 'producer', shareBps: 3000 },
    ],
  })
  await services.catalog.create(ctx, {
    kind: 'recording',
    title: 'Harbour Song',
    displayArtist: 'Mira Vos',
    identifiers: { isrc: 'NLA1X2600002' },
    splits: [{ creatorId: singer.id, role: 'artist', shareBps: 10000 }],
  })
  const lines = [
    { source: 'Spotify', territory: 'NL', units: 182_340, amount: '612.402117' },
    { source: 'Apple Music', territory: 'DE', units: 41_002, amount: '287.014000' },
    { source: 'YouTube', territory: 'WORLD', units: 903_115, amount: '95.330541' },
  ]
  // Two months after the first start, an evening in Amsterdam: an upcoming published event with its tickets.
  const concert = new Date(services.clock.now().getTime() + 60 * 86_400_000).toISOString().slice(0, 10)
  await services.ticketing.create(ctx, {
    name: 'Northern Lights Live',
    venue: { name: 'Paradiso', city: 'Amsterdam', country: 'NL' },
    startsAt: `${concert}T19:00:00.000Z`,
    endsAt: `${concert}T22:00:00.000Z`,
    timezone: 'Europe/Amsterdam',
    currency: 'EUR',
    capacity: 1500,
    ticketTypes: [
      { name: 'Standing', price: '32.50', quantity: 1300 },
      { name: 'Balcony', price: '45.00', quantity: 200 },
    ],
    performerIds: [singer.id],
    catalogIds: [work.id],
    status: 'published',
  })
  for (const [index, line] of lines.entries()) {
    await services.revenue.create(ctx, {
      catalogId: recording.id,
      type: 'stream',
      periodStart: '2026-04-01',
      periodEnd: '2026-06-30',
      currency: 'EUR',
      statementRef: 'demo-2026-q2',
      lineRef: String(index + 1),
      ...line,
    })
  }
}
