import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { useState, type ReactNode } from 'react'
import { problemMessage } from '../../api/messages'
import { useSession } from '../../app/session'
import {
  Button,
  buttonClass,
  ConfirmDialog,
  DateTime,
  ErrorState,
  FormError,
  Loading,
  PageHeader,
  Table,
} from '../../ui'
import { useCreatorName } from '../creators/creators-api'
import { EventLifecycle, EventStatus } from './event-badges'
import {
  canCancel,
  canPublish,
  eventQuery,
  useEventAction,
  useWorkChoices,
  type TicketedEvent,
  type TicketType,
} from './events-api'

const routeApi = getRouteApi('/app/events/$id')

function EventDetailPage() {
  const { id } = routeApi.useParams()
  const event = useQuery(eventQuery(id))
  const publish = useEventAction(id, 'publish')
  const cancel = useEventAction(id, 'cancel')
  const [confirmCancel, setConfirmCancel] = useState(false)
  const creatorName = useCreatorName()
  const works = useWorkChoices()
  if (event.isPending) return <Loading label="Loading the event…" />
  if (event.error) return <ErrorState error={event.error} onRetry={() => void event.refetch()} />
  const data = event.data
  const workTitle = (workId: string) => works.data?.find((work) => work.id === workId)?.title ?? workId
  const actionError = publish.error ?? (confirmCancel ? null : cancel.error)
  return (
    <>
      <EventHeader event={data} publish={publish} onCancel={() => setConfirmCancel(true)} />
      <FormError message={problemMessage(actionError)} />
      <EventDetails event={data} />
      <h2>Ticket types</h2>
      <TicketTypesTable event={data} />
      <h2>Performers</h2>
      <LinkList
        ids={data.performerIds}
        link={(creatorId) => (
          <Link to="/creators/$id" params={{ id: creatorId }}>
            {creatorName(creatorId)}
          </Link>
        )}
      />
      <h2>Works performed</h2>
      <LinkList
        ids={data.catalogIds}
        link={(workId) => (
          <Link to="/catalog/$id" params={{ id: workId }}>
            {workTitle(workId)}
          </Link>
        )}
      />
      <ConfirmDialog
        open={confirmCancel}
        onOpenChange={setConfirmCancel}
        title="Cancel this event?"
        description={`“${data.name}” will be marked cancelled. This cannot be undone.`}
        confirm="Yes, cancel the event"
        variant="danger"
        busy={cancel.isPending}
        error={problemMessage(cancel.error)}
        onConfirm={() => cancel.mutate(undefined, { onSuccess: () => setConfirmCancel(false) })}
      />
    </>
  )
}

/** The name, status and lifecycle; publish, cancel and record ticket sales for those who may. */
function EventHeader({
  event,
  publish,
  onCancel,
}: {
  event: TicketedEvent
  publish: ReturnType<typeof useEventAction>
  onCancel: () => void
}) {
  const { can } = useSession()
  const writable = can('ticketing:write')
  return (
    <PageHeader
      title={event.name}
      actions={
        <>
          {writable && canPublish(event) ? (
            <Button variant="primary" busy={publish.isPending} onClick={() => publish.mutate()}>
              Publish
            </Button>
          ) : null}
          {writable && canCancel(event) ? (
            <Button variant="danger" onClick={onCancel}>
              Cancel event
            </Button>
          ) : null}
          {can('revenue:write') ? (
            // Ticket sales are recorded on the revenue form, naming their event.
            <Link to="/revenue/new" search={{ eventId: event.id }} className={buttonClass()}>
              Record ticket sales
            </Link>
          ) : null}
        </>
      }
    >
      <p>
        <EventStatus status={event.status} /> <EventLifecycle lifecycle={event.lifecycle} />
      </p>
    </PageHeader>
  )
}

/** Where and when (on the venue's clock), the currency and the capacity against the tickets offered. */
function EventDetails({ event }: { event: TicketedEvent }) {
  const tickets = event.ticketTypes.reduce((sum, type) => sum + type.quantity, 0)
  return (
    <dl className="details">
      <dt>Id</dt>
      <dd>{event.id}</dd>
      <dt>Venue</dt>
      <dd>{[event.venue.name, event.venue.city, event.venue.country].filter(Boolean).join(', ')}</dd>
      <dt>Starts</dt>
      <dd>
        <DateTime value={event.startsAt} timeZone={event.timezone} />
      </dd>
      <dt>Ends</dt>
      <dd>
        {event.endsAt ? <DateTime value={event.endsAt} timeZone={event.timezone} /> : 'Not set (taken as one day)'}
      </dd>
      <dt>Time zone</dt>
      <dd>{event.timezone}</dd>
      <dt>Currency</dt>
      <dd>{event.currency}</dd>
      <dt>Capacity</dt>
      <dd>
        {event.capacity} ({tickets} offered as tickets)
      </dd>
      <dt>Created</dt>
      <dd>
        <DateTime value={event.createdAt} />
      </dd>
    </dl>
  )
}

function TicketTypesTable({ event }: { event: TicketedEvent }) {
  if (event.ticketTypes.length === 0) return <p className="muted">No ticket types.</p>
  return (
    <Table<TicketType>
      caption="Ticket types"
      rows={event.ticketTypes}
      rowKey={(type) => type.name}
      columns={[
        { header: 'Name', cell: (type) => type.name },
        { header: 'Price', numeric: true, cell: (type) => `${type.price} ${event.currency}` },
        { header: 'Quantity', numeric: true, cell: (type) => type.quantity },
      ]}
    />
  )
}

/** The records the event names (performers, works), each a link, or that it names none. */
function LinkList({ ids, link }: { ids: string[]; link: (id: string) => ReactNode }) {
  if (ids.length === 0) return <p className="muted">None named.</p>
  return (
    <ul>
      {ids.map((id) => (
        <li key={id}>{link(id)}</li>
      ))}
    </ul>
  )
}

export const route = createLazyRoute('/app/events/$id')({ component: EventDetailPage })
