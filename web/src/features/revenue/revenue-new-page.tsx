import { createLazyRoute, getRouteApi } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, FormError, PageHeader, SelectField, TextField } from '../../ui'
import {
  REVENUE_TYPES,
  useCatalogChoices,
  useRecordRevenue,
  type CreateRevenueEntry,
  type RevenueType,
} from './revenue-api'

const routeApi = getRouteApi('/app/revenue/new')

const OPTIONAL = ['catalogId', 'isrc', 'iswc', 'upc', 'eventId', 'statementRef', 'lineRef', 'reverses'] as const

/** The form's fields by the API's param, for its messages. */
const LABELS = {
  catalogId: 'Catalog entry',
  isrc: 'ISRC',
  iswc: 'ISWC',
  upc: 'UPC',
  eventId: 'Ticketed event',
  source: 'Source',
  type: 'Type',
  periodStart: 'Period start',
  periodEnd: 'Period end',
  territory: 'Territory',
  units: 'Units',
  amount: 'Amount',
  currency: 'Currency',
  statementRef: 'Statement reference',
  lineRef: 'Line reference',
  reverses: 'Reverses entry',
}

function NewRevenuePage() {
  const { eventId } = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const catalog = useCatalogChoices()
  const create = useRecordRevenue()
  const { fields, general } = formErrors(create.error, LABELS)

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    // Newest first: the entry just recorded, with its allocations, heads the list.
    create.mutate(requestOf(new FormData(event.currentTarget)), {
      onSuccess: () => void navigate({ to: '/revenue', search: {} }),
    })
  }

  return (
    <>
      <PageHeader title="Record revenue">
        <p className="muted">The amount is split to creators by the catalog entry’s splits as it is recorded.</p>
      </PageHeader>
      <form onSubmit={submit} noValidate className="form">
        <FormError message={general} />
        <EarnedByFields catalog={catalog.data} eventId={eventId} fields={fields} />
        <div className="form-row">
          <TextField
            label={LABELS.source}
            name="source"
            required
            maxLength={200}
            hint="Such as Spotify"
            error={fields.source}
          />
          <SelectField
            label={LABELS.type}
            name="type"
            defaultValue={eventId ? 'ticket_sale' : 'stream'}
            options={Object.entries(REVENUE_TYPES).map(([value, label]) => ({ value, label }))}
            error={fields.type}
          />
        </div>
        <PeriodFields fields={fields} />
        <AmountFields fields={fields} />
        <ReferenceFields fields={fields} />
        <Button type="submit" variant="primary" busy={create.isPending}>
          Record revenue
        </Button>
      </form>
    </>
  )
}

/** What the API receives: optional fields are left out when empty, and the rules are the API's to check. */
function requestOf(form: FormData): CreateRevenueEntry {
  const value = (name: string) => String(form.get(name) ?? '').trim()
  const units = value('units')
  const body: CreateRevenueEntry = {
    source: value('source'),
    type: value('type') as RevenueType,
    periodStart: value('periodStart'),
    periodEnd: value('periodEnd'),
    territory: value('territory').toUpperCase(),
    // A whole number as a number; anything else is sent as typed, so the API's message lands under the field.
    units: /^-?[0-9]+$/.test(units) ? Number.parseInt(units, 10) : (units as unknown as number),
    // Money stays the decimal string typed (left out when empty: the API then says it is required).
    amount: value('amount'),
    currency: value('currency').toUpperCase(),
  }
  for (const name of OPTIONAL) if (value(name)) body[name] = value(name)
  if (body.amount === '') delete (body as Partial<CreateRevenueEntry>).amount
  return body
}

/** The API's messages by the field's param. */
type FieldErrors = Record<string, string>

/** What earned it: a catalog entry, or an identifier instead, and for ticket sales the event. */
function EarnedByFields({
  catalog,
  eventId,
  fields,
}: {
  catalog: readonly { id: string; title: string }[] | undefined
  /** The event whose page linked here (`?eventId=`): its ticket sales. */
  eventId: string | undefined
  fields: FieldErrors
}) {
  return (
    <fieldset className="form-group">
      <legend>What earned it</legend>
      <SelectField
        label={LABELS.catalogId}
        name="catalogId"
        defaultValue=""
        options={[
          { value: '', label: 'Choose an entry, or give an identifier below' },
          ...(catalog ?? []).map((entry) => ({ value: entry.id, label: entry.title })),
        ]}
        error={fields.catalogId}
      />
      <div className="form-row">
        <TextField
          label={LABELS.isrc}
          name="isrc"
          hint="Instead of an entry: an active recording"
          error={fields.isrc}
        />
        <TextField label={LABELS.iswc} name="iswc" hint="Instead of an entry: an active work" error={fields.iswc} />
        <TextField label={LABELS.upc} name="upc" hint="Instead of an entry: an active release" error={fields.upc} />
      </div>
      <TextField
        label={LABELS.eventId}
        name="eventId"
        defaultValue={eventId ?? ''}
        hint="Ticket sales only: the event’s id"
        error={fields.eventId}
      />
    </fieldset>
  )
}

/** When and where: the period's first and last day and the territory. */
function PeriodFields({ fields }: { fields: FieldErrors }) {
  return (
    <div className="form-row">
      <TextField label={LABELS.periodStart} name="periodStart" type="date" required error={fields.periodStart} />
      <TextField label={LABELS.periodEnd} name="periodEnd" type="date" required error={fields.periodEnd} />
      <TextField
        label={LABELS.territory}
        name="territory"
        required
        maxLength={5}
        hint="ISO country code such as DE, or WORLD"
        error={fields.territory}
      />
    </div>
  )
}

/** How much: the units, the amount as a decimal and its currency. */
function AmountFields({ fields }: { fields: FieldErrors }) {
  return (
    <div className="form-row">
      <TextField
        label={LABELS.units}
        name="units"
        inputMode="numeric"
        required
        hint="Streams, copies or tickets; negative for returns"
        error={fields.units}
      />
      <TextField
        label={LABELS.amount}
        name="amount"
        inputMode="decimal"
        required
        hint="Decimal, up to 6 places, such as 12.50; negative for returns"
        error={fields.amount}
      />
      <TextField
        label={LABELS.currency}
        name="currency"
        defaultValue="EUR"
        maxLength={3}
        required
        hint="ISO 4217, such as EUR"
        error={fields.currency}
      />
    </div>
  )
}

/** Where it comes from: the statement and its line, and the entry it reverses; all optional. */
function ReferenceFields({ fields }: { fields: FieldErrors }) {
  return (
    <div className="form-row">
      <TextField
        label={LABELS.statementRef}
        name="statementRef"
        hint="Optional: the statement this line comes from"
        error={fields.statementRef}
      />
      <TextField
        label={LABELS.lineRef}
        name="lineRef"
        hint="Optional: the line in that statement"
        error={fields.lineRef}
      />
      <TextField
        label={LABELS.reverses}
        name="reverses"
        hint="Optional: the id of the entry this one reverses"
        error={fields.reverses}
      />
    </div>
  )
}

export const route = createLazyRoute('/app/revenue/new')({ component: NewRevenuePage })
