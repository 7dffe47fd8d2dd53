import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createLazyRoute, Link } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { Button, FormError, SelectField, TextField } from '../../ui'
import { AuthLayout } from '../auth/auth-layout'
import { deploymentQuery, signUpPartner, type PartnerSignup, type PartnerSignupRequest } from './portal-api'
import { REGION_NAMES, TIER_NAMES, TIERS, type Tier } from './portal-names'
import { SecretReveal } from '../integrations/secret-reveal'

const LABELS = {
  name: 'Your name',
  email: 'Work email',
  password: 'Password',
  company: 'Company',
  tier: 'Partner tier',
  region: 'Data region',
}

/**
 * A partner signs up: an account, the partner, a sandbox org with demo data and a sandbox client,
 * in one answer. The client secret is shown here once; the next step is the portal.
 */
function PartnerSignupPage() {
  const queryClient = useQueryClient()
  const deployment = useQuery(deploymentQuery)
  const [created, setCreated] = useState<PartnerSignup | null>(null)
  const signup = useMutation({
    mutationFn: signUpPartner,
    onSuccess: (answer) => {
      queryClient.clear()
      setCreated(answer)
    },
  })

  if (created) return <SandboxReady created={created} />
  return (
    <AuthLayout title="Become a partner">
      <PartnerSignupForm
        deployment={deployment.data}
        busy={signup.isPending}
        error={signup.error}
        onSubmit={(request) => signup.mutate(request)}
      />
      <p>
        Have an account?{' '}
        <Link to="/login" search={{ redirect: '/portal' }}>
          Log in
        </Link>
      </p>
    </AuthLayout>
  )
}

/** Signed up: the partner, its sandbox client and the client secret, shown this once. */
function SandboxReady({ created }: { created: PartnerSignup }) {
  return (
    <AuthLayout title="Your sandbox is ready">
      <p>
        {created.partner.company} is signed up as {TIER_NAMES[created.partner.tier]} in{' '}
        {REGION_NAMES[created.partner.region] ?? created.partner.region}. Your sandbox org has demo data to try the API
        on.
      </p>
      <dl className="details">
        <dt>Client ID</dt>
        <dd>
          <code>{created.sandboxClient.id}</code>
        </dd>
        <dt>Scopes</dt>
        <dd>{created.sandboxClient.scopes.join(', ')}</dd>
      </dl>
      <SecretReveal label="Sandbox client secret" secret={created.sandboxClient.secret} />
      <p>
        <Link to="/portal">Continue to the partner portal</Link>
      </p>
    </AuthLayout>
  )
}

type Deployment = Awaited<ReturnType<typeof deploymentQuery.queryFn>>

/** The account, the company, the tier and the data region (offered once the deployment's regions are known). */
function PartnerSignupForm({
  deployment,
  busy,
  error,
  onSubmit,
}: {
  deployment: Deployment | undefined
  busy: boolean
  error: unknown
  onSubmit: (request: PartnerSignupRequest) => void
}) {
  const { fields, general } = formErrors(error, LABELS)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    onSubmit({
      name: String(form.get('name')),
      email: String(form.get('email')),
      password: String(form.get('password')),
      company: String(form.get('company')),
      tier: String(form.get('tier')) as Tier,
      region: String(form.get('region')) as PartnerSignupRequest['region'],
    })
  }
  const regions = deployment?.regions ?? []
  return (
    <form onSubmit={submit} noValidate>
      <FormError message={general} />
      <TextField label={LABELS.name} name="name" autoComplete="name" required error={fields.name} />
      <TextField label={LABELS.email} name="email" type="email" autoComplete="email" required error={fields.email} />
      <TextField
        label={LABELS.password}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        hint="At least 10 characters."
        error={fields.password}
      />
      <TextField label={LABELS.company} name="company" autoComplete="organization" required error={fields.company} />
      <SelectField
        label={LABELS.tier}
        name="tier"
        defaultValue="api_partner"
        options={TIERS.map((tier) => ({ value: tier, label: TIER_NAMES[tier] }))}
        hint="API Partner: integrate with the API. White-Label: run the app under your brand. Platform Integrator: limits agreed at review."
        error={fields.tier}
      />
      {deployment ? (
        <SelectField
          label={LABELS.region}
          name="region"
          key={deployment.region}
          defaultValue={deployment.region}
          options={regions.map(({ region }) => ({ value: region, label: REGION_NAMES[region] ?? region }))}
          hint="Where your data is kept. It is fixed once chosen."
          error={fields.region}
        />
      ) : null}
      <Button type="submit" variant="primary" busy={busy} disabled={!deployment}>
        Sign up as a partner
      </Button>
    </form>
  )
}

export const route = createLazyRoute('/portal/signup')({ component: PartnerSignupPage })
