import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { ApiError } from '../../api/client'
import { formErrors } from '../../api/messages'
import { Button, ErrorState, FormError, Loading, PageHeader, SelectField, TextField } from '../../ui'
import { deploymentQuery, partnerQuery, useApplyPartner, type PartnerApplyRequest } from './portal-api'
import { TIER_HINT, TIER_NAMES, TIERS, type Tier } from './portal-names'
import { RegionChoice } from './region-choice'
import { SandboxReady } from './sandbox-ready'
import { sandboxOf, unsavedSandbox, type Sandbox } from './sandbox'

const LABELS = { company: 'Company', tier: 'Partner tier', region: 'Data region' }

/**
 * A signed-in account that is not a partner applies with itself: its orgs stay as they are, and a
 * sandbox org (now the active one) and a sandbox credential are added, shown with the quick start.
 */
function PartnerApplyPage() {
  const [sandbox, setSandbox] = useState<Sandbox | null>(unsavedSandbox)
  const partner = useQuery({ ...partnerQuery, retry: false, refetchInterval: false })
  const deployment = useQuery(deploymentQuery)
  const apply = useApplyPartner((answer) => setSandbox(sandboxOf(answer)))
  const { fields, general } = formErrors(apply.error, LABELS)
  const [company, setCompany] = useState('')

  if (sandbox)
    return (
      <>
        <PageHeader title="Your sandbox is ready" />
        <SandboxReady sandbox={sandbox} />
      </>
    )
  if (partner.isPending) return <Loading label="Loading your account…" />
  if (partner.isSuccess)
    return (
      <>
        <PageHeader title="Apply as a partner" />
        <p>
          This account is a partner already: {partner.data.company}. <Link to="/portal">Open the partner portal</Link>.
        </p>
      </>
    )
  if (!(partner.error instanceof ApiError && partner.error.status === 404))
    return <ErrorState error={partner.error} onRetry={() => void partner.refetch()} />
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    apply.mutate({
      company: String(form.get('company')),
      tier: String(form.get('tier')) as Tier,
      region: String(form.get('region')) as PartnerApplyRequest['region'],
    })
  }
  return (
    <>
      <PageHeader title="Apply as a partner">
        <p>
          With this account: your organisations stay as they are, and a sandbox organisation with demo data and a
          sandbox credential are added for you to build with.
        </p>
      </PageHeader>
      <form onSubmit={submit} noValidate className="form">
        <FormError message={general} />
        <TextField
          label={LABELS.company}
          name="company"
          autoComplete="organization"
          required
          value={company}
          onChange={(event) => setCompany(event.target.value)}
          error={fields.company}
        />
        <SelectField
          label={LABELS.tier}
          name="tier"
          defaultValue="api_partner"
          options={TIERS.map((tier) => ({ value: tier, label: TIER_NAMES[tier] }))}
          hint={TIER_HINT}
          error={fields.tier}
        />
        {deployment.data ? (
          <RegionChoice deployment={deployment.data} carried={{ company }} error={fields.region} />
        ) : null}
        <div>
          <Button type="submit" variant="primary" busy={apply.isPending} disabled={!deployment.data}>
            Apply as a partner
          </Button>
        </div>
      </form>
    </>
  )
}

export const route = createLazyRoute('/app/portal/apply')({ component: PartnerApplyPage })
