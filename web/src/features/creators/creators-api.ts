import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../../api/client'
import { useWrite } from '../../app/write'

export type Creator = Schemas['Creator']
export type CreatorRole = Schemas['CreatorRole']
export type CreateCreator = Schemas['CreateCreatorRequest']

export const CREATOR_ROLES: readonly CreatorRole[] = [
  'artist',
  'featured_artist',
  'composer',
  'lyricist',
  'producer',
  'arranger',
  'publisher',
  'label',
]

export const roleLabel = (role: string) => role.replace('_', ' ')

export const creatorKeys = {
  all: ['creators'] as const,
  list: (cursor: string | undefined) => ['creators', 'list', { cursor }] as const,
  one: (id: string) => ['creators', 'one', id] as const,
}

export const creatorListQuery = (cursor: string | undefined) =>
  queryOptions({
    queryKey: creatorKeys.list(cursor),
    queryFn: () =>
      unwrap(api.GET('/api/creators', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } })),
  })

export const creatorQuery = (id: string) =>
  queryOptions({
    queryKey: creatorKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/creators/{id}', { params: { path: { id } } })),
  })

/** The org's first 100 creators, to choose from in a form or a filter. */
export function useCreatorChoices() {
  return useQuery({
    queryKey: ['creators', 'choices'],
    queryFn: () => unwrap(api.GET('/api/creators', { params: { query: { limit: 100 } } })),
    select: (page) => page.data,
    staleTime: 30_000,
  })
}

/** A creator's name by id, or the id itself while unknown. */
export function useCreatorName(): (id: string) => string {
  const choices = useCreatorChoices()
  return (id) => choices.data?.find((creator) => creator.id === id)?.name ?? id
}

/** Creates a creator (the new-creator form). */
export function useCreateCreator() {
  return useWrite({
    request: (body: CreateCreator, headers) => unwrap(api.POST('/api/creators', { body, headers })),
    invalidates: [creatorKeys.all],
  })
}
