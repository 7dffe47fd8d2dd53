import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { api, fieldErrors, unwrap } from '../../api/client'
import { useSession } from '../../app/session'
import { Button, FormError, PageHeader, TextField } from '../../ui'
import { useIdempotencyKey } from '../../app/idempotency'

type Environment = 'sandbox' | 'production'

function NewOrgPage() {
  const { active } = useSession()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [environment, setEnvironment] = useState<Environment>('sandbox')
  const keyFor = useIdempotencyKey()
  const create = useMutation({
    mutationFn: (body: { name: string; environment: Environment }) =>
      unwrap(api.POST('/api/orgs', { body, params: { header: { 'Idempotency-Key': keyFor(body) } } })),
    onSuccess: async () => {
      // The new org is the active one now: whatever was loaded belonged to another.
      queryClient.clear()
      await navigate({ to: '/catalog', search: {} })
    },
  })
  const { fields, general } = fieldErrors(create.error)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    create.mutate({ name: String(new FormData(event.currentTarget).get('name')), environment })
  }
  return (
    <>
      <PageHeader title="New organisation">
        {active ? null : <p>Create your first organisation to keep a catalog in it. You become its owner.</p>}
      </PageHeader>
      <form onSubmit={submit} noValidate className="form">
        <FormError message={general} />
        <TextField label="Name" name="name" required maxLength={200} error={fields.name} />
        <fieldset className="choice">
          <legend>Environment</legend>
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
