import { Link } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { useSession } from '../../app/session'
import { Button, CopyableId, FormError, PageHeader, TextField } from '../../ui'
import { CREDENTIAL_SCOPES, pageUnder, useCreateCredential, type Scope } from './integrations-api'
import { CheckboxGroup, SecretReveal } from './secret-reveal'

const LABELS = { name: 'Name', scopes: 'Scopes' }

/**
 * A new credential: a name and its scopes. The API answers its secret once: shown here with a copy
 * button, then the detail page (`{basePath}/{id}`) shows only the secret's hint.
 */
export function CredentialCreate({ basePath }: { basePath: string }) {
  const [scopes, setScopes] = useState<Scope[]>([])
  const create = useCreateCredential()
  const { active } = useSession()
  const { fields, general } = formErrors(create.error, LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    create.mutate({ name: String(new FormData(event.currentTarget).get('name') ?? '').trim(), scopes })
  }
  const created = create.data
  if (created)
    return (
      <>
        <PageHeader title="Credential created" />
        <SecretReveal label="Client secret" secret={created.secret}>
          <dl className="details">
            <dt>Name</dt>
            <dd>{created.name}</dd>
            <dt>Client id</dt>
            <dd>
              <CopyableId label="client id" value={created.id} />
            </dd>
            {active ? (
              <>
                <dt>Org id</dt>
                <dd>
                  <CopyableId label="org id" value={active.orgId} />
                </dd>
              </>
            ) : null}
            <dt>Environment</dt>
            <dd>{created.environment}</dd>
            <dt>Scopes</dt>
            <dd>{created.scopes.join(', ')}</dd>
          </dl>
        </SecretReveal>
        <p>
          <Link to={pageUnder(basePath, created.id)}>Open {created.name}</Link>
        </p>
      </>
    )
  return (
    <>
      <PageHeader title="New credential">
        <p>Its environment is the organisation’s: a sandbox org gets test credentials.</p>
      </PageHeader>
      <form onSubmit={submit} noValidate className="form">
        <FormError message={general} />
        <TextField label={LABELS.name} name="name" required maxLength={200} autoComplete="off" error={fields.name} />
        <CheckboxGroup
          legend={LABELS.scopes}
          hint="What tokens of this credential may do on /v1."
          options={CREDENTIAL_SCOPES}
          selected={scopes}
          onChange={setScopes}
          error={fields.scopes}
        />
        <div>
          <Button type="submit" variant="primary" busy={create.isPending}>
            Create credential
          </Button>
        </div>
      </form>
    </>
  )
}
