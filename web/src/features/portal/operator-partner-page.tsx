import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createLazyRoute, Link } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { api, fieldErrors, unwrap } from '../../api/client'
import { operatorPartnerRoute } from '../../app/routes'
import { Button, Dialog, ErrorState, FormError, Loading, PageHeader, TextField } from '../../ui'
import { operatorPartnerQuery, type OperatorPartner } from './portal-api'
import {
  PARTNER_STATUS_NAMES,
  REGION_NAMES,
  STEP_NAMES,
  STEP_STATUS_NAMES,
  TIER_NAMES,
  type Tier,
} from './portal-names'

type Decision = 'approve' | 'request-changes' | 'reject' | 'suspend' | 'resume'

const DECISIONS: Record<Decision, { label: string; reason: boolean; when: readonly string[] }> = {
  approve: { label: 'Approve', reason: false, when: ['in_review'] },
  'request-changes': { label: 'Request changes', reason: true, when: ['in_review'] },
  reject: { label: 'Reject', reason: true, when: ['in_review'] },
  suspend: { label: 'Suspend', reason: true, when: ['live'] },
  resume: { label: 'Resume', reason: false, when: ['suspended'] },
}

/** One partner as an operator sees it: the application, the agreement's evidence, the steps, and the decisions. */
function OperatorPartnerPage() {
  const { partnerId } = operatorPartnerRoute.useParams()
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
          {TIER_NAMES[data.tier as Tier] ?? data.tier} · {REGION_NAMES[data.region] ?? data.region} ·{' '}
          {PARTNER_STATUS_NAMES[data.status] ?? data.status} · <code>{data.id}</code>
        </p>
      </PageHeader>
      <Evidence partner={data} />
      {decision ? <DecisionDialog partner={data} decision={decision} onClose={() => setDecision(null)} /> : null}
    </>
  )
}

function Evidence({ partner }: { partner: OperatorPartner }) {
  const record = partner as unknown as Record<string, unknown>
  const application = record.application as Record<string, unknown> | null | undefined
  const agreement = record.agreement as Record<string, unknown> | null | undefined
  return (
    <>
      <section aria-labelledby="steps-heading">
        <h2 id="steps-heading">Onboarding</h2>
        <ul>
          {partner.onboarding.steps.map((step) => (
            <li key={step.key}>
              {STEP_NAMES[step.key] ?? step.key}: {STEP_STATUS_NAMES[step.status] ?? step.status}
              {step.completedAt ? ` (${step.completedAt.slice(0, 10)})` : ''}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="application-heading">
        <h2 id="application-heading">Application</h2>
        {application ? <Fields record={application} /> : <p>Not submitted yet.</p>}
      </section>
      <section aria-labelledby="agreement-heading">
        <h2 id="agreement-heading">Agreement</h2>
        {agreement ? <Fields record={agreement} /> : <p>Not signed yet.</p>}
      </section>
    </>
  )
}

/** Every field of a record as the API gives it: evidence is shown, not summarised. */
function Fields({ record }: { record: Record<string, unknown> }) {
  return (
    <dl className="details">
      {Object.entries(record).map(([key, value]) => (
        <div key={key}>
          <dt>{key}</dt>
          <dd>{typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value ?? '—')}</dd>
        </div>
      ))}
    </dl>
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
  const queryClient = useQueryClient()
  const spec = DECISIONS[decision]
  const decide = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      unwrap(
        api.POST(`/api/operator/partners/{id}/${decision}` as '/api/operator/partners/{id}/approve', {
          params: { path: { id: partner.id } },
          body: body as never,
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['operator'] })
      onClose()
    },
  })
  const { fields, general } = fieldErrors(decide.error)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const body: Record<string, unknown> = {}
    if (spec.reason) body.reason = String(form.get('reason'))
    if (decision === 'approve' && partner.tier === 'platform_integrator') {
      for (const name of ['rateLimit', 'burst']) {
        const value = String(form.get(name) ?? '').trim()
        if (value !== '') body[name] = /^\d+$/.test(value) ? Number(value) : value
      }
    }
    decide.mutate(body)
  }
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title={`${spec.label}: ${partner.company}`}>
      <form onSubmit={submit} noValidate>
        <FormError message={general} />
        {spec.reason ? (
          <TextField label="Reason (shown to the partner)" name="reason" required error={fields.reason} />
        ) : null}
        {decision === 'approve' && partner.tier === 'platform_integrator' ? (
          <>
            <TextField label="Requests per minute" name="rateLimit" inputMode="numeric" error={fields.rateLimit} />
            <TextField label="Burst" name="burst" inputMode="numeric" error={fields.burst} />
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
