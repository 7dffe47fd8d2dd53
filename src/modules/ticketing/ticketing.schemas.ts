import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { idPattern } from '../../platform/ids.js'
import { ListEnvelope, ListQuery } from '../../platform/pagination.js'
import { Timestamp } from '../../platform/timestamp.js'
import { CurrencyCode, DecimalString } from '../../shared/money/money.schemas.js'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])
const RefId = Type.String({ minLength: 1, maxLength: 64 })
export const EventStatus = Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('cancelled')])
export const Lifecycle = Type.Union([Type.Literal('upcoming'), Type.Literal('ongoing'), Type.Literal('ended')], {
  description:
    'From the current time: before startsAt upcoming, until endsAt (or startsAt + 1 day without one) ongoing, then ended',
})

const Venue = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 300 }),
    city: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
  },
  { additionalProperties: false },
)

export const TicketType = component(
  'TicketType',
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100 }),
      price: DecimalString(
        'Price per ticket in the event currency, at most its minor unit of places; "0" for free tickets',
        '39.00',
      ),
      quantity: Type.Integer({ minimum: 1, maximum: 10_000_000 }),
    },
    { additionalProperties: false },
  ),
)

export const CreateEventBody = component(
  'CreateTicketedEventRequest',
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 300 }),
      venue: Venue,
      startsAt: Type.String({ format: 'date-time' }),
      endsAt: Type.Optional(
        Type.String({
          format: 'date-time',
          description: 'After startsAt; without it the event is taken to last one day',
        }),
      ),
      timezone: Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'IANA time zone of the venue, e.g. Europe/Berlin',
        example: 'Europe/Berlin',
      }),
      currency: CurrencyCode,
      capacity: Type.Integer({ minimum: 1, maximum: 10_000_000 }),
      ticketTypes: Type.Array(TicketType, { maxItems: 50, description: 'Quantities sum to at most capacity' }),
      performerIds: Type.Optional(
        Type.Array(RefId, { maxItems: 100, uniqueItems: true, description: 'Creators of this org' }),
      ),
      catalogIds: Type.Optional(
        Type.Array(RefId, {
          maxItems: 200,
          uniqueItems: true,
          description: 'Work entries of this org performed at the event',
        }),
      ),
      status: Type.Optional(
        Type.Union([Type.Literal('draft'), Type.Literal('published')], { description: 'Default draft' }),
      ),
    },
    { additionalProperties: false },
  ),
)
export type CreateEventBody = Static<typeof CreateEventBody>

export const TicketedEventSchema = component(
  'TicketedEvent',
  Type.Object(
    {
      id: Type.String({ pattern: idPattern('tev') }),
      name: Type.String(),
      venue: Type.Object({ name: Type.String(), city: Nullable(Type.String()), country: Type.String() }),
      startsAt: Timestamp,
      endsAt: Nullable(Timestamp),
      timezone: Type.String(),
      currency: Type.String(),
      capacity: Type.Integer(),
      ticketTypes: Type.Array(Type.Object({ name: Type.String(), price: Type.String(), quantity: Type.Integer() })),
      performerIds: Type.Array(Type.String()),
      catalogIds: Type.Array(Type.String()),
      status: EventStatus,
      lifecycle: Lifecycle,
      createdAt: Timestamp,
      createdBy: Type.String(),
    },
    { description: 'A ticketed event: a concert or show with its venue and tickets' },
  ),
)
export type TicketedEvent = Static<typeof TicketedEventSchema>

export const EventList = ListEnvelope(TicketedEventSchema, 'Ticketed events, newest first')

export const EventQuery = ListQuery({})
export type EventQuery = Static<typeof EventQuery>
