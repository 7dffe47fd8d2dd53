import { useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, FormError, TextField } from '../../ui'
import { useCreatorChoices } from '../creators/creators-api'
import { useWorkChoices, type CreateTicketedEvent } from './events-api'
import {
  CapacityFields,
  Choices,
  ScheduleFields,
  VenueFields,
  type BindText,
  type EventTextKey,
} from './event-form-fields'
import { browserTimeZone, venueTimeToInstant } from './event-time'
import {
  newTicketType,
  ticketTypeLabel,
  TicketTypesEditor,
  wholeNumber,
  type TicketTypeDraft,
} from './ticket-types-editor'

interface Draft extends Record<EventTextKey, string> {
  ticketTypes: TicketTypeDraft[]
  performerIds: string[]
  catalogIds: string[]
}

/** The form's fields by the API's param, for its messages. */
const LABELS: Record<string, string> = {
  name: 'Event name',
  venue: 'Venue',
  'venue.name': 'Venue name',
  'venue.city': 'Venue city',
  'venue.country': 'Country',
  startsAt: 'Starts',
  endsAt: 'Ends',
  timezone: 'Time zone',
  currency: 'Currency',
  capacity: 'Capacity',
  performerIds: 'Performers',
  catalogIds: 'Works performed',
}
const labelOf = (param: string) => ticketTypeLabel(param) ?? LABELS[param]

/** A count as typed: a whole number is sent as one, anything else as typed, and the API names the field. */
const count = (value: string): number => wholeNumber(value) ?? (value as unknown as number)

/** What the API receives: times at the venue become UTC instants; the rules are the API's to check. */
function requestOf(draft: Draft): CreateTicketedEvent {
  const city = draft.city.trim()
  const body: CreateTicketedEvent = {
    name: draft.name.trim(),
    venue: { name: draft.venueName.trim(), country: draft.country.trim().toUpperCase(), ...(city ? { city } : {}) },
    startsAt: venueTimeToInstant(draft.startsAt, draft.timezone),
    timezone: draft.timezone,
    currency: draft.currency.trim().toUpperCase(),
    capacity: count(draft.capacity),
    // A price left empty is left out, so the API says it is required rather than how to write one.
    ticketTypes: draft.ticketTypes.map((type) => ({
      name: type.name.trim(),
      ...(type.price.trim() === '' ? {} : { price: type.price.trim() }),
      quantity: count(type.quantity),
    })) as CreateTicketedEvent['ticketTypes'],
    performerIds: draft.performerIds,
    catalogIds: draft.catalogIds,
  }
  if (draft.endsAt.trim() !== '') body.endsAt = venueTimeToInstant(draft.endsAt, draft.timezone)
  return body
}

interface EventFormProps {
  busy: boolean
  error: unknown
  onSubmit: (request: CreateTicketedEvent) => void
}

export function EventForm({ busy, error, onSubmit }: EventFormProps) {
  const [draft, setDraft] = useState<Draft>(() => ({
    name: '',
    venueName: '',
    city: '',
    country: '',
    startsAt: '',
    endsAt: '',
    timezone: browserTimeZone(),
    currency: 'EUR',
    capacity: '',
    ticketTypes: [newTicketType()],
    performerIds: [],
    catalogIds: [],
  }))
  const creators = useCreatorChoices()
  const works = useWorkChoices()
  const { fields, general } = formErrors(error, labelOf)
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      setDraft((current) => ({ ...current, [key]: value }))
  const text: BindText = (key) => ({ value: draft[key], onChange: (event) => set(key)(event.target.value) })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit(requestOf(draft))
  }
  return (
    <form onSubmit={submit} noValidate className="form">
      <FormError message={general} />
      <TextField label="Event name" {...text('name')} required maxLength={300} error={fields.name} />
      <VenueFields text={text} fields={fields} />
      <ScheduleFields text={text} fields={fields} />
      <CapacityFields text={text} fields={fields} />
      <TicketTypesEditor
        types={draft.ticketTypes}
        onChange={set('ticketTypes')}
        capacity={draft.capacity}
        currency={draft.currency}
        errors={fields}
      />
      <Choices
        legend="Performers"
        options={creators.data?.map((creator) => ({ id: creator.id, label: creator.name }))}
        chosen={draft.performerIds}
        onChange={set('performerIds')}
        empty="This org has no creators yet."
        failed={creators.isError}
        errors={fields}
        param="performerIds"
      />
      <Choices
        legend="Works performed"
        options={works.data?.map((work) => ({ id: work.id, label: work.title }))}
        chosen={draft.catalogIds}
        onChange={set('catalogIds')}
        empty="This org's catalog has no works yet."
        failed={works.isError}
        errors={fields}
        param="catalogIds"
      />
      <Button type="submit" variant="primary" busy={busy}>
        Create event
      </Button>
    </form>
  )
}
