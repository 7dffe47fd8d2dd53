import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { idPattern } from '../../platform/ids.js'
import { ListEnvelope, ListQuery } from '../../platform/pagination.js'
import { Timestamp } from '../../platform/timestamp.js'
import { CurrencyCode, DecimalString } from '../../shared/money/money.schemas.js'

export const CREATOR_ROLES = [
  'artist',
  'featured_artist',
  'composer',
  'lyricist',
  'producer',
  'arranger',
  'publisher',
  'label',
] as const
export const CreatorRole = component(
  'CreatorRole',
  Type.Union([
    Type.Literal('artist'),
    Type.Literal('featured_artist'),
    Type.Literal('composer'),
    Type.Literal('lyricist'),
    Type.Literal('producer'),
    Type.Literal('arranger'),
    Type.Literal('publisher'),
    Type.Literal('label'),
  ]),
)
export const CreatorKind = Type.Union([Type.Literal('person'), Type.Literal('group'), Type.Literal('company')])
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

export const CreateCreatorBody = component(
  'CreateCreatorRequest',
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 300 }),
      legalName: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
      kind: CreatorKind,
      roles: Type.Array(CreatorRole, { minItems: 1, maxItems: CREATOR_ROLES.length, uniqueItems: true }),
      email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
      country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' })),
      ipi: Type.Optional(Type.String({ maxLength: 20, description: 'IPI name number: 9 or 11 digits' })),
      isni: Type.Optional(
        Type.String({
          maxLength: 24,
          description: 'ISNI: 16 characters, the last a check character (0-9 or X); spaces allowed',
        }),
      ),
      payoutCurrency: CurrencyCode,
      minimumPayout: Type.Optional(
        DecimalString('Smallest payout, in payoutCurrency, at most its minor unit of places; default "0"', '50.00'),
      ),
      openingBalance: Type.Optional(
        DecimalString(
          'Balance owed to the creator before any revenue, in payoutCurrency, up to 6 places; negative = an advance still to recoup; default "0"',
          '-500.00',
        ),
      ),
    },
    { additionalProperties: false },
  ),
)
export type CreateCreatorBody = Static<typeof CreateCreatorBody>

export const CreatorSchema = component(
  'Creator',
  Type.Object(
    {
      id: Type.String({ pattern: idPattern('crt') }),
      name: Type.String(),
      legalName: Nullable(Type.String()),
      kind: CreatorKind,
      roles: Type.Array(CreatorRole),
      email: Nullable(Type.String()),
      country: Nullable(Type.String()),
      ipi: Nullable(Type.String()),
      isni: Nullable(Type.String()),
      payoutCurrency: Type.String(),
      minimumPayout: Type.String(),
      openingBalance: Type.String(),
      createdAt: Timestamp,
      createdBy: Type.String(),
    },
    { description: 'A creator: an artist, songwriter, producer, publisher or label who is paid from revenue' },
  ),
)
export type Creator = Static<typeof CreatorSchema>

export const CreatorList = ListEnvelope(CreatorSchema, 'Creators, newest first')

export const CreatorQuery = ListQuery({})
export type CreatorQuery = Static<typeof CreatorQuery>
