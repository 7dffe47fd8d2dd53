import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { FormEvent, ReactNode } from 'react'
import { formErrors, problemMessage } from '../../api/messages'
import { Button, CalendarDate, DateTime, Field, FormError, TextField } from '../../ui'
import {
  agreementQuery,
  useRequestReview,
  useSignAgreement,
  useSubmitApplication,
  type OnboardingStep,
  type Partner,
} from './portal-api'
import { STEP_NAMES, STEP_STATUS_NAMES } from './portal-names'
import './onboarding.css'

const APPLICATION_LABELS = {
  website: 'Company website',
  useCase: 'What you will build',
  expectedMonthlyRequests: 'Expected requests per month',
}
const AGREEMENT_LABELS = { signerName: 'Signer’s full name', accepted: 'I accept the partner agreement' }

/** Each step of the onboarding checklist, in the API's order, with its status and its form while due. */
export function OnboardingChecklist({ partner, canWrite }: { partner: Partner; canWrite: boolean }) {
  const steps = partner.onboarding.steps
  return (
    <ol className="checklist">
      {steps.map((step, index) => (
        <li key={step.key} className={`checklist-step step-${step.status}`}>
          <h3>
            {index + 1}. {STEP_NAMES[step.key] ?? step.key}{' '}
            <span className={`badge badge-${step.status}`}>{STEP_STATUS_NAMES[step.status] ?? step.status}</span>
          </h3>
          {step.completedAt ? (
            <p className="muted">
              Done on <DateTime value={step.completedAt} />.
            </p>
          ) : null}
          <StepBody step={step} partner={partner} canWrite={canWrite && step.status !== 'done'} />
          {step.key === 'application' ? <ApplicationRevision partner={partner} canWrite={canWrite} /> : null}
        </li>
      ))}
    </ol>
  )
}

function StepBody({
  step,
  partner,
  canWrite,
}: {
  step: OnboardingStep
  partner: Partner
  canWrite: boolean
}): ReactNode {
  switch (step.key) {
    case 'application':
      return canWrite ? <ApplicationForm /> : null
    case 'agreement':
      return canWrite ? <AgreementForm /> : null
    case 'integration_testing':
      return <IntegrationChecks step={step} />
    case 'brand_and_domain':
      return step.status === 'done' ? null : (
        <p>
          {step.detail ??
            'Your brand file and domain, for the white-label deployment: this step opens when those deployments exist.'}
        </p>
      )
    case 'provisioning':
      return step.expectedReadyAt ? (
        <p>
          Your deployment is expected to be ready by <CalendarDate value={step.expectedReadyAt} />.
        </p>
      ) : null
    case 'go_live':
      return <GoLive partner={partner} canWrite={canWrite} />
    default:
      return null
  }
}

function ApplicationForm({ current, resubmit = false }: { current?: Application | undefined; resubmit?: boolean }) {
  const submitApplication = useSubmitApplication()
  const { fields, general } = formErrors(submitApplication.error, APPLICATION_LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const requests = String(form.get('expectedMonthlyRequests')).trim()
    submitApplication.mutate({
      website: String(form.get('website')),
      useCase: String(form.get('useCase')),
      // An empty or non-numeric entry goes to the API as it is, which names the field.
      expectedMonthlyRequests: /^\d+$/.test(requests) ? Number(requests) : (requests as unknown as number),
    })
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Application">
      <FormError message={general} />
      <TextField
        label={APPLICATION_LABELS.website}
        name="website"
        type="url"
        required
        defaultValue={current?.website}
        error={fields.website}
      />
      <Field label={APPLICATION_LABELS.useCase} error={fields.useCase}>
        {(control) => <textarea name="useCase" rows={3} required defaultValue={current?.useCase} {...control} />}
      </Field>
      <TextField
        label={APPLICATION_LABELS.expectedMonthlyRequests}
        name="expectedMonthlyRequests"
        inputMode="numeric"
        required
        defaultValue={current ? String(current.expectedMonthlyRequests) : undefined}
        error={fields.expectedMonthlyRequests}
      />
      {submitApplication.isSuccess && resubmit ? (
        <p role="status">Your changed application is saved. Request the review again under Go live.</p>
      ) : null}
      <Button type="submit" variant="primary" busy={submitApplication.isPending}>
        {resubmit ? 'Resubmit application' : 'Submit application'}
      </Button>
    </form>
  )
}

type Application = Omit<NonNullable<Partner['applications']>[number], 'version' | 'submittedAt' | 'submittedBy'>

/**
 * Under the application: when changes are requested, the reviewer's reason beside the application as
 * it stands, to change and resubmit; and every earlier version, readable.
 */
