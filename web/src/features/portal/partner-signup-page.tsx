import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link, Navigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { formErrors } from '../../api/messages'
import { meQuery } from '../../app/session'
import { Button, FormError, Loading, SelectField, TextField } from '../../ui'
import { AuthLayout } from '../auth/auth-layout'
import {
  deploymentQuery,
  signUpPartner,
  type Deployment,
  type PartnerSignupRequest,
  type SignupDraft,
} from './portal-api'
import { TIER_HINT, TIER_NAMES, TIERS, type Tier } from './portal-names'
import { RegionChoice } from './region-choice'
import { SandboxReady } from './sandbox-ready'
import { sandboxOf, unsavedSandbox, type Sandbox } from './sandbox'

const routeApi = getRouteApi('/portal/signup')

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
 * in one answer, shown here with the quick start. Someone signed in applies with their account
 * instead (`/portal/apply`).
 */
function PartnerSignupPage() {
  const carried = routeApi.useSearch()
  const queryClient = useQueryClient()
  const me = useQuery({ ...meQuery, retry: false })
  const deployment = useQuery(deploymentQuery)
  // A sandbox whose secret was not yet saved when the page was reloaded is shown again.
  const [sandbox, setSandbox] = useState<Sandbox | null>(unsavedSandbox)
  const signup = useMutation({
    mutationFn: signUpPartner,
    onSuccess: (answer) => {
      setSandbox(sandboxOf(answer))
      queryClient.clear()
    },
  })

  if (sandbox)
    return (
      <AuthLayout title="Your sandbox is ready" wide>
        <SandboxReady sandbox={sandbox} />
      </AuthLayout>
    )
  if (me.isPending) return <Loading label="Loading…" />
  if (me.isSuccess) return <Navigate to="/portal/apply" replace />
  return (
    <AuthLayout title="Become a partner">
      <p>Partners build on Oeuvre’s API. You get a sandbox organisation with demo data and credentials at once.</p>
      <PartnerSignupForm
        deployment={deployment.data}
        carried={carried}
        busy={signup.isPending}
        error={signup.error}
        onSubmit={(request) => signup.mutate(request)}
      />
      <p>
        Have an account?{' '}
        <Link to="/login" search={{ redirect: '/portal/apply' }}>
          Log in to apply with it
        </Link>
      </p>
    </AuthLayout>
  )
}

const draftOf = (form: HTMLFormElement): SignupDraft => {
  const data = new FormData(form)
  const value = (name: string) => String(data.get(name) ?? '')
  return { name: value('name'), email: value('email'), company: value('company'), tier: value('tier') }
}

/** The account, the company, the tier and the data region (offered once the deployment's regions are known). */
function PartnerSignupForm({
  deployment,
  carried,
  busy,
  error,
  onSubmit,
}: {
  deployment: Deployment | undefined
  carried: SignupDraft
  busy: boolean
  error: unknown
  onSubmit: (request: PartnerSignupRequest) => void
}) {
  const { fields, general } = formErrors(error, LABELS)
  const [draft, setDraft] = useState<SignupDraft>(carried)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    onSubmit({
      ...(draftOf(event.currentTarget) as Required<SignupDraft>),
      password: String(form.get('password')),
      tier: String(form.get('tier')) as Tier,
      region: String(form.get('region')) as PartnerSignupRequest['region'],
    })
  }
  return (
    <form onSubmit={submit} onChange={(event) => setDraft(draftOf(event.currentTarget))} noValidate>
      <FormError message={general} />
      <TextField
        label={LABELS.name}
        name="name"
        autoComplete="name"
        required
        defaultValue={carried.name}
        error={fields.name}
      />
      <TextField
        label={LABELS.email}
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={carried.email}
        error={fields.email}
      />
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
      <TextField
        label={LABELS.company}
        name="company"
        autoComplete="organization"
        required
        defaultValue={carried.company}
        error={fields.company}
      />
      <SelectField
        label={LABELS.tier}
        name="tier"
        defaultValue={TIERS.find((tier) => tier === carried.tier) ?? 'api_partner'}
        options={TIERS.map((tier) => ({ value: tier, label: TIER_NAMES[tier] }))}
        hint={TIER_HINT}
        error={fields.tier}
      />
      {deployment ? <RegionChoice deployment={deployment} carried={draft} error={fields.region} /> : null}
      <Button type="submit" variant="primary" busy={busy} disabled={!deployment}>
        Sign up as a partner
      </Button>
    </form>
  )
}

export const route = createLazyRoute('/portal/signup')({ component: PartnerSignupPage })
