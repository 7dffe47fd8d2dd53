import { LIFECYCLE_LABELS, STATUS_LABELS, type TicketedEvent } from './events-api'

export function EventStatus({ status }: { status: TicketedEvent['status'] }) {
  return <span className={`badge badge-${status}`}>{STATUS_LABELS[status]}</span>
}

export function EventLifecycle({ lifecycle }: { lifecycle: TicketedEvent['lifecycle'] }) {
  return <span className={`badge badge-lifecycle badge-${lifecycle}`}>{LIFECYCLE_LABELS[lifecycle]}</span>
}
