import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router'
import { eventsRoute } from '../../app/routes'
import { useSession } from '../../app/session'
import { Button, EmptyState, ErrorState, Loading, PageHeader, Pagination, Table } from '../../ui'
import { EventLifecycle, EventStatus } from './event-badges'
import { venueTime } from './event-time'
import { eventListQuery, type TicketedEvent } from './events-api'

/** The org's ticketed events, newest first. The API has no filters for them: only the cursor is in the URL. */
function EventsListPage() {
  const { cursor } = eventsRoute.useSearch()
  const navigate = useNavigate({ from: '/events' })
  const { can } = useSession()
  const list = useQuery({ ...eventListQuery(cursor), placeholderData: keepPreviousData })
  return (
    <>
      <PageHeader
        title="Ticketed events"
        actions={
          can('ticketing:write') ? (
            <Button variant="primary" onClick={() => void navigate({ to: '/events/new' })}>
              New event
            </Button>
          ) : null
        }
      />
      {list.isPending ? (
        <Loading label="Loading events…" />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState title="No events yet">
          {can('ticketing:write') ? (
            <p>Create a concert or show with its venue, ticket types and performers; publish it when it is ready.</p>
          ) : (
            <p>This org has no ticketed events.</p>
          )}
        </EmptyState>
      ) : (
        <>
          <Table<TicketedEvent>
            caption="Ticketed events, newest first"
            rows={list.data.data}
            rowKey={(event) => event.id}
            columns={[
              {
                header: 'Name',
                cell: (event) => (
                  <Link to="/events/$id" params={{ id: event.id }}>
                    {event.name}
                  </Link>
                ),
              },
              { header: 'Starts (venue time)', cell: (event) => venueTime(event.startsAt, event.timezone) },
              {
                header: 'Venue',
                cell: (event) => [event.venue.name, event.venue.city, event.venue.country].filter(Boolean).join(', '),
              },
              { header: 'Status', cell: (event) => <EventStatus status={event.status} /> },
              { header: 'When', cell: (event) => <EventLifecycle lifecycle={event.lifecycle} /> },
              { header: 'Capacity', numeric: true, cell: (event) => event.capacity },
            ]}
          />
          <Pagination
            nextCursor={list.data.pagination.cursor}
            hasMore={list.data.pagination.hasMore}
            paged={cursor !== undefined}
            onNext={(next) => void navigate({ search: { cursor: next } })}
            onFirst={() => void navigate({ search: {} })}
          />
        </>
      )}
    </>
  )
}

export const route = createLazyRoute('/app/events')({ component: EventsListPage })
