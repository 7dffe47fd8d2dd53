import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { api, fieldErrors, unwrap } from '../../api/client'
import { useIdempotencyKey } from '../../app/idempotency'
import { Button, FormError, PageHeader, TextField } from '../../ui'
import { EVERY_EVENT_KIND, pageUnder, WEBHOOK_ACTIONS, WILDCARD_KIND, webhookKeys } from './integrations-api'
import { CheckboxGroup, SecretReveal } from './secret-reveal'

const CATCH_ALLS = [WILDCARD_KIND, EVERY_EVENT_KIND] as const
const CATCH_ALL_LABELS: Record<string, string> = {
  [WILDCARD_KIND]: 'All kinds, each as its own (*)',
  [EVERY_EVENT_KIND]: `Every org event as ${EVERY_EVENT_KIND}`,
}

/**
 * Register an endpoint: its URL and the kinds it receives. The API answers the signing secret once:
 * shown here with a copy button; the detail page (`{basePath}/{id}`) never shows it.
 */
export function WebhookCreate({ basePath }: { basePath: string }) {
  const queryClient = useQueryClient()
  const keyFor = useIdempotencyKey()
  const [catchAll, setCatchAll] = useState<string[]>([])
  const [actions, setActions] = useState<string[]>([])
  const create = useMutation({
    mutationFn: (body: { url: string; events: string[] }) =>
      unwrap(api.POST('/api/webhooks', { body, params: { header: { 'Idempotency-Key': keyFor(body) } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  })
  const { fields, general } = fieldErrors(create.error)
  // The API names the failing kind by its index (events.3); the page shows it under the kinds.
  const kindsError =
    fields.events ??
    Object.entries(fields)
      .filter(([param]) => param.startsWith('events.'))
      .map(([, message]) => message)[0]
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const url = String(new FormData(event.currentTarget).get('url') ?? '').trim()
    create.mutate({ url, events: [...catchAll, ...actions] })
  }
  const created = create.data
  if (created)
    return (
      <>
        <PageHeader title="Webhook registered" />
        {created.signingSecret ? (
          <SecretReveal label="Signing secret" secret={created.signingSecret}>
            <p role="status">
              Deliveries to <strong className="wrap-anywhere">{created.url}</strong> are signed with this secret.
            </p>
          </SecretReveal>
        ) : (
          <p className="notice" role="status">
            This webhook was registered already by the same request; its secret was shown then. Rotate it for a new one.
          </p>
        )}
        <p>
          <Link to={pageUnder(basePath, created.id)}>Open the webhook</Link>
        </p>
      </>
    )
  return (
    <>
      <PageHeader title="Register a webhook" />
      <form onSubmit={submit} noValidate className="form">
        <FormError message={general} />
        <TextField
          label="Endpoint URL"
          name="url"
          type="url"
          required
          maxLength={2048}
          autoComplete="off"
          hint="https, reachable from the internet"
          error={fields.url}
        />
        <CheckboxGroup
          legend="Everything"
          options={CATCH_ALLS}
          selected={catchAll}
          onChange={setCatchAll}
          label={(kind) => CATCH_ALL_LABELS[kind] ?? kind}
        />
        <CheckboxGroup
          legend="Kinds"
          hint="Or only these org events."
          options={WEBHOOK_ACTIONS}
          selected={actions}
          onChange={setActions}
          error={kindsError}
        />
        <div>
          <Button type="submit" variant="primary" busy={create.isPending}>
            Register webhook
          </Button>
        </div>
      </form>
    </>
  )
}
