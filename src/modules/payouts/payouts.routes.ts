import type { FastifyInstance } from 'fastify'
import { idempotent } from '../../platform/idempotent-route.js'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { TObject } from 'typebox'
import { responses } from '../../platform/routes.js'
import { idParams, mountTags, orgParams, type RouteMount } from '../../shared/records/records.mount.js'
import {
  BalanceList,
  BalanceQuery,
  CreatePayoutBody,
  FailPayoutBody,
  PayoutLineList,
  PayoutLineQuery,
  PayoutList,
  PayoutQuery,
  PayoutSchema,
} from './payouts.schemas.js'
import type { PayoutsService } from './payouts.service.js'

export function registerPayoutRoutes(app: FastifyInstance, payouts: PayoutsService, mount: RouteMount): void {
  const on: PayoutMount = {
    mount,
    tags: mountTags(mount, 'payouts'),
    params: orgParams(mount),
    common: { auth: mount.auth, module: 'payouts' },
  }
  registerCollectionRoutes(app, payouts, on)
  registerPayoutReadRoutes(app, payouts, on)
  registerStatusRoutes(app, payouts, on)
}

/** What the payout routes of one mount share: its tags, its org parameter, its auth. */
interface PayoutMount {
  mount: RouteMount
  tags: string[]
  params: TObject | undefined
  common: { readonly auth: RouteMount['auth']; readonly module: 'payouts' }
}

/** The payouts of the org: the list, a new payout, the balances a new one would pay. */
function registerCollectionRoutes(app: FastifyInstance, payouts: PayoutsService, on: PayoutMount): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { mount, tags, params, common } = on

  api.get(
    mount.prefix,
    {
      schema: {
        tags,
        operationId: 'listPayouts',
        summary: 'List payouts, newest first',
        ...(params ? { params } : {}),
        querystring: PayoutQuery,
        response: responses({ 200: PayoutList }),
      },
      config: { ...common, access: 'payouts:read' },
    },
    (request) => payouts.list(request.ctx, request.query),
  )

  api.post(
    mount.prefix,
    {
      schema: {
        tags,
        operationId: 'createPayout',
        summary:
          'Pay a creator everything unpaid in one currency, rounded down to its minor unit (emits payout.created)',
        ...(params ? { params } : {}),
        body: CreatePayoutBody,
        response: responses({ 201: PayoutSchema }, [409, 422]),
      },
      config: { ...common, access: 'payouts:write', idempotent: true, successStatus: 201 },
    },
    idempotent(async (request, reply, answer) =>
      reply.code(201).send(await payouts.create(request.ctx, request.body, answer)),
    ),
  )

  api.get(
    `${mount.prefix}/balances`,
    {
      schema: {
        tags,
        operationId: 'listPayoutBalances',
        summary: 'What a payout created now would pay, per creator and currency (a page of creators)',
        ...(params ? { params } : {}),
        querystring: BalanceQuery,
        response: responses({ 200: BalanceList }),
      },
      config: { ...common, access: 'payouts:read' },
    },
    (request) => payouts.balances(request.ctx, request.query),
  )
}

/** One payout, and the allocations its statement includes. */
function registerPayoutReadRoutes(app: FastifyInstance, payouts: PayoutsService, on: PayoutMount): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { mount, tags, common } = on

  api.get(
    `${mount.prefix}/:id`,
    {
      schema: {
        tags,
        operationId: 'getPayout',
        summary: 'Fetch one payout with its statement',
        params: idParams(mount),
        response: responses({ 200: PayoutSchema }),
      },
      config: { ...common, access: 'payouts:read' },
    },
    (request) => payouts.get(request.ctx, request.params.id),
  )

  api.get(
    `${mount.prefix}/:id/lines`,
    {
      schema: {
        tags,
        operationId: 'listPayoutLines',
        summary: 'The allocations a payout’s statement includes, in revenue id order',
        params: idParams(mount),
        querystring: PayoutLineQuery,
        response: responses({ 200: PayoutLineList }),
      },
      config: { ...common, access: 'payouts:read' },
    },
    (request) => payouts.lines(request.ctx, request.params.id, request.query),
  )
}

/** A payout's status changes: cancel, and the manual rail's steps. */
function registerStatusRoutes(app: FastifyInstance, payouts: PayoutsService, on: PayoutMount): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>()
  const { mount, tags, common } = on
  const action = { ...common, access: 'payouts:write', idempotent: true, successStatus: 200 } as const
  const actionSchema = (operationId: string, summary: string) => ({
    operationId,
    tags,
    summary,
    params: idParams(mount),
    response: responses({ 200: PayoutSchema }, [409, 422]),
  })

  api.post(
    `${mount.prefix}/:id/cancel`,
    {
      schema: actionSchema(
        'cancelPayout',
        'Cancel a pending payout; its allocations become payable again (emits payout.canceled)',
      ),
      config: action,
    },
    idempotent((request, _reply, answer) => payouts.cancel(request.ctx, request.params.id, answer)),
  )

  api.post(
    `${mount.prefix}/:id/mark-in-transit`,
    {
      schema: actionSchema('markPayoutInTransit', 'Manual payouts: the money has been sent (emits payout.in_transit)'),
      config: action,
    },
    idempotent((request, _reply, answer) => payouts.markInTransit(request.ctx, request.params.id, answer)),
  )

  api.post(
    `${mount.prefix}/:id/mark-paid`,
    {
      schema: actionSchema('markPayoutPaid', 'Manual payouts: the money has arrived (emits payout.paid)'),
      config: action,
    },
    idempotent((request, _reply, answer) => payouts.markPaid(request.ctx, request.params.id, answer)),
  )

  api.post(
    `${mount.prefix}/:id/mark-failed`,
    {
      schema: {
        ...actionSchema(
          'markPayoutFailed',
          'A pending or in-transit payout failed; its allocations become payable again (emits payout.failed)',
        ),
        body: FailPayoutBody,
      },
      config: action,
    },
    idempotent((request, _reply, answer) => payouts.markFailed(request.ctx, request.params.id, request.body, answer)),
  )
}
