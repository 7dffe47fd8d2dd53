import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { api, unwrap } from '../../api/client'
import { useIdempotencyKey } from '../../app/idempotency'
import { PageHeader } from '../../ui'
import { EventForm } from './event-form'
import { eventKeys, type CreateTicketedEvent } from './events-api'

function NewEventPage() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const keyFor = useIdempotencyKey()
  const create = useMutation({
    mutationFn: (body: CreateTicketedEvent) =>
      unwrap(api.POST('/api/events', { body, params: { header: { 'Idempotency-Key': keyFor(body) } } })),
    onSuccess: async (event) => {
      await queryClient.invalidateQueries({ queryKey: eventKeys.all })
      queryClient.setQueryData(eventKeys.one(event.id), event)
      await navigate({ to: '/events/$id', params: { id: event.id } })
    },
  })
  return (
    <>
      <PageHeader title="New ticketed event">
        <p>It is created as a draft: publish it from its page when it is ready to sell.</p>
      </PageHeader>
      <EventForm busy={create.isPending} error={create.error} onSubmit={(body) => create.mutate(body)} />
    </>
  )
}

export const route = createLazyRoute('/app/events/new')({ component: NewEventPage })
