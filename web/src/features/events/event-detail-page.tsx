import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { useState } from 'react'
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
import { canCancel, canPublish, eventQuery, useEventAction, useWorkChoices, type TicketType } from './events-api'

const routeApi = getRouteApi('/app/events/$id')

function EventDetailPage() {
  const { id } = routeApi.useParams()
  const { can } = useSession()
  const event = useQuery(eventQuery(id))
  const publish = useEventAction(id, 'publish')
  const cancel = useEventAction(id, 'cancel')
  const [confirmCancel, setConfirmCancel] = useState(false)
  const creatorName = useCreatorName()
  const works = useWorkChoices()
  if (event.isPending) return <Loading label="Loading the event…" />
  if (event.error) return <ErrorState error={event.error} onRetry={() => void event.refetch()} />
  const data = event.data
  const writable = can('ticketing:write')
  const workTitle = (workId: string) => works.data?.find((work) => work.id === workId)?.title ?? workId
  const tickets = data.ticketTypes.reduce((sum, type) => sum + type.quantity, 0)
  const actionError = publish.error ?? (confirmCancel ? null : cancel.error)
  return (
    <>
      <PageHeader
        title={data.name}
        actions={
          <>
            {writable && canPublish(data) ? (
              <Button variant="primary" busy={publish.isPending} onClick={() => publish.mutate()}>
                Publish
              </Button>
            ) : null}
            {writable && canCancel(data) ? (
              <Button variant="danger" onClick={() => setConfirmCancel(true)}>
                Cancel event
              </Button>
            ) : null}
            {can('revenue:write') ? (
              // Ticket sales are recorded on the revenue form, naming their event.
              <Link to="/revenue/new" search={{ eventId: data.id }} className={buttonClass()}>
                Record ticket sales
              </Link>
            ) : null}
          </>
        }
      >
        <p>
          <EventStatus status={data.status} /> <EventLifecycle lifecycle={data.lifecycle} />
        </p>
      </PageHeader>
      <FormError message={problemMessage(actionError)} />
      <dl className="details">
        <dt>Id</dt>
        <dd>{data.id}</dd>
        <dt>Venue</dt>
        <dd>{[data.venue.name, data.venue.city, data.venue.country].filter(Boolean).join(', ')}</dd>
        <dt>Starts</dt>
        <dd>
          <DateTime value={data.startsAt} timeZone={data.timezone} />
        </dd>
        <dt>Ends</dt>
        <dd>
          {data.endsAt ? <DateTime value={data.endsAt} timeZone={data.timezone} /> : 'Not set (taken as one day)'}
        </dd>
        <dt>Time zone</dt>
        <dd>{data.timezone}</dd>
        <dt>Currency</dt>
        <dd>{data.currency}</dd>
        <dt>Capacity</dt>
        <dd>
          {data.capacity} ({tickets} offered as tickets)
        </dd>
        <dt>Created</dt>
        <dd>
          <DateTime value={data.createdAt} />
        </dd>
      </dl>
      <h2>Ticket types</h2>
      {data.ticketTypes.length === 0 ? (
        <p className="muted">No ticket types.</p>
      ) : (
        <Table<TicketType>
          caption="Ticket types"
          rows={data.ticketTypes}
          rowKey={(type) => type.name}
          columns={[
            { header: 'Name', cell: (type) => type.name },
            { header: 'Price', numeric: true, cell: (type) => `${type.price} ${data.currency}` },
            { header: 'Quantity', numeric: true, cell: (type) => type.quantity },
          ]}
        />
      )}
      <h2>Performers</h2>
      {data.performerIds.length === 0 ? (
        <p className="muted">None named.</p>
      ) : (
        <ul>
          {data.performerIds.map((creatorId) => (
            <li key={creatorId}>
              <Link to="/creators/$id" params={{ id: creatorId }}>
                {creatorName(creatorId)}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <h2>Works performed</h2>
      {data.catalogIds.length === 0 ? (
        <p className="muted">None named.</p>
      ) : (
        <ul>
          {data.catalogIds.map((workId) => (
            <li key={workId}>
              <Link to="/catalog/$id" params={{ id: workId }}>
                {workTitle(workId)}
              </Link>
            </li>
          ))}
        </ul>
      )}
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

export const route = createLazyRoute('/app/events/$id')({ component: EventDetailPage })
