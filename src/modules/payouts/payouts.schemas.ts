import { Type, type Static } from 'typebox'
import { component } from '../../platform/openapi-components.js'
import { idPattern } from '../../platform/ids.js'
import { ListEnvelope, ListQuery } from '../../platform/pagination.js'
import { Timestamp } from '../../platform/timestamp.js'
import { CurrencyCode } from '../../shared/money/money.schemas.js'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

export const PayoutStatusSchema = component(
  'PayoutStatus',
  Type.Union([
    Type.Literal('pending'),
    Type.Literal('in_transit'),
    Type.Literal('paid'),
    Type.Literal('failed'),
    Type.Literal('canceled'),
  ]),
)

export const CreatePayoutBody = component(
  'CreatePayoutRequest',
  Type.Object(
    {
      creatorId: Type.String({ minLength: 1, maxLength: 64 }),
      currency: Type.Optional(CurrencyCode),
      through: Type.Optional(
        Type.String({
          format: 'date',
          description: 'Include revenue whose period ends on or before this date (default: all)',
        }),
      ),
    },
    { additionalProperties: false },
  ),
)
export type CreatePayoutBody = Static<typeof CreatePayoutBody>

export const FailPayoutBody = component(
  'MarkPayoutFailedRequest',
  Type.Object(
    {
      failureCode: Type.Optional(
        Type.String({
          pattern: '^[a-z][a-z0-9_]{0,49}$',
          description: 'Machine-readable reason, default "manual"',
          example: 'account_closed',
        }),
      ),
      failureMessage: Type.String({ minLength: 1, maxLength: 500 }),
    },
    { additionalProperties: false },
  ),
)
export type FailPayoutBody = Static<typeof FailPayoutBody>

export const StatementSchema = component(
  'PayoutStatement',
  Type.Object(
    {
      openingBalance: Type.String({
        description:
          'Balance carried into this statement: the creator’s opening balance for the first, then what earlier statements carried forward',
      }),
      earnings: Type.String({ description: 'Sum of the allocations included, before recoupment' }),
      recouped: Type.String({
        description: 'Advance recouped from these earnings: min(earnings, max(0, -openingBalance)), never negative',
      }),
      carriedForward: Type.String({
        description: 'Remainder below the minor unit (or an unrecouped balance) carried to the next statement',
      }),
      entries: Type.Integer({ description: 'Number of allocations included' }),
      periodStart: Nullable(Type.String({ format: 'date' })),
      periodEnd: Nullable(Type.String({ format: 'date' })),
    },
    { description: 'Always amount + carriedForward = openingBalance + earnings' },
  ),
)

export const PayoutSchema = component(
  'Payout',
  Type.Object(
    {
      id: Type.String({ pattern: idPattern('po') }),
      creatorId: Type.String(),
      amount: Type.String({ description: 'In the currency’s minor unit' }),
      currency: Type.String(),
      status: PayoutStatusSchema,
      statement: StatementSchema,
      method: Type.Union([Type.Literal('manual'), Type.Literal('sandbox')]),
      failureCode: Nullable(Type.String()),
      failureMessage: Nullable(Type.String()),
      createdAt: Timestamp,
      paidAt: Nullable(Timestamp),
      batchId: Nullable(
        Type.String({
          pattern: idPattern('bat'),
          description:
            'The payout run batch it was written in (its payouts.run event); null for a payout created alone',
        }),
      ),
    },
    { description: 'A payout to a creator, computed from their unpaid allocations' },
  ),
)
export type Payout = Static<typeof PayoutSchema>

export const PayoutList = ListEnvelope(PayoutSchema, 'Payouts, newest first')

export const PayoutQuery = ListQuery({
  status: Type.Optional(PayoutStatusSchema),
  batchId: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'The payouts of one payout run batch (the batchId of its payouts.run event)',
    }),
  ),
})
export type PayoutQuery = Static<typeof PayoutQuery>

export const BalanceSchema = component(
  'PayoutBalance',
  Type.Object(
    {
      creatorId: Type.String(),
      currency: Type.String(),
      openingBalance: Type.String({
        description:
          'Carried into the next statement: the creator’s opening balance (in their payout currency) plus what their live payouts carried forward',
      }),
      earnings: Type.String({ description: 'Sum of the allocations no live payout holds (all periods)' }),
      entries: Type.Integer({ description: 'Number of those allocations' }),
      balance: Type.String({ description: 'openingBalance + earnings, exact to 6 places' }),
      payable: Type.String({
        description: 'The balance rounded down to the currency’s minor unit, or zero when that is not positive',
      }),
      minimumPayout: Nullable(
        Type.String({ description: 'The creator’s minimum payout when this is their payout currency' }),
      ),
      payableNow: Type.Boolean({
        description:
          'A payout created now (POST with this creator and currency) would pay `payable`: it is above zero and at least the minimum',
      }),
    },
    { description: 'What a creator would be paid in one currency if a payout were created now' },
  ),
)
export type Balance = Static<typeof BalanceSchema>

export const BalanceList = ListEnvelope(BalanceSchema, 'Balances per creator (in id order) and currency')

export const BalanceQuery = ListQuery({
  creatorId: Type.Optional(Type.String({ maxLength: 64, description: 'The balances of one creator' })),
})
export type BalanceQuery = Static<typeof BalanceQuery>

export const PayoutLineSchema = component(
  'PayoutLine',
  Type.Object(
    {
      revenueId: Type.String({ pattern: idPattern('rev') }),
      amount: Type.String({ description: 'The creator’s allocation of the revenue entry, exact to 6 places' }),
      catalogId: Type.String(),
      source: Type.String(),
      type: Type.String(),
      territory: Type.String(),
      periodStart: Type.String({ format: 'date' }),
      periodEnd: Type.String({ format: 'date' }),
    },
    { description: 'One allocation a payout’s statement includes (its earnings are their sum)' },
  ),
)
export type PayoutLine = Static<typeof PayoutLineSchema>

export const PayoutLineList = ListEnvelope(PayoutLineSchema, 'The statement’s allocations, in revenue id order')

export const PayoutLineQuery = ListQuery({})
export type PayoutLineQuery = Static<typeof PayoutLineQuery>
