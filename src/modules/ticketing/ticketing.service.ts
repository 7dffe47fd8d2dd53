import type { Database } from '../../database.js'
import type { Clock } from '../../platform/clock.js'
import type { IdGenerator } from '../../platform/ids.js'
import type { AuditLog } from '../audit/index.js'
import type { RequestContext } from '../../platform/context.js'
import type { StoredAnswer } from '../../platform/idempotent-route.js'
import { DAY } from '../../platform/clock.js'
import { AppError, notFound } from '../../platform/errors.js'
import { decodeCursor, toPage, type Page } from '../../platform/pagination.js'
import { existingCreatorIds } from '../creators/index.js'
import { minorUnit } from '../../shared/money/money.currencies.js'
import { formatAmount, parseAmount } from '../../shared/money/money.decimal.js'
import { requireCurrency } from '../../shared/money/money.schemas.js'
import { isTimezone, requireCountry } from '../../shared/records/records.identifiers.js'
import { iso, isoOrNull } from '../../shared/records/records.mount.js'
import { changeStatus, findEvent, insertEvent, listEvents, type EventRow } from './ticketing.repo.js'
import type { CreateEventBody, EventQuery, TicketedEvent } from './ticketing.schemas.js'
import type { Tx } from '../../database.js'

export interface TicketingService {
  create(ctx: RequestContext, body: CreateEventBody, answer?: StoredAnswer): Promise<TicketedEvent>
  get(ctx: RequestContext, id: string): Promise<TicketedEvent>
  list(ctx: RequestContext, query: EventQuery): Promise<Page<TicketedEvent>>
  publish(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<TicketedEvent>
  cancel(ctx: RequestContext, id: string, answer?: StoredAnswer): Promise<TicketedEvent>
}

/** An event without endsAt is taken to last one day from startsAt. */
export const DEFAULT_EVENT_LENGTH_MS = DAY

export function lifecycleAt(row: Pick<EventRow, 'starts_at' | 'ends_at'>, now: Date): TicketedEvent['lifecycle'] {
  const end = row.ends_at ?? new Date(row.starts_at.getTime() + DEFAULT_EVENT_LENGTH_MS)
  if (now.getTime() < row.starts_at.getTime()) return 'upcoming'
  return now.getTime() < end.getTime() ? 'ongoing' : 'ended'
}

export function presentEvent(row: EventRow, now: Date): TicketedEvent {
  return {
    id: row.id,
    name: row.name,
    venue: { name: row.venue.name, city: row.venue.city, country: row.venue.country },
    startsAt: iso(row.starts_at),
    endsAt: isoOrNull(row.ends_at),
    timezone: row.timezone,
    currency: row.currency,
    capacity: row.capacity,
    ticketTypes: row.ticket_types.map((type) => ({
      name: type.name,
      price: formatAmount(BigInt(type.priceMicros), row.currency),
      quantity: type.quantity,
    })),
    performerIds: row.performer_ids,
    catalogIds: row.catalog_ids,
    status: row.status,
    lifecycle: lifecycleAt(row, now),
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
  }
}

function validated(
  body: CreateEventBody,
): Pick<EventRow, 'venue' | 'starts_at' | 'ends_at' | 'currency' | 'ticket_types'> {
  const currency = requireCurrency(body.currency)
  if (!isTimezone(body.timezone)) {
    throw new AppError('parameter_invalid', `timezone ${body.timezone} is not an IANA time zone (e.g. Europe/Berlin)`, {
      param: 'timezone',
    })
  }
  const startsAt = new Date(body.startsAt)
  const endsAt = body.endsAt === undefined ? null : new Date(body.endsAt)
  if (endsAt && endsAt.getTime() <= startsAt.getTime())
    throw new AppError('parameter_invalid', 'endsAt must be after startsAt', { param: 'endsAt' })
  const names = new Set<string>()
  const ticketTypes = body.ticketTypes.map((type, index) => {
    if (names.has(type.name))
      throw new AppError('parameter_invalid', `ticket type "${type.name}" is named twice`, {
        param: `ticketTypes.${index}.name`,
      })
    names.add(type.name)
    const price = parseAmount(type.price, {
      param: `ticketTypes.${index}.price`,
      places: minorUnit(currency),
      negative: false,
    })
    return { name: type.name, priceMicros: price.toString(), quantity: type.quantity }
  })
  const tickets = ticketTypes.reduce((sum, type) => sum + type.quantity, 0)
  if (tickets > body.capacity) {
    throw new AppError('unprocessable', `ticket types offer ${tickets} tickets but the capacity is ${body.capacity}`, {
      param: 'ticketTypes',
    })
  }
  const venue = {
    name: body.venue.name,
    city: body.venue.city ?? null,
    country: requireCountry(body.venue.country, 'venue.country'),
  }
  return { venue, starts_at: startsAt, ends_at: endsAt, currency, ticket_types: ticketTypes }
}

/** Performers must be the org's creators and works its catalog entries of kind work. */
async function checkReferences(
  tx: Tx,
  orgId: string,
  performerIds: readonly string[],
  catalogIds: readonly string[],
): Promise<void> {
  const creators = await existingCreatorIds(tx, orgId, performerIds)
  const missing = performerIds.findIndex((id) => !creators.has(id))
  if (missing >= 0)
    throw new AppError('unprocessable', `${performerIds[missing]} is not a creator of this org`, {
      param: `performerIds.${missing}`,
    })
  if (catalogIds.length === 0) return
  const works = await tx
    .selectFrom('catalog_entries')
    .select('id')
    .where('org_id', '=', orgId)
    .where('id', 'in', [...catalogIds])
    .where('kind', '=', 'work')
    .execute()
  const known = new Set(works.map((work) => work.id))
  const unknown = catalogIds.findIndex((id) => !known.has(id))
  if (unknown >= 0)
    throw new AppError('unprocessable', `${catalogIds[unknown]} is not a work entry of this org`, {
      param: `catalogIds.${unknown}`,
    })
}

/** What the service is built from: the database, time, ids, and the audit log's append. */
export interface TicketingDeps {
  db: Database
  clock: Clock
  ids: IdGenerator
  audit: Pick<AuditLog, 'append'>
}

export function createTicketingService(deps: TicketingDeps): TicketingService {
  const { db, clock, ids, audit } = deps

  async function transition(
    ctx: RequestContext,
    id: string,
    to: 'published' | 'cancelled',
    answer: StoredAnswer | undefined,
  ): Promise<TicketedEvent> {
    const from: EventRow['status'][] = to === 'published' ? ['draft'] : ['draft', 'published']
    return db.tx(
      ctx,
      async (tx) => {
        const current = await findEvent(tx, ctx.orgId, id)
        if (!current) throw notFound('ticketed event')
        if (!from.includes(current.status))
          throw new AppError('invalid_state', `A ${current.status} event cannot be ${to}`)
        if (to === 'cancelled' && lifecycleAt(current, clock.now()) === 'ended')
          throw new AppError('invalid_state', 'The event has already ended')
        const updated = await changeStatus(tx, ctx.orgId, id, from, to)
        if (!updated) throw new AppError('invalid_state', `The event is no longer ${from.join(' or ')}`)
        const event = presentEvent(updated, clock.now())
        await audit.append(tx, ctx, `ticketed_event.${to}`, { type: 'ticketed_event', id }, event)
        return event
      },
      { commitWith: answer },
    )
  }

  return {
    async create(ctx, body, answer) {
      const row: EventRow = {
        org_id: ctx.orgId,
        id: ids.next('ticketedEvent'),
        name: body.name.trim(),
        ...validated(body),
        timezone: body.timezone,
        capacity: body.capacity,
        performer_ids: body.performerIds ?? [],
        catalog_ids: body.catalogIds ?? [],
        status: body.status ?? 'draft',
        created_at: clock.now(),
        created_by: ctx.actor.userId,
      }
      return db.tx(
        ctx,
        async (tx) => {
          await checkReferences(tx, ctx.orgId, row.performer_ids, row.catalog_ids)
          await insertEvent(tx, row)
          const event = presentEvent(row, clock.now())
          await audit.append(tx, ctx, 'ticketed_event.created', { type: 'ticketed_event', id: row.id }, event)
          return event
        },
        { commitWith: answer },
      )
    },

    async get(ctx, id) {
      const row = await db.read(ctx.orgId, (reader) => findEvent(reader, ctx.orgId, id))
      if (!row) throw notFound('ticketed event')
      return presentEvent(row, clock.now())
    },

    async list(ctx, query) {
      const after = decodeCursor(query.cursor, {}, 2)
      const rows = await db.read(ctx.orgId, (reader) => listEvents(reader, ctx.orgId, after, query.limit))
      const now = clock.now()
      return toPage(
        rows,
        query.limit,
        (row) => [iso(row.created_at), row.id],
        (row) => presentEvent(row, now),
        {},
      )
    },

    publish: (ctx, id, answer) => transition(ctx, id, 'published', answer),
    cancel: (ctx, id, answer) => transition(ctx, id, 'cancelled', answer),
  }
}
