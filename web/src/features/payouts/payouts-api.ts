import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../../api/client'
import { useIdempotencyKey } from '../../app/idempotency'
import type { PayoutSearch, PayoutStatus } from '../../app/routes'

export type Payout = Schemas['Payout']
export type Balance = Schemas['PayoutBalance']
export type FailPayout = Schemas['MarkPayoutFailedRequest']

export const payoutKeys = {
  all: ['payouts'] as const,
  list: (search: PayoutSearch) => ['payouts', 'list', search] as const,
  balances: (cursor: string | undefined) => ['payouts', 'balances', { cursor }] as const,
  one: (id: string) => ['payouts', 'one', id] as const,
}

const defined = (search: object) =>
  Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined))

export const payoutListQuery = (search: PayoutSearch) =>
  queryOptions({
    queryKey: payoutKeys.list(search),
    queryFn: () => unwrap(api.GET('/api/payouts', { params: { query: { limit: 25, ...defined(search) } } })),
  })

export const balancesQuery = (cursor: string | undefined) =>
  queryOptions({
    queryKey: payoutKeys.balances(cursor),
    queryFn: () =>
      unwrap(api.GET('/api/payouts/balances', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } })),
  })

export const payoutQuery = (id: string) =>
  queryOptions({
    queryKey: payoutKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/payouts/{id}', { params: { path: { id } } })),
  })

export const STATUS_LABELS: Record<PayoutStatus, string> = {
  pending: 'Pending',
  in_transit: 'In transit',
  paid: 'Paid',
  failed: 'Failed',
  canceled: 'Canceled',
}

/** The steps the API allows from a status (DESIGN 5.4); the sandbox rail moves its own payouts in transit and paid. */
export const canCancel = (payout: Payout) => payout.status === 'pending'
export const canMarkInTransit = (payout: Payout) => payout.status === 'pending' && payout.method === 'manual'
export const canMarkPaid = (payout: Payout) => payout.status === 'in_transit' && payout.method === 'manual'
export const canMarkFailed = (payout: Payout) => payout.status === 'pending' || payout.status === 'in_transit'

/** Create a payout for one creator and currency (from the balances page). */
export function useCreatePayout() {
  const queryClient = useQueryClient()
  const keyFor = useIdempotencyKey()
  return useMutation({
    mutationFn: (body: Schemas['CreatePayoutRequest']) =>
      unwrap(api.POST('/api/payouts', { body, params: { header: { 'Idempotency-Key': keyFor(body) } } })),
    onSuccess: async (payout) => {
      queryClient.setQueryData(payoutKeys.one(payout.id), payout)
      await queryClient.invalidateQueries({ queryKey: payoutKeys.all })
    },
  })
}

type Step = 'cancel' | 'mark-in-transit' | 'mark-paid'

/** Cancel, mark in transit or mark paid: the answer is the updated payout, shown at once; lists and balances are refetched. */
export function usePayoutStep(id: string, step: Step) {
  const queryClient = useQueryClient()
  const keyFor = useIdempotencyKey()
  return useMutation({
    mutationFn: () => {
      const params = { path: { id }, header: { 'Idempotency-Key': keyFor({ id, step }) } }
      if (step === 'cancel') return unwrap(api.POST('/api/payouts/{id}/cancel', { params }))
      if (step === 'mark-in-transit') return unwrap(api.POST('/api/payouts/{id}/mark-in-transit', { params }))
      return unwrap(api.POST('/api/payouts/{id}/mark-paid', { params }))
    },
    onSuccess: (payout) => refresh(queryClient, payout),
  })
}

/** Mark failed, with the reason the API asks for. */
export function useFailPayout(id: string) {
  const queryClient = useQueryClient()
  const keyFor = useIdempotencyKey()
  return useMutation({
    mutationFn: (body: FailPayout) =>
      unwrap(
        api.POST('/api/payouts/{id}/mark-failed', {
          body,
          params: { path: { id }, header: { 'Idempotency-Key': keyFor({ id, body }) } },
        }),
      ),
    onSuccess: (payout) => refresh(queryClient, payout),
  })
}

async function refresh(queryClient: ReturnType<typeof useQueryClient>, payout: Payout) {
  queryClient.setQueryData(payoutKeys.one(payout.id), payout)
  await queryClient.invalidateQueries({
    predicate: (query) => query.queryKey[0] === 'payouts' && query.queryKey[1] !== 'one',
  })
}
