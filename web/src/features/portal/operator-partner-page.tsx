import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import {
  Button,
  CalendarDate,
  DateTime,
  Dialog,
  ErrorState,
  Field,
  FormError,
  Loading,
  PageHeader,
  TextField,
} from '../../ui'
import { operatorPartnerQuery, useDecision, type Decision, type DecisionBody, type OperatorPartner } from './portal-api'
import { PARTNER_STATUS_NAMES, REGION_NAMES, STEP_NAMES, STEP_STATUS_NAMES, TIER_NAMES } from './portal-names'
import { WaitingSince } from './waiting-since'
import './onboarding.css'

const routeApi = getRouteApi('/app/portal/operator/$partnerId')

const DECISION_LABELS = { reason: 'Reason (shown to the partner)', rateLimit: 'Requests per minute', burst: 'Burst' }

const DECISIONS: Record<Decision, { label: string; reason: boolean; when: readonly string[] }> = {
  approve: { label: 'Approve', reason: false, when: ['in_review'] },
  'request-changes': { label: 'Request changes', reason: true, when: ['in_review'] },
  reject: { label: 'Reject', reason: true, when: ['in_review'] },
  suspend: { label: 'Suspend', reason: true, when: ['live'] },
  resume: { label: 'Resume', reason: false, when: ['suspended'] },
}

/** One partner as an operator sees it: the application, the agreement's evidence, the steps, and the decisions. */
function OperatorPartnerPage() {
  const { partnerId } = routeApi.useParams()
  const partner = useQuery(operatorPartnerQuery(partnerId))
  const [decision, setDecision] = useState<Decision | null>(null)
  if (partner.isPending) return <Loading label="Loading the partner…" />
  if (partner.error) return <ErrorState error={partner.error} onRetry={() => void partner.refetch()} />
  const data = partner.data
  const available = (Object.keys(DECISIONS) as Decision[]).filter((key) => DECISIONS[key].when.includes(data.status))
  return (
    <>
      <p>
        <Link to="/portal/operator">Review queue</Link>
      </p>
      <PageHeader
        title={data.company}
        actions={available.map((key) => (
          <Button key={key} variant={key === 'approve' ? 'primary' : 'secondary'} onClick={() => setDecision(key)}>
            {DECISIONS[key].label}
          </Button>
        ))}
      >
        <p>
          {TIER_NAMES[data.tier]} · {REGION_NAMES[data.region] ?? data.region} ·{' '}
          {PARTNER_STATUS_NAMES[data.status] ?? data.status} · <code>{data.id}</code>
        </p>
      </PageHeader>
      <Evidence partner={data} />
      {decision ? <DecisionDialog partner={data} decision={decision} onClose={() => setDecision(null)} /> : null}
    </>
  )
}

function Evidence({ partner }: { partner: OperatorPartner }) {
  const { application, agreement } = partner
  return (
    <>
      <section aria-labelledby="steps-heading">
        <h2 id="steps-heading">Onboarding</h2>
        <ul>
          {partner.onboarding.steps.map((step) => (
            <li key={step.key}>
              {STEP_NAMES[step.key] ?? step.key}: {STEP_STATUS_NAMES[step.status] ?? step.status}
              {step.completedAt ? (
                <>
                  {' '}
                  (<DateTime value={step.completedAt} />)
                </>
              ) : null}
            </li>
          ))}
        </ul>
        {partner.statusReason ? (
          <div>
            Last reason given: <p className="pre-line">{partner.statusReason}</p>
          </div>
        ) : null}
        <OpenReview partner={partner} />
      </section>
      <section aria-labelledby="application-heading">
        <h2 id="application-heading">Application</h2>
        {application ? (
          <dl className="details">
            <dt>Submitted by</dt>
            <dd>
              {partner.user.name} ({partner.user.email ?? 'no email'}), <DateTime value={application.submittedAt} />
            </dd>
            <dt>Website</dt>
            <dd>{application.website}</dd>
            <dt>Use case</dt>
            <dd className="pre-line">{application.useCase}</dd>
            <dt>Expected requests per month</dt>
            <dd>{application.expectedMonthlyRequests}</dd>
          </dl>
        ) : (
          <p>Not submitted yet.</p>
        )}
      </section>
      <ApplicationVersions partner={partner} />
      <section aria-labelledby="agreement-heading">
        <h2 id="agreement-heading">Agreement</h2>
        {agreement ? (
          <dl className="details">
            <dt>Version</dt>
            <dd>{agreement.version}</dd>
            <dt>Signed by</dt>
            <dd>
              {agreement.signerName} (user <code>{agreement.userId}</code>) at <DateTime value={agreement.signedAt} />{' '}
              from {agreement.address}
            </dd>
            <dt>SHA-256 of the text signed</dt>
            <dd>
              <code>{agreement.textSha256}</code>
            </dd>
          </dl>
        ) : (
          <p>Not signed yet.</p>
        )}
      </section>
      <ReviewRequests partner={partner} />
    </>
  )
}

