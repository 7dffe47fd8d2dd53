import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { idPattern } from '../../platform/ids.js'
import { ListEnvelope, ListQuery } from '../../platform/pagination.js'
import { Timestamp } from '../../platform/timestamp.js'
import { CreatorRole } from '../creators/index.js'

export const CatalogKind = component(
  'CatalogKind',
  Type.Union([Type.Literal('work'), Type.Literal('recording'), Type.Literal('release')]),
)
const RefId = Type.String({ minLength: 1, maxLength: 64 })
const Territory = Type.String({ pattern: '^([A-Z]{2}|WORLD)$', description: 'ISO 3166-1 alpha-2, or WORLD' })
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

export const Split = component(
  'Split',
  Type.Object(
    {
      creatorId: RefId,
      role: CreatorRole,
      shareBps: Type.Integer({ minimum: 1, maximum: 10000, description: 'Basis points: 10000 = 100%' }),
    },
    { additionalProperties: false },
  ),
)
export type Split = Static<typeof Split>

export const Identifiers = component(
  'Identifiers',
  Type.Object(
    {
      isrc: Type.Optional(
        Type.String({
          maxLength: 20,
          description: 'Recordings only; CC-XXX-YY-NNNNN, hyphens optional, stored as 12 upper-case chars',
          example: 'US-RC1-76-07839',
        }),
      ),
      iswc: Type.Optional(
        Type.String({
          maxLength: 20,
          description: 'Works only; T-DDD.DDD.DDD-C with a valid check digit',
          example: 'T-034.524.680-1',
        }),
      ),
      upc: Type.Optional(
        Type.String({
          maxLength: 20,
          description: 'Releases only; UPC-A, EAN-13 or GTIN-14 with a valid check digit',
          example: '036000291452',
        }),
      ),
    },
    { additionalProperties: false },
  ),
)

export const CreateCatalogBody = component(
  'CreateCatalogEntryRequest',
  Type.Object(
    {
      kind: CatalogKind,
      title: Type.String({ minLength: 1, maxLength: 300 }),
      versionTitle: Type.Optional(Type.String({ minLength: 1, maxLength: 300, example: 'Radio Edit' })),
      displayArtist: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
      identifiers: Type.Optional(Identifiers),
      releaseDate: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD' })),
      territories: Type.Optional(
        Type.Array(Territory, { minItems: 1, maxItems: 250, description: 'Default ["WORLD"]' }),
      ),
      workId: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'Recordings only: the underlying work (a work entry of this org)',
        }),
      ),
      splits: Type.Array(Split, {
        minItems: 1,
        maxItems: 100,
        description: 'Creators of this org; shareBps sum to exactly 10000',
      }),
      supersedes: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'The active entry this one corrects; it then shows status "superseded"',
        }),
      ),
    },
    { additionalProperties: false },
  ),
)
export type CreateCatalogBody = Static<typeof CreateCatalogBody>

export const CatalogEntrySchema = component(
  'CatalogEntry',
  Type.Object(
    {
      id: Type.String({ pattern: idPattern('cat') }),
      kind: CatalogKind,
      title: Type.String(),
      versionTitle: Nullable(Type.String()),
      displayArtist: Nullable(Type.String()),
      identifiers: Type.Object({
        isrc: Nullable(Type.String()),
        iswc: Nullable(Type.String()),
        upc: Nullable(Type.String()),
      }),
      releaseDate: Nullable(Type.String({ format: 'date' })),
      territories: Type.Array(Type.String()),
      workId: Nullable(Type.String()),
      splits: Type.Array(Split),
      supersedes: Nullable(Type.String()),
      supersededBy: Nullable(Type.String()),
      status: Type.Union([Type.Literal('active'), Type.Literal('superseded')]),
      createdAt: Timestamp,
      createdBy: Type.String(),
    },
    { description: 'A work, recording or release with its splits' },
  ),
)
export type CatalogEntry = Static<typeof CatalogEntrySchema>

export const CatalogList = ListEnvelope(CatalogEntrySchema, 'Catalog entries, newest first')

export const CatalogQuery = ListQuery({
  kind: Type.Optional(CatalogKind),
  isrc: Type.Optional(Type.String({ maxLength: 20, description: 'Entries with this ISRC (any form; normalised)' })),
  creatorId: Type.Optional(Type.String({ maxLength: 64, description: 'Entries with a split to this creator' })),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Case-insensitive text in the title, version title or display artist',
    }),
  ),
})
export type CatalogQuery = Static<typeof CatalogQuery>
