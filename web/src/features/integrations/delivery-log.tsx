import { ApiError } from '../../api/client'
import { problemMessage } from '../../api/messages'
import { Button, DateTime, FormError, ListView, Table, useListQuery } from '../../ui'
import { AttemptBodies } from './attempt-bodies'
import { deliveryListQuery, useRedeliver, type Attempt, type Delivery } from './integrations-api'
import './integrations.css'

const DELIVERY_STATUS: Record<Delivery['status'], string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
  blocked: 'Blocked',
}

/** A resend refused: the API's 409 (an attempt is under way) in people's words, else the catalogue's message. */
function resendMessage(error: unknown): string | null {
  if (error instanceof ApiError && error.status === 409)
    return 'An attempt of this delivery is under way right now. Wait until it has finished, then resend it.'
  return problemMessage(error)
}

/** The endpoint's deliveries, newest first, each with its attempts; asked again while one is pending. */
export function DeliveryLog({
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

/** One delivery: its status, Resend (whatever its status), its attempts and each attempt's bodies. */
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
        {canRedeliver ? (
          <Button busy={redeliver.isPending} onClick={() => redeliver.mutate()} aria-describedby={headingId}>
            Resend
          </Button>
        ) : null}
      </div>
      <p className="muted wrap-anywhere">
        {delivery.id} · event {delivery.eventId} · created <DateTime value={delivery.createdAt} />
        {delivery.nextAttemptAt ? (
          <>
            {' '}
            · next attempt <DateTime value={delivery.nextAttemptAt} />
          </>
        ) : null}
      </p>
      {/* The 409 holds only while the attempt runs: once the delivery has moved on, it is no longer news. */}
      <FormError
        message={
          redeliver.error instanceof ApiError && redeliver.error.status === 409 && delivery.status !== 'pending'
            ? null
            : resendMessage(redeliver.error)
        }
      />
      {redeliver.isSuccess && !redeliver.isPending ? (
        <p role="status">Resent: its new attempt shows below once made.</p>
      ) : null}
      {delivery.attempts.length === 0 ? (
        <p>No attempt yet.</p>
      ) : (
        <>
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
          <AttemptBodies attempts={delivery.attempts} />
        </>
      )}
    </li>
  )
}