function ReviewRequests({ partner }: { partner: OperatorPartner }) {
  return (
    <section aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">Review requests</h2>
      {partner.reviewRequests.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <ul>
          {partner.reviewRequests.map((review) => (
            <li key={review.id}>
              <DateTime value={review.requestedAt} />: {review.status.replace('_', ' ')}
              {review.reason ? <span className="pre-line"> ({review.reason})</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** While in review: since when the request has waited, and the day it is due by. */
function OpenReview({ partner }: { partner: OperatorPartner }) {
  const open = partner.reviewRequests.find((review) => review.status === 'open')
  if (!open) return null
  return (
    <p>
      Waiting for a decision since <WaitingSince iso={open.requestedAt} />
      {partner.reviewExpectedBy ? (
        <>
          ; due by <CalendarDate value={partner.reviewExpectedBy} />
        </>
      ) : null}
      .
    </p>
  )
}

/** Every version of the application, newest first, each as it was submitted. */
function ApplicationVersions({ partner }: { partner: OperatorPartner }) {
  const versions = partner.applications ?? []
  if (versions.length < 2) return null
  return (
    <section aria-labelledby="versions-heading">
      <h2 id="versions-heading">Every version of the application</h2>
      <ol className="application-versions">
        {versions.map((version) => (
          <li key={version.version}>
            <details>
              <summary>
                Version {version.version}, submitted <DateTime value={version.submittedAt} />
              </summary>
              <dl className="details">
                <dt>Website</dt>
                <dd className="wrap-anywhere">{version.website}</dd>
                <dt>Use case</dt>
                <dd className="pre-line">{version.useCase}</dd>
                <dt>Expected requests per month</dt>
                <dd>{version.expectedMonthlyRequests}</dd>
              </dl>
            </details>
          </li>
        ))}
      </ol>
    </section>
  )
}

function DecisionDialog({
  partner,
  decision,
  onClose,
}: {
  partner: OperatorPartner
  decision: Decision
  onClose: () => void
}) {
  const spec = DECISIONS[decision]
  const decide = useDecision(partner.id, decision)
  const { fields, general } = formErrors(decide.error, DECISION_LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const body: DecisionBody = {}
    if (spec.reason) body.reason = String(form.get('reason'))
    if (decision === 'approve' && partner.tier === 'platform_integrator') {
      for (const name of ['rateLimit', 'burst'] as const) {
        const value = String(form.get(name) ?? '').trim()
        // A non-number goes to the API as typed, which names the field.
        if (value !== '') body[name] = /^\d+$/.test(value) ? Number(value) : (value as unknown as number)
      }
    }
    decide.mutate(body, { onSuccess: onClose })
  }
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title={`${spec.label}: ${partner.company}`}>
      <form onSubmit={submit} noValidate>
        <FormError message={general} />
        {spec.reason ? (
          <Field label={DECISION_LABELS.reason} error={fields.reason}>
            {(control) => <textarea name="reason" rows={5} required {...control} />}
          </Field>
        ) : null}
        {decision === 'approve' && partner.tier === 'platform_integrator' ? (
          <>
            <TextField
              label={DECISION_LABELS.rateLimit}
              name="rateLimit"
              inputMode="numeric"
              error={fields.rateLimit}
            />
            <TextField label={DECISION_LABELS.burst} name="burst" inputMode="numeric" error={fields.burst} />
          </>
        ) : null}
        <Button type="submit" variant="primary" busy={decide.isPending}>
          {spec.label}
        </Button>
      </form>
    </Dialog>
  )
}

export const route = createLazyRoute('/app/portal/operator/$partnerId')({ component: OperatorPartnerPage })
