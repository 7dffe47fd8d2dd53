import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '../../api/client'
import { useWrite } from '../../app/write'

export type TicketedEvent = Schemas['TicketedEvent']
export type CreateTicketedEvent = Schemas['CreateTicketedEventRequest']
export type TicketType = TicketedEvent['ticketTypes'][number]

export const eventKeys = {
  all: ['events'] as const,
  list: (cursor: string | undefined) => ['events', 'list', { cursor }] as const,
  one: (id: string) => ['events', 'one', id] as const,
}

export const eventListQuery = (cursor: string | undefined) =>
  queryOptions({
    queryKey: eventKeys.list(cursor),
    queryFn: () => unwrap(api.GET('/api/events', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } } })),
  })

export const eventQuery = (id: string) =>
  queryOptions({
    queryKey: eventKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/events/{id}', { params: { path: { id } } })),
  })

export const STATUS_LABELS: Record<TicketedEvent['status'], string> = {
  draft: 'Draft',
  published: 'Published',
  cancelled: 'Cancelled',
}

export const LIFECYCLE_LABELS: Record<TicketedEvent['lifecycle'], string> = {
  upcoming: 'Upcoming',
  ongoing: 'Ongoing',
  ended: 'Ended',
}

/** What the API would allow now: publish a draft; cancel a draft or published event that has not ended. */
export const canPublish = (event: TicketedEvent) => event.status === 'draft'
export const canCancel = (event: TicketedEvent) => event.status !== 'cancelled' && event.lifecycle !== 'ended'

/** Creates an event, as a draft (the new-event form). */
export function useCreateEvent() {
  const queryClient = useQueryClient()
  return useWrite({
    request: (body: CreateTicketedEvent, headers) => unwrap(api.POST('/api/events', { body, headers })),
    invalidates: [eventKeys.all],
    onSuccess: (event) => queryClient.setQueryData(eventKeys.one(event.id), event),
  })
}

/** Publish or cancel: the answer is the updated event, shown at once; lists are refetched. */
export function useEventAction(id: string, action: 'publish' | 'cancel') {
  const queryClient = useQueryClient()
  return useWrite({
    request: (_: void, headers) => {
      const options = { params: { path: { id } }, headers }
      return unwrap(
        action === 'publish'
          ? api.POST('/api/events/{id}/publish', options)
          : api.POST('/api/events/{id}/cancel', options),
      )
    },
    sameAs: () => ({ id, action }),
    invalidates: [eventKeys.all],
    onSuccess: (event) => queryClient.setQueryData(eventKeys.one(id), event),
  })
}

/** The org's first 100 works (catalog entries of kind work), to choose the ones an event performs. */
export function useWorkChoices() {
  return useQuery({
    queryKey: ['catalog', 'works'],
    queryFn: () => unwrap(api.GET('/api/catalog', { params: { query: { kind: 'work', limit: 100 } } })),
    select: (page) => page.data,
    staleTime: 30_000,
  })
}
