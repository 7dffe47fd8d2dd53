import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, FormError, PageHeader, SelectField, TextField } from '../../ui'
import { CREATOR_ROLES, roleLabel, useCreateCreator, type CreateCreator, type CreatorRole } from './creators-api'

/** The form's fields by the API's param (for its messages, in these words). */
const LABELS = {
  name: 'Name',
  legalName: 'Legal identity',
  kind: 'Kind',
  roles: 'Roles',
  email: 'Email',
  country: 'Country',
  ipi: 'IPI',
  isni: 'ISNI',
  payoutCurrency: 'Payout currency',
  minimumPayout: 'Minimum payout',
  openingBalance: 'Opening balance',
}

function NewCreatorPage() {
  const navigate = useNavigate()
  const [roles, setRoles] = useState<CreatorRole[]>(['artist'])
  const create = useCreateCreator()
  const { fields, general } = formErrors(create.error, LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const body = requestOf(new FormData(event.currentTarget), roles)
    create.mutate(body, { onSuccess: (creator) => void navigate({ to: '/creators/$id', params: { id: creator.id } }) })
  }
  return (
    <>
      <PageHeader title="New creator" />
      <form onSubmit={submit} noValidate className="form">
        <FormError message={general} />
        <CreatorIdentityFields fields={fields} />
        <RolesField roles={roles} onChange={setRoles} error={fields.roles} />
        <ContactFields fields={fields} />
        <PayoutFields fields={fields} />
        <Button type="submit" variant="primary" busy={create.isPending}>
          Create creator
        </Button>
      </form>
    </>
  )
}

/** What the API receives: optional fields are left out when empty; money stays the decimal string typed. */
function requestOf(form: FormData, roles: CreatorRole[]): CreateCreator {
  const value = (name: string) => String(form.get(name) ?? '').trim()
  const body: CreateCreator = {
    name: value('name'),
    kind: value('kind') as CreateCreator['kind'],
    roles,
    payoutCurrency: value('payoutCurrency').toUpperCase(),
  }
  for (const name of ['legalName', 'email', 'ipi', 'isni', 'minimumPayout', 'openingBalance'] as const) {
    if (value(name)) body[name] = value(name)
  }
  if (value('country')) body.country = value('country').toUpperCase()
  return body
}

/** The API's messages by the field's param. */
type FieldErrors = Record<string, string>

/** Who the creator is: name, legal identity and kind. */
function CreatorIdentityFields({ fields }: { fields: FieldErrors }) {
  return (
    <>
      <TextField label={LABELS.name} name="name" required maxLength={300} error={fields.name} />
      <TextField
        label={LABELS.legalName}
        name="legalName"
        hint="Optional: the legal name, if another"
        error={fields.legalName}
      />
      <SelectField
        label={LABELS.kind}
        name="kind"
        defaultValue="person"
        options={[
          { value: 'person', label: 'Person' },
          { value: 'group', label: 'Group' },
          { value: 'company', label: 'Company' },
        ]}
        error={fields.kind}
      />
    </>
  )
}

/** The roles the creator can be split to, one checkbox each. */
function RolesField({
  roles,
  onChange,
  error,
}: {
  roles: CreatorRole[]
  onChange: (change: (current: CreatorRole[]) => CreatorRole[]) => void
  error: string | undefined
}) {
  return (
    <fieldset className="choice">
      <legend>{LABELS.roles}</legend>
      <div className="choice-grid">
        {CREATOR_ROLES.map((role) => (
          <label key={role} className="choice-option">
            <input
              type="checkbox"
              checked={roles.includes(role)}
              onChange={(event) =>
                onChange((current) =>
                  event.target.checked ? [...current, role] : current.filter((other) => other !== role),
                )
              }
            />
            <span>{roleLabel(role)}</span>
          </label>
        ))}
      </div>
      {error ? <p className="field-error">{error}</p> : null}
    </fieldset>
  )
}

/** How to reach and identify the creator: email, country, IPI and ISNI, all optional. */
function ContactFields({ fields }: { fields: FieldErrors }) {
  return (
    <>
      <div className="form-row">
        <TextField label={LABELS.email} name="email" type="email" hint="Optional" error={fields.email} />
        <TextField
          label={LABELS.country}
          name="country"
          hint="Optional, ISO code such as NL"
          maxLength={2}
          error={fields.country}
        />
      </div>
      <div className="form-row">
        <TextField label={LABELS.ipi} name="ipi" hint="Optional, 9 or 11 digits" error={fields.ipi} />
        <TextField label={LABELS.isni} name="isni" hint="Optional, 16 characters" error={fields.isni} />
      </div>
    </>
  )
}

/** How the creator is paid: currency, minimum payout and the balance carried in. */
function PayoutFields({ fields }: { fields: FieldErrors }) {
  return (
    <div className="form-row">
      <TextField
        label={LABELS.payoutCurrency}
        name="payoutCurrency"
        defaultValue="EUR"
        maxLength={3}
        required
        hint="ISO 4217, such as EUR"
        error={fields.payoutCurrency}
      />
      <TextField
        label={LABELS.minimumPayout}
        name="minimumPayout"
        inputMode="decimal"
        hint="Optional decimal, such as 25.00"
        error={fields.minimumPayout}
      />
      <TextField
        label={LABELS.openingBalance}
        name="openingBalance"
        inputMode="decimal"
        hint="Optional; negative for an advance to recoup, such as -500.00"
        error={fields.openingBalance}
      />
    </div>
  )
}

export const route = createLazyRoute('/app/creators/new')({ component: NewCreatorPage })
