import { Link } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, FormError, PageHeader, TextField } from '../../ui'
import {
  EVERY_EVENT_KIND,
  kindsByObject,
  pageUnder,
  useCreateWebhook,
  WEBHOOK_ACTIONS,
  webhookKindsQuery,
  WILDCARD_KIND,
  type WebhookWithSecret,
} from './integrations-api'
import { OBJECT_NAMES } from './kind-names'
import { SecretReveal } from './secret-reveal'
import './integrations.css'

const LABELS = { url: 'Endpoint URL', events: 'Kinds' }

/** The two special kinds, each explained in one line. */
const CATCH_ALLS: readonly { kind: string; explanation: string }[] = [
  { kind: WILDCARD_KIND, explanation: 'Every event, including kinds added later, each as its own kind.' },
  {
    kind: EVERY_EVENT_KIND,
    explanation: 'Every org event, all delivered as this one kind, the audit log’s.',
  },
]

function KindCheckbox({
  kind,
  checked,
  onChange,
  explanation,
}: {
  kind: string
  checked: boolean
  onChange: (checked: boolean) => void
  explanation?: string | undefined
}) {
  const id = useId()
  return (
    <div className="choice-option kind-option">
      <input
        id={id}
        type="checkbox"
        value={kind}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={explanation ? `${id}-explanation` : undefined}
      />
      <div className="kind-label">
        <label htmlFor={id}>
          <code>{kind}</code>
        </label>
        {explanation ? (
          <span className="kind-explanation" id={`${id}-explanation`}>
            {explanation}
          </span>
        ) : null}
      </div>
    </div>
  )
}

/**
 * Register an endpoint: its URL and the kinds it receives, grouped by what they are about. The API
 * answers the signing secret once: shown here with a copy button; the detail page never shows it.
 */
export function WebhookCreate({ basePath }: { basePath: string }) {
  const [kinds, setKinds] = useState<string[]>([])
  const create = useCreateWebhook()
  const { fields, general } = formErrors(create.error, LABELS)
  const toggle = (kind: string) => (checked: boolean) =>
    setKinds((current) => (checked ? [...current, kind] : current.filter((other) => other !== kind)))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const url = String(new FormData(event.currentTarget).get('url') ?? '').trim()
    // In the page's order: the catch-alls first, then the kinds as the API lists them.
    const order = [...CATCH_ALLS.map((special) => special.kind), ...WEBHOOK_ACTIONS]
    create.mutate({ url, events: order.filter((kind) => kinds.includes(kind)) })
  }
  if (create.data) return <WebhookRegistered created={create.data} basePath={basePath} />
  return (
    <>
      <PageHeader title="Register a webhook" />
      <form onSubmit={submit} noValidate className="form">
        <FormError message={general} />
        <TextField
          label={LABELS.url}
          name="url"
          type="url"
          required
          maxLength={2048}
          autoComplete="off"
          hint="https, reachable from the internet"
          error={fields.url}
        />
        <CatchAllKinds kinds={kinds} toggle={toggle} />
        <KindsByObject kinds={kinds} toggle={toggle} error={fields.events} />
        <div>
          <Button type="submit" variant="primary" busy={create.isPending}>
            Register webhook
          </Button>
        </div>
      </form>
    </>
  )
}

/** The webhook made: its signing secret, shown this once (or, for the same request sent again, that it was). */
function WebhookRegistered({ created, basePath }: { created: WebhookWithSecret; basePath: string }) {
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
}

interface KindsProps {
  /** The kinds ticked. */
  kinds: string[]
  toggle: (kind: string) => (checked: boolean) => void
}

/** Each kind's one-line description, from `GET /api/webhook-kinds` (none while it loads). */
function useKindDescriptions(): (kind: string) => string | undefined {
  const catalogue = useQuery(webhookKindsQuery())
  const byKind = new Map(catalogue.data?.data.map((entry) => [entry.kind, entry.description]))
  return (kind) => byKind.get(kind)
}

/** "Everything": the two catch-all kinds, each explained. */
function CatchAllKinds({ kinds, toggle }: KindsProps) {
  const describe = useKindDescriptions()
  return (
    <fieldset className="choice">
      <legend>Everything</legend>
      {CATCH_ALLS.map(({ kind, explanation }) => (
        <KindCheckbox
          key={kind}
          kind={kind}
          explanation={describe(kind) ?? explanation}
          checked={kinds.includes(kind)}
          onChange={toggle(kind)}
        />
      ))}
    </fieldset>
  )
}

/** Every org event kind, grouped by the object it is about (`catalog.*`, `payout.*`, …). */
function KindsByObject({ kinds, toggle, error }: KindsProps & { error: string | undefined }) {
  const describe = useKindDescriptions()
  return (
    <fieldset className="choice" aria-describedby={error ? 'webhook-kinds-error' : undefined}>
      <legend>{LABELS.events}</legend>
      <p className="field-hint">Or only these org events, by what they are about.</p>
      <div className="kind-groups">
        {kindsByObject(WEBHOOK_ACTIONS).map(({ object, kinds: members }) => (
          <fieldset key={object} className="kind-group">
            <legend>
              {OBJECT_NAMES[object] ?? object} <code className="muted">{object}.*</code>
            </legend>
            <div className="choice-grid">
              {members.map((kind) => (
                <KindCheckbox
                  key={kind}
                  kind={kind}
                  explanation={describe(kind)}
                  checked={kinds.includes(kind)}
                  onChange={toggle(kind)}
                />
              ))}
            </div>
          </fieldset>
        ))}
      </div>
      {error ? (
        <p className="field-error" id="webhook-kinds-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}
