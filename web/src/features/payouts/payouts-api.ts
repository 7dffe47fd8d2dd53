import { queryOptions } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../../api/client'
import { useWrite } from '../../app/write'

export type Payout = Schemas['Payout']
export type Balance = Schemas['PayoutBalance']
export type FailPayout = Schemas['MarkPayoutFailedRequest']
export type PayoutLine = Schemas['PayoutLine']

export const PAYOUT_STATUSES = ['pending', 'in_transit', 'paid', 'failed', 'canceled'] as const
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number]

/** The payouts list's search parameters. */
export interface PayoutSearch {
  status?: PayoutStatus | undefined
  cursor?: string | undefined
}

export const payoutKeys = {
  all: ['payouts'] as const,
  list: (search: PayoutSearch) => ['payouts', 'list', search] as const,
  balances: (cursor: string | undefined) => ['payouts', 'balances', { cursor }] as const,
  one: (id: string) => ['payouts', 'one', id] as const,
  lines: (id: string, cursor: string | undefined) => ['payouts', 'lines', id, { cursor }] as const,
}

/**
 * A sandbox payout moves by itself (the sandbox rail: pending, in transit, paid, about every
 * 2 s) until it is final: pages showing one ask again meanwhile. A manual payout moves only when
 * someone acts, and a write refused because it moved meanwhile refetches it (`useWrite`).
 */
const FINAL: readonly PayoutStatus[] = ['paid', 'failed', 'canceled']
export const movesByItself = (payout: Payout) => payout.method === 'sandbox' && !FINAL.includes(payout.status)
const POLL_MS = 2000

const defined = (search: object) =>
  Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined))

export const payoutListQuery = (search: PayoutSearch) =>
  queryOptions({
    queryKey: payoutKeys.list(search),
    queryFn: () => unwrap(api.GET('/api/payouts', { params: { query: { limit: 25, ...defined(search) } } })),
    refetchInterval: (query) => (query.state.data?.data.some(movesByItself) ? POLL_MS : false),
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
    refetchInterval: (query) => (query.state.data && movesByItself(query.state.data) ? POLL_MS : false),
  })

/** A page of a statement's allocations (a statement may hold thousands: the page keeps its own cursor). */
export const payoutLinesQuery = (id: string, cursor: string | undefined) =>
  queryOptions({
    queryKey: payoutKeys.lines(id, cursor),
    queryFn: () =>
      unwrap(
        api.GET('/api/payouts/{id}/lines', {
          params: { path: { id }, query: { limit: 50, ...(cursor ? { cursor } : {}) } },
        }),
      ),
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
  return useWrite({
    request: (body: Schemas['CreatePayoutRequest'], headers) => unwrap(api.POST('/api/payouts', { body, headers })),
    invalidates: [payoutKeys.all],
  })
}

export type PayoutStep = 'cancel' | 'mark-in-transit' | 'mark-paid'

/** Cancel, mark in transit or mark paid: the payout, its lists and the balances are refetched. */
export function usePayoutStep(id: string, step: PayoutStep) {
  return useWrite({
    request: (_: void, headers) => {
      const options = { params: { path: { id } }, headers }
      if (step === 'cancel') return unwrap(api.POST('/api/payouts/{id}/cancel', options))
      if (step === 'mark-in-transit') return unwrap(api.POST('/api/payouts/{id}/mark-in-transit', options))
      return unwrap(api.POST('/api/payouts/{id}/mark-paid', options))
    },
    sameAs: () => ({ id, step }),
    invalidates: [payoutKeys.all],
  })
}

/** Mark failed, with the reason the API asks for. */
export function useFailPayout(id: string) {
  return useWrite({
    request: (body: FailPayout, headers) =>
      unwrap(api.POST('/api/payouts/{id}/mark-failed', { body, params: { path: { id } }, headers })),
    sameAs: (body) => ({ id, body }),
    invalidates: [payoutKeys.all],
  })
}
