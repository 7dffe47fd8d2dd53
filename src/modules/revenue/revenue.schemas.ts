import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { idPattern } from '../../platform/ids.js'
import { ListEnvelope, ListQuery } from '../../platform/pagination.js'
import { Timestamp } from '../../platform/timestamp.js'
import { CurrencyCode, DecimalString } from '../../shared/money/money.schemas.js'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])
const RefId = Type.String({ minLength: 1, maxLength: 64 })
const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD' })

export const RevenueTypeSchema = component(
  'RevenueType',
  Type.Union([
    Type.Literal('stream'),
    Type.Literal('download'),
    Type.Literal('physical'),
    Type.Literal('sync'),
    Type.Literal('performance'),
    Type.Literal('mechanical'),
    Type.Literal('ticket_sale'),
    Type.Literal('other'),
  ]),
)

export const CreateRevenueBody = component(
  'CreateRevenueEntryRequest',
  Type.Object(
    {
      catalogId: Type.Optional(RefId),
      isrc: Type.Optional(
        Type.String({ maxLength: 20, description: 'Instead of catalogId: the active recording with this ISRC' }),
      ),
      iswc: Type.Optional(
        Type.String({ maxLength: 20, description: 'Instead of catalogId: the active work with this ISWC' }),
      ),
      upc: Type.Optional(
        Type.String({ maxLength: 20, description: 'Instead of catalogId: the active release with this UPC/EAN' }),
      ),
      eventId: Type.Optional(
        Type.String({ minLength: 1, maxLength: 64, description: 'Ticket sales only: the ticketed event' }),
      ),
      source: Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Where the money comes from, e.g. the DSP',
        example: 'Spotify',
      }),
      type: RevenueTypeSchema,
      periodStart: DateOnly,
      periodEnd: DateOnly,
      territory: Type.String({ pattern: '^([A-Z]{2}|WORLD)$', description: 'ISO 3166-1 alpha-2, or WORLD' }),
      units: Type.Integer({
        minimum: -1_000_000_000_000,
        maximum: 1_000_000_000_000,
        description: 'Streams, copies or tickets; negative for returns',
      }),
      amount: DecimalString('Up to 6 decimal places, not zero; negative for returns and corrections', '0.004217'),
      currency: CurrencyCode,
      statementRef: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'The statement this line comes from' }),
      ),
      lineRef: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'The line within the statement; with statementRef unique per source (a re-sent line is 409)',
        }),
      ),
      reverses: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'The entry this one reverses: every field mirrored, units and amount negated; once',
        }),
      ),
    },
    { additionalProperties: false },
  ),
)
export type CreateRevenueBody = Static<typeof CreateRevenueBody>

export const AllocationSchema = component(
  'Allocation',
  Type.Object({
    creatorId: Type.String(),
    amount: Type.String({ description: 'Exact to 6 places; allocations sum exactly to the amount' }),
  }),
)

export const RevenueSchema = component(
  'RevenueEntry',
  Type.Object(
    {
      id: Type.String({ pattern: idPattern('rev') }),
      catalogId: Type.String(),
      eventId: Nullable(Type.String()),
      source: Type.String(),
      type: RevenueTypeSchema,
      periodStart: DateOnly,
      periodEnd: DateOnly,
      territory: Type.String(),
      units: Type.Integer(),
      amount: Type.String(),
      currency: Type.String(),
      statementRef: Nullable(Type.String()),
      lineRef: Nullable(Type.String()),
      reverses: Nullable(Type.String()),
      batchId: Nullable(
        Type.String({
          pattern: idPattern('bat'),
          description:
            'The statement import batch the line was written in (its revenue.imported event); null for a line created alone',
        }),
      ),
      allocations: Type.Array(AllocationSchema),
      createdAt: Timestamp,
      createdBy: Type.String(),
    },
    { description: 'An immutable revenue entry with its allocation to creators' },
  ),
)
export type Revenue = Static<typeof RevenueSchema>

export const RevenueList = ListEnvelope(RevenueSchema, 'Revenue entries, newest first')

