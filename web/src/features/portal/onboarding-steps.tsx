import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { FormEvent, ReactNode } from 'react'
import { api, fieldErrors, unwrap } from '../../api/client'
import { useIdempotencyKey } from '../../app/idempotency'
import { Button, Field, FormError, TextField } from '../../ui'
import { agreementQuery, type OnboardingStep, type Partner } from './portal-api'
import { STEP_NAMES, STEP_STATUS_NAMES } from './portal-names'

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
          {step.completedAt ? <p className="muted">Done on {step.completedAt.slice(0, 10)}.</p> : null}
          <StepBody step={step} partner={partner} canWrite={canWrite && step.status !== 'done'} />
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
        <p>Your brand file and domain for the white-label deployment. Our team will contact you for them.</p>
      )
    case 'provisioning':
      return step.expectedReadyAt ? <p>Your deployment is expected to be ready by {step.expectedReadyAt}.</p> : null
    case 'go_live':
      return <GoLive partner={partner} canWrite={canWrite} />
    default:
      return null
  }
}

function useStepMutation<Body>(call: (body: Body, key: string) => Promise<unknown>) {
  const queryClient = useQueryClient()
  const keyFor = useIdempotencyKey()
  return useMutation({
    mutationFn: (body: Body) => call(body, keyFor(body)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['partner'] }),
  })
}

function ApplicationForm() {
  const submitApplication = useStepMutation(
    (body: { website: string; useCase: string; expectedMonthlyRequests: number }, key: string) =>
      unwrap(api.POST('/api/partner/application', { body, params: { header: { 'Idempotency-Key': key } } })),
  )
  const { fields, general } = fieldErrors(submitApplication.error)
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
      <TextField label="Company website" name="website" type="url" required error={fields.website} />
      <Field label="What you will build" error={fields.useCase}>
        {(control) => <textarea name="useCase" rows={3} required {...control} />}
      </Field>
      <TextField
        label="Expected requests per month"
        name="expectedMonthlyRequests"
        inputMode="numeric"
        required
        error={fields.expectedMonthlyRequests}
      />
      <Button type="submit" variant="primary" busy={submitApplication.isPending}>
        Submit application
      </Button>
    </form>
  )
}

function AgreementForm() {
  const agreement = useQuery(agreementQuery)
  const sign = useStepMutation((body: { version: string; signerName: string; accepted: true }, key: string) =>
    unwrap(api.POST('/api/partner/agreement', { body, params: { header: { 'Idempotency-Key': key } } })),
  )
  const { fields, general } = fieldErrors(sign.error)
  if (agreement.isPending) return <p>Loading the agreement…</p>
  if (agreement.error) return <FormError message={agreement.error.message} />
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
      <TextField label="Signer’s full name" name="signerName" autoComplete="name" required error={fields.signerName} />
      <Field label="I accept the partner agreement" error={fields.accepted}>
        {(control) => <input type="checkbox" name="accepted" {...control} />}
      </Field>
      <Button type="submit" variant="primary" busy={sign.isPending}>
        Sign the agreement
      </Button>
    </form>
  )
}

function GoLive({ partner, canWrite }: { partner: Partner; canWrite: boolean }) {
  const request = useStepMutation((_: Record<string, never>, key: string) =>
    unwrap(api.POST('/api/partner/review-requests', { params: { header: { 'Idempotency-Key': key } } })),
  )
  const earlierDone = partner.onboarding.steps
    .filter((other) => other.key !== 'go_live')
    .every((other) => other.status === 'done')
  const reason = partner.status === 'changes_requested' || partner.status === 'rejected' ? partner.statusReason : null
  return (
    <>
      {reason ? (
        <p role="note">
          <strong>What our reviewers asked:</strong> {reason}
        </p>
      ) : null}
      {partner.status === 'live' ? <p>You are live: create production credentials under Credentials.</p> : null}
      {partner.status === 'in_review' ? <p>Your review is under way. You will hear from us by email.</p> : null}
      {canWrite && partner.status !== 'in_review' && partner.status !== 'live' ? (
        <>
          <FormError message={fieldErrors(request.error).general} />
          <Button variant="primary" disabled={!earlierDone} busy={request.isPending} onClick={() => request.mutate({})}>
            Request review
          </Button>
          {earlierDone ? null : <p className="muted">Every earlier step must be done first.</p>}
        </>
      ) : null}
    </>
  )
}

/** integration_testing: each of the three things the sandbox credentials must really do, and when they did. */
function IntegrationChecks({ step }: { step: OnboardingStep }) {
  const checks = step.checks
  const item = (label: ReactNode, at: string | null | undefined) => (
    <li>
      {label}: {at ? `done ${at.replace('T', ' ').slice(0, 16)} UTC` : 'not yet'}
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
