import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { problemMessage } from '../../api/messages'
import { Button, ConfirmDialog, DateTime, ErrorState, FormError, Loading, PageHeader } from '../../ui'
import { DeliveryLog } from './delivery-log'
import { ResendFailed } from './resend-failed'
import {
  useDeleteWebhook,
  useRotateWebhookSecret,
  useSendTestEvent,
  useToggleWebhook,
  webhookQuery,
  type Webhook,
} from './integrations-api'
import { SecretReveal } from './secret-reveal'
import { webhookStatus } from './webhooks-list'

export interface WebhookDetailProps {
  id: string
  /** Where the webhook pages are mounted (the list; the detail is `{basePath}/{id}`). */
  basePath: string
  /** The delivery log's cursor (kept in the URL by the mounting route) and how to page it. */
  deliveriesCursor: string | undefined
  onDeliveriesCursor: (cursor: string | undefined) => void
  /** Whether to offer the write actions (the API refuses them to others anyway). */
  canWrite: boolean
}

/** One endpoint: its settings and actions, then its delivery log with every attempt. */
export function WebhookDetail({ id, basePath, deliveriesCursor, onDeliveriesCursor, canWrite }: WebhookDetailProps) {
  const navigate = useNavigate()
  const webhook = useQuery(webhookQuery(id))
  const [confirming, setConfirming] = useState<'rotate' | 'delete' | null>(null)
  const sendTest = useSendTestEvent(id)
  const toggle = useToggleWebhook(id)
  const rotate = useRotateWebhookSecret(id)
  const remove = useDeleteWebhook(id)
  const actionError = sendTest.error ?? toggle.error

  if (webhook.isPending) return <Loading label="Loading the webhook…" />
  if (webhook.error) return <ErrorState error={webhook.error} onRetry={() => void webhook.refetch()} />
  const data = webhook.data
  const enabled = data.status === 'enabled'
  return (
    <>
      <PageHeader
        title="Webhook"
        actions={
          canWrite ? (
            <WebhookActions enabled={enabled} sendTest={sendTest} toggle={toggle} onConfirm={setConfirming} />
          ) : null
        }
      >
        <p className="wrap-anywhere">{data.url}</p>
        <p>
          <Link to={basePath}>All webhooks</Link>
        </p>
      </PageHeader>
      <FormError message={problemMessage(actionError)} />
      {sendTest.data && !sendTest.isPending ? (
        <p role="status">Test event sent: delivery {sendTest.data.id} is in the log below.</p>
      ) : null}
      {rotate.data?.signingSecret ? (
        <SecretReveal label="New signing secret" secret={rotate.data.signingSecret}>
          <p role="status">
            The secret was rotated. Until{' '}
            <strong>
              <DateTime value={rotate.data.previousSecretExpiresAt} />
            </strong>{' '}
            deliveries carry signatures by both the previous and the new secret.
          </p>
        </SecretReveal>
      ) : null}
      <WebhookFacts webhook={data} />
      {canWrite && enabled ? <ResendFailed webhookId={id} /> : null}
      <DeliveryLog
        webhookId={id}
        cursor={deliveriesCursor}
        onCursor={onDeliveriesCursor}
        canRedeliver={canWrite && enabled}
      />
      <ConfirmDialog
        open={confirming === 'rotate'}
        onOpenChange={(open) => setConfirming(open ? 'rotate' : null)}
        title="Rotate the signing secret?"
        description="A new secret is made and shown once. For a grace period deliveries are signed with both, so you can deploy the new one."
        confirm="Rotate the signing secret"
        busy={rotate.isPending}
        error={problemMessage(rotate.error)}
        onConfirm={() => rotate.mutate(undefined, { onSuccess: () => setConfirming(null) })}
      />
      <ConfirmDialog
        open={confirming === 'delete'}
        onOpenChange={(open) => setConfirming(open ? 'delete' : null)}
        title="Delete this webhook?"
        description={`Nothing more is sent to ${data.url}, and its delivery log goes with it.`}
        confirm="Delete the webhook"
        variant="danger"
        busy={remove.isPending}
        error={problemMessage(remove.error)}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => void navigate({ to: basePath }) })}
      />
    </>
  )
}

/** Send a test event (while enabled), rotate the secret (asked first), disable or enable, delete (asked first). */
function WebhookActions({
  enabled,
  sendTest,
  toggle,
  onConfirm,
}: {
  enabled: boolean
  sendTest: ReturnType<typeof useSendTestEvent>
  toggle: ReturnType<typeof useToggleWebhook>
  onConfirm: (action: 'rotate' | 'delete') => void
}) {
  return (
    <>
      {enabled ? (
        <Button variant="primary" busy={sendTest.isPending} onClick={() => sendTest.mutate()}>
          Send test event
        </Button>
      ) : null}
      <Button onClick={() => onConfirm('rotate')}>Rotate secret</Button>
      <Button
        busy={toggle.isPending}
        onClick={() => {
          sendTest.reset()
          toggle.mutate(!enabled)
        }}
      >
        {enabled ? 'Disable' : 'Enable'}
      </Button>
      <Button variant="danger" onClick={() => onConfirm('delete')}>
        Delete
      </Button>
    </>
  )
}

/** Its status, id, kinds, and when its previous secret stops signing. */
function WebhookFacts({ webhook }: { webhook: Webhook }) {
  return (
    <dl className="details">
      <dt>Status</dt>
      <dd>{webhookStatus(webhook)}</dd>
      <dt>Id</dt>
      <dd>{webhook.id}</dd>
      <dt>Kinds</dt>
      <dd>{webhook.events.join(', ')}</dd>
      <dt>Previous secret signs until</dt>
      <dd>
        <DateTime value={webhook.previousSecretExpiresAt} />
      </dd>
      <dt>Created</dt>
      <dd>
        <DateTime value={webhook.createdAt} />
      </dd>
      <dt>Updated</dt>
      <dd>
        <DateTime value={webhook.updatedAt} />
      </dd>
    </dl>
  )
}
