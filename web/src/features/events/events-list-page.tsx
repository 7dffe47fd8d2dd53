import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { useSession } from '../../app/session'
import { Button, DateTime, EmptyState, ListView, PageHeader, useListQuery } from '../../ui'
import { EventLifecycle, EventStatus } from './event-badges'
import { eventListQuery, type TicketedEvent } from './events-api'

const routeApi = getRouteApi('/app/events')

/** The org's ticketed events, newest first. The API has no filters for them: only the cursor is in the URL. */
function EventsListPage() {
  const { cursor } = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { can } = useSession()
  const list = useListQuery(eventListQuery(cursor))
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
      <ListView<TicketedEvent>
        list={list}
        loading="Loading events…"
        cursor={cursor}
        onCursor={(next) => void navigate({ search: { cursor: next } })}
        empty={
          <EmptyState title="No events yet">
            {can('ticketing:write') ? (
              <p>Create a concert or show with its venue, ticket types and performers; publish it when it is ready.</p>
            ) : (
              <p>This org has no ticketed events.</p>
            )}
          </EmptyState>
        }
        caption="Ticketed events, newest first"
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
          {
            header: 'Starts (venue time)',
            cell: (event) => <DateTime value={event.startsAt} timeZone={event.timezone} />,
          },
          {
            header: 'Venue',
            cell: (event) => [event.venue.name, event.venue.city, event.venue.country].filter(Boolean).join(', '),
          },
          { header: 'Status', cell: (event) => <EventStatus status={event.status} /> },
          { header: 'When', cell: (event) => <EventLifecycle lifecycle={event.lifecycle} /> },
          { header: 'Capacity', numeric: true, cell: (event) => event.capacity },
        ]}
      />
    </>
  )
}

export const route = createLazyRoute('/app/events')({ component: EventsListPage })
