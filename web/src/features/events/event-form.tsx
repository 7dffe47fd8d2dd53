import { useMemo, useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, FormError, Loading, SelectField, TextField } from '../../ui'
import { useCreatorChoices } from '../creators/creators-api'
import { useWorkChoices, type CreateTicketedEvent } from './events-api'
import { browserTimeZone, timeZones, venueTimeToInstant } from './event-time'
import {
  newTicketType,
  ticketTypeLabel,
  TicketTypesEditor,
  wholeNumber,
  type TicketTypeDraft,
} from './ticket-types-editor'

interface Draft {
  name: string
  venueName: string
  city: string
  country: string
  startsAt: string
  endsAt: string
  timezone: string
  currency: string
  capacity: string
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

/** Checkboxes for picking records by name (performers, works), in a fieldset of their own. */
function Choices({
  legend,
  options,
  chosen,
  onChange,
  empty,
  failed,
  errors,
  param,
}: {
  legend: string
  options: readonly { id: string; label: string }[] | undefined
  failed: boolean
  chosen: string[]
  onChange: (ids: string[]) => void
  empty: string
  errors: Record<string, string>
  param: string
}) {
  const error = errors[param]
  return (
    <fieldset className="choice">
      <legend>{legend}</legend>
      {failed ? (
        <p className="field-error">Could not load the {legend.toLowerCase()}: reload the page to try again.</p>
      ) : options === undefined ? (
        <Loading label={`Loading ${legend.toLowerCase()}…`} />
      ) : options.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <div className="choice-grid">
          {options.map((option) => (
            <label key={option.id} className="choice-option">
              <input
                type="checkbox"
                checked={chosen.includes(option.id)}
                onChange={(event) =>
                  onChange(
                    event.target.checked ? [...chosen, option.id] : chosen.filter((other) => other !== option.id),
                  )
                }
              />
              <span>{option.label}</span>
            </label>
          ))}
        </div>
      )}
      {error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  )
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
  const zones = useMemo(() => timeZones(), [])
  const creators = useCreatorChoices()
  const works = useWorkChoices()
  const { fields, general } = formErrors(error, labelOf)
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      setDraft((current) => ({ ...current, [key]: value }))
  const text = (key: keyof Draft) => ({
    value: draft[key] as string,
    onChange: (event: { target: { value: string } }) => set(key)(event.target.value as never),
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSubmit(requestOf(draft))
  }
  return (
    <form onSubmit={submit} noValidate className="form">
      <FormError message={general} />
      <TextField label="Event name" {...text('name')} required maxLength={300} error={fields.name} />
      <fieldset className="form-group">
        <legend>Venue</legend>
        {fields.venue ? <p className="field-error">{fields.venue}</p> : null}
        <TextField label="Venue name" {...text('venueName')} required maxLength={300} error={fields['venue.name']} />
        <div className="form-row">
          <TextField
            label="Venue city"
            {...text('city')}
            hint="Optional"
            maxLength={200}
            error={fields['venue.city']}
          />
          <TextField
            label="Country"
            {...text('country')}
            required
            maxLength={2}
            hint="ISO code such as NL"
            error={fields['venue.country']}
          />
        </div>
      </fieldset>
      <div className="form-row">
        <TextField
          label="Starts"
          type="datetime-local"
          {...text('startsAt')}
          required
          hint="Local time at the venue"
          error={fields.startsAt}
        />
        <TextField
          label="Ends"
          type="datetime-local"
          {...text('endsAt')}
          hint="Optional; without it the event lasts a day"
          error={fields.endsAt}
        />
      </div>
      <SelectField
        label="Time zone"
        {...text('timezone')}
        options={zones.map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') }))}
        hint="The venue's IANA time zone: the times above are read in it"
        error={fields.timezone}
      />
      <div className="form-row">
        <TextField
          label="Currency"
          {...text('currency')}
          required
          maxLength={3}
          hint="ISO 4217, such as EUR"
          error={fields.currency}
        />
        <TextField
          label="Capacity"
          {...text('capacity')}
          required
          inputMode="numeric"
          hint="Places at the venue"
          error={fields.capacity}
        />
      </div>
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
