import { useMemo } from 'react'
import { Loading, SelectField, TextField } from '../../ui'
import { timeZones } from './event-time'

/** The event's fields typed as text (the ticket types and the chosen records are the form's own). */
export type EventTextKey =
  'name' | 'venueName' | 'city' | 'country' | 'startsAt' | 'endsAt' | 'timezone' | 'currency' | 'capacity'

/** A text field's value and change handler, bound to the form's draft. */
export type BindText = (key: EventTextKey) => {
  value: string
  onChange: (event: { target: { value: string } }) => void
}

interface FieldGroupProps {
  text: BindText
  /** The API's messages by the field's param. */
  fields: Record<string, string>
}

/** Where the event takes place: the venue's name, city and country. */
export function VenueFields({ text, fields }: FieldGroupProps) {
  return (
    <fieldset className="form-group">
      <legend>Venue</legend>
      {fields.venue ? <p className="field-error">{fields.venue}</p> : null}
      <TextField label="Venue name" {...text('venueName')} required maxLength={300} error={fields['venue.name']} />
      <div className="form-row">
        <TextField label="Venue city" {...text('city')} hint="Optional" maxLength={200} error={fields['venue.city']} />
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
  )
}

/** When: the start and end as the venue's clock shows them, and the venue's time zone they are read in. */
export function ScheduleFields({ text, fields }: FieldGroupProps) {
  const zones = useMemo(() => timeZones(), [])
  return (
    <>
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
    </>
  )
}

/** What is sold: the tickets' currency and the places at the venue. */
export function CapacityFields({ text, fields }: FieldGroupProps) {
  return (
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
  )
}

/** Checkboxes for picking records by name (performers, works), in a fieldset of their own. */
export function Choices({
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
