import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { useSession } from '../../app/session'
import { Button, FormError, PageHeader, TextField } from '../../ui'
import { useCreateOrg, type Environment } from './orgs-api'

const LABELS = { name: 'Name', environment: 'Environment' }

function NewOrgPage() {
  const { active } = useSession()
  const navigate = useNavigate()
  const [environment, setEnvironment] = useState<Environment>('sandbox')
  const create = useCreateOrg()
  const { fields, general } = formErrors(create.error, LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    create.mutate(
      { name: String(new FormData(event.currentTarget).get('name')), environment },
      { onSuccess: () => void navigate({ to: '/catalog', search: {} }) },
    )
  }
  return (
    <>
      <PageHeader title="New organisation">
        {active ? null : <p>Create your first organisation to keep a catalog in it. You become its owner.</p>}
      </PageHeader>
      <form onSubmit={submit} noValidate className="form">
        <FormError message={general} />
        <TextField label={LABELS.name} name="name" required maxLength={200} error={fields.name} />
        <fieldset className="choice">
          <legend>{LABELS.environment}</legend>
          {(
            [
              ['sandbox', 'Sandbox', 'Test data; payouts complete on their own.'],
              ['production', 'Production', 'Real data and real payouts. Fixed once created.'],
            ] as const
          ).map(([value, label, hint]) => (
            <label key={value} className="choice-option">
              <input
                type="radio"
                name="environment"
                value={value}
                checked={environment === value}
                onChange={() => setEnvironment(value)}
              />
              <span>
                {label} <span className="muted">— {hint}</span>
              </span>
            </label>
          ))}
          {fields.environment ? <p className="field-error">{fields.environment}</p> : null}
        </fieldset>
        <Button type="submit" variant="primary" busy={create.isPending}>
          Create organisation
        </Button>
      </form>
    </>
  )
}

export const route = createLazyRoute('/app/orgs/new')({ component: NewOrgPage })
