import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { PageHeader } from '../../ui'
import { EventForm } from './event-form'
import { useCreateEvent } from './events-api'

function NewEventPage() {
  const navigate = useNavigate()
  const create = useCreateEvent()
  return (
    <>
      <PageHeader title="New ticketed event">
        <p>It is created as a draft: publish it from its page when it is ready to sell.</p>
      </PageHeader>
      <EventForm
        busy={create.isPending}
        error={create.error}
        onSubmit={(body) =>
          create.mutate(body, { onSuccess: (event) => void navigate({ to: '/events/$id', params: { id: event.id } }) })
        }
      />
    </>
  )
}

export const route = createLazyRoute('/app/events/new')({ component: NewEventPage })
