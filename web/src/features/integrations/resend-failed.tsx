import { useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, ConfirmDialog, formatDateTime, FormError, TextField } from '../../ui'
import { localInputToIso, toLocalInput } from '../../ui/local-date-time'
import { useRedeliverFailed } from './integrations-api'

const LABELS = { since: 'Failed since' }

/**
 * "Resend failed deliveries since…": a time on the reader's clock (a day ago to start with), asked
 * first (how many is not known in advance: every failed delivery since then), then how many were queued.
 */
export function ResendFailed({ webhookId }: { webhookId: string }) {
  const [since, setSince] = useState(() => toLocalInput(new Date(Date.now() - 24 * 3600 * 1000)))
  const [confirming, setConfirming] = useState<string | null>(null)
  const resend = useRedeliverFailed(webhookId)
  const [empty, setEmpty] = useState(false)
  const { fields, general } = formErrors(resend.error, LABELS)
  const iso = localInputToIso(since)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setEmpty(!iso)
    if (iso) {
      resend.reset()
      setConfirming(iso)
    }
  }
  const sinceError = empty ? 'Choose the date and time to resend from' : fields.since
  return (
    <section aria-labelledby="resend-failed-heading" className="section">
      <h2 id="resend-failed-heading">Resend failed deliveries</h2>
      <form className="resend-failed" onSubmit={submit} noValidate>
        <TextField
          label={LABELS.since}
          name="since"
          type="datetime-local"
          value={since}
          onChange={(event) => setSince(event.target.value)}
          error={confirming ? undefined : sinceError}
        />
        <div>
          <Button type="submit">Resend failed deliveries…</Button>
        </div>
      </form>
      {!confirming ? <FormError message={general} /> : null}
      {resend.data && !resend.isPending ? (
        <p role="status">
          {resend.data.redelivered === 1
            ? '1 delivery queued again.'
            : `${resend.data.redelivered} deliveries queued again.`}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => (open ? undefined : setConfirming(null))}
        title="Resend failed deliveries?"
        description={`Every failed delivery since ${confirming ? formatDateTime(confirming) : ''} is sent again, each as a new run of the retry schedule.`}
        confirm="Resend every failed delivery"
        busy={resend.isPending}
        error={general ?? fields.since ?? null}
        onConfirm={() => confirming && resend.mutate(confirming, { onSuccess: () => setConfirming(null) })}
      />
    </section>
  )
}
