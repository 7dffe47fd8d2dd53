import { queryOptions } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../../api/client'
import type { CatalogSearch } from '../../app/routes'

export type CatalogEntry = Schemas['CatalogEntry']
export type CreateCatalogEntry = Schemas['CreateCatalogEntryRequest']
export type Split = Schemas['Split']

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

export const KIND_LABELS: Record<CatalogEntry['kind'], string> = {
  work: 'Work',
  recording: 'Recording',
  release: 'Release',
}
