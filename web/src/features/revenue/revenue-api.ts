import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../../api/client'
import { useWrite } from '../../app/write'

export type RevenueEntry = Schemas['RevenueEntry']
export type CreateRevenueEntry = Schemas['CreateRevenueEntryRequest']
export type RevenueType = Schemas['RevenueType']

/** The revenue list's search parameters: its filters (`batchId`: an import's lines) and cursor. */
export interface RevenueSearch {
  catalogId?: string | undefined
  creatorId?: string | undefined
  periodFrom?: string | undefined
  periodTo?: string | undefined
  currency?: string | undefined
  batchId?: string | undefined
  cursor?: string | undefined
}

export const REVENUE_TYPES: Record<RevenueType, string> = {
  stream: 'Stream',
  download: 'Download',
  physical: 'Physical',
  sync: 'Sync',
  performance: 'Performance',
  mechanical: 'Mechanical',
  ticket_sale: 'Ticket sale',
  other: 'Other',
}

export const revenueKeys = {
  all: ['revenue'] as const,
  list: (search: RevenueSearch) => ['revenue', 'list', search] as const,
}

export const revenueListQuery = (search: RevenueSearch) =>
  queryOptions({
    queryKey: revenueKeys.list(search),
    queryFn: () => {
      const query = Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined))
      return unwrap(api.GET('/api/revenue', { params: { query: { limit: 25, ...query } } }))
    },
  })

/** Records a revenue entry: it is allocated to creators at once, so balances and payouts change too. */
export function useRecordRevenue() {
  return useWrite({
    request: (body: CreateRevenueEntry, headers) => unwrap(api.POST('/api/revenue', { body, headers })),
    invalidates: [revenueKeys.all, ['payouts']],
  })
}

/** The org's first 100 catalog entries, to choose the one revenue is recorded against. */
export function useCatalogChoices() {
  return useQuery({
    queryKey: ['catalog', 'choices'],
    queryFn: () => unwrap(api.GET('/api/catalog', { params: { query: { limit: 100 } } })),
    select: (page) => page.data,
    staleTime: 30_000,
  })
}
