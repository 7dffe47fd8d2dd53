import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { problemMessage } from '../../api/messages'
import {
  Button,
  ConfirmDialog,
  DateTime,
  ErrorState,
  FormError,
  ListView,
  Loading,
  PageHeader,
  Table,
  useListQuery,
} from '../../ui'
import {
  deliveryListQuery,
  useDeleteWebhook,
  useRedeliver,
  useRotateWebhookSecret,
  useSendTestEvent,
  useToggleWebhook,
  webhookQuery,
  type Attempt,
  type Delivery,
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

const DELIVERY_STATUS: Record<Delivery['status'], string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
  blocked: 'Blocked',
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
            <>
              {enabled ? (
                <Button variant="primary" busy={sendTest.isPending} onClick={() => sendTest.mutate()}>
                  Send test event
                </Button>
              ) : null}
              <Button onClick={() => setConfirming('rotate')}>Rotate secret</Button>
              <Button
                busy={toggle.isPending}
                onClick={() => {
                  sendTest.reset()
                  toggle.mutate(!enabled)
                }}
              >
                {enabled ? 'Disable' : 'Enable'}
              </Button>
              <Button variant="danger" onClick={() => setConfirming('delete')}>
                Delete
              </Button>
            </>
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
      <dl className="details">
        <dt>Status</dt>
        <dd>{webhookStatus(data)}</dd>
        <dt>Id</dt>
        <dd>{data.id}</dd>
        <dt>Kinds</dt>
        <dd>{data.events.join(', ')}</dd>
        <dt>Previous secret signs until</dt>
        <dd>
          <DateTime value={data.previousSecretExpiresAt} />
        </dd>
        <dt>Created</dt>
        <dd>
          <DateTime value={data.createdAt} />
        </dd>
        <dt>Updated</dt>
        <dd>
          <DateTime value={data.updatedAt} />
        </dd>
      </dl>
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

/** The endpoint's deliveries, newest first, each with its attempts; asked again while one is pending. */
function DeliveryLog({
  webhookId,
  cursor,
  onCursor,
  canRedeliver,
}: {
  webhookId: string
  cursor: string | undefined
  onCursor: (cursor: string | undefined) => void
  canRedeliver: boolean
}) {
  const deliveries = useListQuery(deliveryListQuery(webhookId, cursor))
  return (
    <section aria-labelledby="deliveries-heading" className="section">
      <h2 id="deliveries-heading">Delivery log</h2>
      <ListView<Delivery>
        list={deliveries}
        loading="Loading deliveries…"
        cursor={cursor}
        onCursor={onCursor}
        empty={cursor ? 'No deliveries on this page' : 'No deliveries yet'}
      >
        {(rows) => (
          <ol className="deliveries">
            {rows.map((delivery) => (
              <DeliveryItem key={delivery.id} delivery={delivery} canRedeliver={canRedeliver} />
            ))}
          </ol>
        )}
      </ListView>
    </section>
  )
}

function DeliveryItem({ delivery, canRedeliver }: { delivery: Delivery; canRedeliver: boolean }) {
  const redeliver = useRedeliver(delivery.webhookId, delivery.id)
  const headingId = `delivery-${delivery.id}`
  return (
    <li className="delivery" aria-labelledby={headingId}>
      <div className="delivery-header">
        <h3 id={headingId}>
          {delivery.type} · {DELIVERY_STATUS[delivery.status]}
          {delivery.lastHttpStatus !== null ? ` · HTTP ${delivery.lastHttpStatus}` : ''}
        </h3>
        {canRedeliver && delivery.status !== 'pending' ? (
          <Button busy={redeliver.isPending} onClick={() => redeliver.mutate()} aria-describedby={headingId}>
            Redeliver
          </Button>
        ) : null}
      </div>
      <p className="muted">
        {delivery.id} · event {delivery.eventId} · created <DateTime value={delivery.createdAt} />
        {delivery.nextAttemptAt ? (
          <>
            {' '}
            · next attempt <DateTime value={delivery.nextAttemptAt} />
          </>
        ) : null}
      </p>
      <FormError message={problemMessage(redeliver.error)} />
      {delivery.attempts.length === 0 ? (
        <p>No attempt yet.</p>
      ) : (
        <Table<Attempt>
          caption={`Attempts of delivery ${delivery.id}`}
          rows={delivery.attempts}
          rowKey={(attempt) => String(attempt.attempt)}
          columns={[
            { header: 'Attempt', cell: (attempt) => attempt.attempt, numeric: true },
            { header: 'Time', cell: (attempt) => <DateTime value={attempt.at} /> },
            { header: 'Trigger', cell: (attempt) => attempt.trigger },
            { header: 'Result', cell: (attempt) => attempt.status },
            { header: 'Status code', cell: (attempt) => attempt.httpStatus ?? '—', numeric: true },
            { header: 'Latency', cell: (attempt) => `${attempt.latencyMs} ms`, numeric: true },
            { header: 'Error', cell: (attempt) => attempt.error ?? '—' },
          ]}
        />
      )}
    </li>
  )
}