export const RevenueQuery = ListQuery({
  catalogId: Type.Optional(Type.String({ maxLength: 64 })),
  creatorId: Type.Optional(Type.String({ maxLength: 64, description: 'Entries allocated (in part) to this creator' })),
  periodFrom: Type.Optional(
    Type.String({ format: 'date', description: 'Entries whose period ends on or after this date' }),
  ),
  periodTo: Type.Optional(
    Type.String({ format: 'date', description: 'Entries whose period starts on or before this date' }),
  ),
  currency: Type.Optional(CurrencyCode),
  batchId: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'The lines of one import batch (the batchId of its revenue.imported event)',
    }),
  ),
})
export type RevenueQuery = Static<typeof RevenueQuery>

export const RevenueProofParams = Type.Object({ revenueId: Type.String({ minLength: 1, maxLength: 64 }) })

export const RevenueProofSchema = component(
  'RevenueInclusionProof',
  Type.Object(
    {
      revenueId: Type.String({ pattern: idPattern('rev') }),
      batchId: Type.String({ pattern: idPattern('bat') }),
      eventId: Type.String({ pattern: idPattern('evt'), description: 'The batch’s revenue.imported event' }),
      leafIndex: Type.Integer({
        minimum: 0,
        description: 'The line’s place among the batch’s lines, in id order (0-based)',
      }),
      treeSize: Type.Integer({ minimum: 1, description: 'The batch’s line count' }),
      root: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'The batch event’s data.root (hex)' }),
      auditPath: Type.Array(Type.String({ pattern: '^[0-9a-f]{64}$' }), {
        description: 'RFC 9162 inclusion proof: sibling hashes from the leaf up (hex)',
      }),
      leaf: Type.String({
        description:
          'The exact text hashed as the leaf: SHA-256(0x00 || UTF-8 bytes of this text), the line’s canonical JSON',
      }),
    },
    { description: 'An imported revenue line’s RFC 6962 inclusion proof in its batch event’s root' },
  ),
)
export type RevenueProof = Static<typeof RevenueProofSchema>

export const ImportQuery = Type.Object(
  {
    source: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Where the money comes from (e.g. Spotify); required unless the statement has a source column. Part of each line’s identity, so a re-run skips what is recorded',
      }),
    ),
  },
  { additionalProperties: false },
)
export type ImportQuery = Static<typeof ImportQuery>

export const ImportReportSchema = component(
  'RevenueImportReport',
  Type.Object(
    {
      source: Nullable(
        Type.String({ description: 'The source named by the request; null when the statement names its own' }),
      ),
      lines: Type.Integer({ description: 'Lines read (the header and empty lines not counted)' }),
      imported: Type.Integer(),
      skipped: Type.Integer({ description: 'Lines recorded already (a run before, or earlier in the statement)' }),
      rejected: Type.Integer(),
      bytes: Type.Integer({ description: 'Bytes of the statement read' }),
      rejections: Type.Array(Type.Object({ line: Type.Integer(), reason: Type.String() }), {
        description: 'The first 100 rejected lines by line number (the header is line 1); all are counted in rejected',
      }),
      skippedLines: Type.Array(
        Type.Object({ line: Type.Integer(), statementRef: Type.String(), lineRef: Type.String() }),
        { description: 'The first 100 skipped lines by line number; all are counted in skipped' },
      ),
      batches: Type.Array(
        Type.Object({
          batchId: Type.String({ pattern: idPattern('bat') }),
          lineCount: Type.Integer(),
        }),
        { description: 'Each batch written, with its revenue.imported event (filter GET /api/revenue by batchId)' },
      ),
    },
    { description: 'What a statement import did' },
  ),
)

export const StatementCsvSchema = component(
  'RevenueStatementCsv',
  Type.String({
    description:
      'A DSP statement as CSV: a header line naming the columns isrc, territory, period_start, period_end, units, amount, currency, statement_ref and line_ref (type and source optional, in any order), then one revenue line per line',
  }),
)
