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
    const form = new FormData(event.currentTarget)
    const value = (name: string) => String(form.get(name) ?? '').trim()
    const body: CreateCreator = {
      name: value('name'),
      kind: value('kind') as CreateCreator['kind'],
      roles,
      payoutCurrency: value('payoutCurrency').toUpperCase(),
    }
    // Optional fields: left out when empty. Money stays the decimal string typed.
    for (const name of ['legalName', 'email', 'ipi', 'isni', 'minimumPayout', 'openingBalance'] as const) {
      if (value(name)) body[name] = value(name)
    }
    if (value('country')) body.country = value('country').toUpperCase()
    create.mutate(body, { onSuccess: (creator) => void navigate({ to: '/creators/$id', params: { id: creator.id } }) })
  }
  return (
    <>
      <PageHeader title="New creator" />
      <form onSubmit={submit} noValidate className="form">
        <FormError message={general} />
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
        <fieldset className="choice">
          <legend>{LABELS.roles}</legend>
          <div className="choice-grid">
            {CREATOR_ROLES.map((role) => (
              <label key={role} className="choice-option">
                <input
                  type="checkbox"
                  checked={roles.includes(role)}
                  onChange={(event) =>
                    setRoles((current) =>
                      event.target.checked ? [...current, role] : current.filter((other) => other !== role),
                    )
                  }
                />
                <span>{roleLabel(role)}</span>
              </label>
            ))}
          </div>
          {fields.roles ? <p className="field-error">{fields.roles}</p> : null}
        </fieldset>
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
        <Button type="submit" variant="primary" busy={create.isPending}>
          Create creator
        </Button>
      </form>
    </>
  )
}

export const route = createLazyRoute('/app/creators/new')({ component: NewCreatorPage })