function ApplicationRevision({ partner, canWrite }: { partner: Partner; canWrite: boolean }) {
  const versions = partner.applications ?? []
  const [latest, ...earlier] = versions
  return (
    <>
      {partner.status === 'changes_requested' ? (
        <div className="application-revision">
          {partner.statusReason ? (
            <div role="note" className="notice">
              <strong>What our reviewers asked:</strong>
              <p className="pre-line">{partner.statusReason}</p>
            </div>
          ) : null}
          {canWrite ? <ApplicationForm current={latest} resubmit /> : null}
        </div>
      ) : null}
      {earlier.length > 0 || (latest && partner.status !== 'changes_requested') ? (
        <details>
          <summary>Your application{versions.length > 1 ? `: ${versions.length} versions` : ''}</summary>
          <ol className="application-versions">
            {versions.map((version) => (
              <li key={version.version}>
                <h4>
                  Version {version.version}, submitted <DateTime value={version.submittedAt} />
                </h4>
                <dl className="details">
                  <dt>{APPLICATION_LABELS.website}</dt>
                  <dd className="wrap-anywhere">{version.website}</dd>
                  <dt>{APPLICATION_LABELS.useCase}</dt>
                  <dd className="pre-line">{version.useCase}</dd>
                  <dt>{APPLICATION_LABELS.expectedMonthlyRequests}</dt>
                  <dd>{version.expectedMonthlyRequests}</dd>
                </dl>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </>
  )
}

function AgreementForm() {
  const agreement = useQuery(agreementQuery)
  const sign = useSignAgreement()
  const { fields, general } = formErrors(sign.error, AGREEMENT_LABELS)
  if (agreement.isPending) return <p>Loading the agreement…</p>
  if (agreement.error) return <FormError message={problemMessage(agreement.error)} />
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    sign.mutate({
      version: agreement.data.version,
      signerName: String(form.get('signerName')),
      // Sent unchecked as it is (false), so the API names the field.
      accepted: (form.get('accepted') === 'on') as true,
    })
  }
  return (
    <form onSubmit={submit} noValidate aria-label="Partner agreement">
      <FormError message={general} />
      <div
        className="agreement-text"
        role="region"
        tabIndex={0}
        aria-label={`Partner agreement, version ${agreement.data.version}`}
      >
        {agreement.data.text}
      </div>
      <TextField
        label={AGREEMENT_LABELS.signerName}
        name="signerName"
        autoComplete="name"
        required
        error={fields.signerName}
      />
      <Field label={AGREEMENT_LABELS.accepted} error={fields.accepted}>
        {(control) => <input type="checkbox" name="accepted" {...control} />}
      </Field>
      <Button type="submit" variant="primary" busy={sign.isPending}>
        Sign the agreement
      </Button>
    </form>
  )
}

function GoLive({ partner, canWrite }: { partner: Partner; canWrite: boolean }) {
  const request = useRequestReview()
  const earlierDone = partner.onboarding.steps
    .filter((other) => other.key !== 'go_live')
    .every((other) => other.status === 'done')
  // A change request's reason shows beside the application (to change it there); a rejection's here.
  const reason = partner.status === 'rejected' ? partner.statusReason : null
  return (
    <>
      {reason ? (
        <p role="note">
          <strong>What our reviewers asked:</strong> {reason}
        </p>
      ) : null}
      {partner.status === 'live' ? <p>You are live: create production credentials under Credentials.</p> : null}
      {partner.status === 'in_review' ? <ReviewUnderWay partner={partner} /> : null}
      {canWrite && partner.status !== 'in_review' && partner.status !== 'live' ? (
        <>
          <FormError message={problemMessage(request.error)} />
          <Button variant="primary" disabled={!earlierDone} busy={request.isPending} onClick={() => request.mutate()}>
            Request review
          </Button>
          {earlierDone ? null : <p className="muted">Every earlier step must be done first.</p>}
        </>
      ) : null}
    </>
  )
}

/** When the review is expected, where the decision shows, and the email that says it (a choice of the account). */
function ReviewUnderWay({ partner }: { partner: Partner }) {
  return (
    <p>
      Your review is under way.{' '}
      {partner.reviewExpectedBy ? (
        <>
          Our reviewers decide by <CalendarDate value={partner.reviewExpectedBy} />.{' '}
        </>
      ) : null}
      The decision shows on this page, and is emailed to the account that made the partner unless it turned partner
      review emails off (<Link to="/account">your account’s emails</Link>).
    </p>
  )
}

/** integration_testing: each of the three things the sandbox credentials must really do, and when they did. */
function IntegrationChecks({ step }: { step: OnboardingStep }) {
  const checks = step.checks
  const item = (label: ReactNode, at: string | null | undefined) => (
    <li>
      {label}:{' '}
      {at ? (
        <>
          done <DateTime value={at} />
        </>
      ) : (
        'not yet'
      )}
    </li>
  )
  return (
    <>
      <p>Done by itself once your sandbox credentials have, for real:</p>
      <ul>
        {item(
          <>
            obtained a token at <code>/oauth/token</code>
          </>,
          checks?.tokenIssuedAt,
        )}
        {item(
          <>
            read the org event feed (<code>GET /v1/orgs/{'{orgId}'}/events</code>)
          </>,
          checks?.feedReadAt,
        )}
        {item('had a webhook delivery answered with a 2xx', checks?.webhookDeliveredAt)}
      </ul>
    </>
  )
}
