import { queryOptions } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../../api/client'
import { useWrite } from '../../app/write'

export type CatalogEntry = Schemas['CatalogEntry']
export type CreateCatalogEntry = Schemas['CreateCatalogEntryRequest']
export type Split = Schemas['Split']

export const CATALOG_KINDS = ['work', 'recording', 'release'] as const
export type CatalogKind = (typeof CATALOG_KINDS)[number]

/** Rows per catalog page the app offers (the API's default, and up to its maximum). */
export const CATALOG_PAGE_SIZES = [25, 50, 100] as const
export type CatalogPageSize = (typeof CATALOG_PAGE_SIZES)[number]

/** The catalog list's search parameters: its filters, page size and cursor. */
export interface CatalogSearch {
  kind?: CatalogKind | undefined
  isrc?: string | undefined
  creatorId?: string | undefined
  q?: string | undefined
  limit?: CatalogPageSize | undefined
  cursor?: string | undefined
}

export const catalogKeys = {
  all: ['catalog'] as const,
  list: (search: CatalogSearch) => ['catalog', 'list', search] as const,
  one: (id: string) => ['catalog', 'one', id] as const,
}

export const catalogListQuery = (search: CatalogSearch) =>
  queryOptions({
    queryKey: catalogKeys.list(search),
    queryFn: () => {
      const query = Object.fromEntries(Object.entries(search).filter(([, value]) => value !== undefined))
      return unwrap(api.GET('/api/catalog', { params: { query: { limit: 25, ...query } } }))
    },
  })

export const catalogEntryQuery = (id: string) =>
  queryOptions({
    queryKey: catalogKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/catalog/{id}', { params: { path: { id } } })),
  })

/** Creates a catalog entry; a correction is one too (with `supersedes`). */
export function useCreateCatalogEntry() {
  return useWrite({
    request: (body: CreateCatalogEntry, headers) => unwrap(api.POST('/api/catalog', { body, headers })),
    invalidates: [catalogKeys.all],
  })
}

export const KIND_LABELS: Record<CatalogEntry['kind'], string> = {
  work: 'Work',
  recording: 'Recording',
  release: 'Release',
}
