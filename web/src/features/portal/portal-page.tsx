import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link } from '@tanstack/react-router'
import { ApiError } from '../../api/client'
import { useSession } from '../../app/session'
import { EmptyState, ErrorState, Loading, PageHeader } from '../../ui'
import { OnboardingChecklist } from './onboarding-steps'
import { partnerQuery, type Partner } from './portal-api'
import { PARTNER_STATUS_NAMES, REGION_NAMES, TIER_NAMES, type Tier } from './portal-names'

/** The partner's home: who they are, where onboarding stands and what is due, limits, and the way in. */
function PortalPage() {
  const partner = useQuery(partnerQuery)
  const { role } = useSession()
  if (partner.isPending) return <Loading label="Loading your partner account…" />
  if (partner.error instanceof ApiError && partner.error.status === 404) {
    return (
      <>
        <PageHeader title="Partner portal" />
        <EmptyState title="This account is not a partner">
          <p>
            Partners integrate with Oeuvre’s API and get sandbox credentials at once.{' '}
            <Link to="/portal/signup">Sign up as a partner</Link> with a new account.
          </p>
        </EmptyState>
      </>
    )
  }
  if (partner.error) return <ErrorState error={partner.error} onRetry={() => void partner.refetch()} />
  const data = partner.data
  return (
    <>
      <PageHeader title="Partner portal">
        <p>
          {data.company} · {TIER_NAMES[data.tier as Tier] ?? data.tier} · {REGION_NAMES[data.region] ?? data.region} ·{' '}
          <span className={`badge badge-${data.status}`}>{PARTNER_STATUS_NAMES[data.status] ?? data.status}</span>
        </p>
      </PageHeader>
      <section aria-labelledby="onboarding-heading">
        <h2 id="onboarding-heading">Onboarding</h2>
        <CurrentlyDue partner={data} />
        <OnboardingChecklist partner={data} canWrite={role === 'owner' || role === 'admin'} />
      </section>
      <section aria-labelledby="integration-heading">
        <h2 id="integration-heading">Your integration</h2>
        <ul>
          <li>
            <Link to="/portal/credentials">Credentials</Link>: sandbox now, production once you are live.
          </li>
          <li>
            <Link to="/portal/webhooks">Webhooks</Link>: register endpoints, send a test event, see every delivery.
          </li>
          <li>
            <a href="/docs">API reference</a> and the quick start below.
          </li>
        </ul>
        <Limits partner={data} />
        <QuickStart />
      </section>
    </>
  )
}

function CurrentlyDue({ partner }: { partner: Partner }) {
  const due = partner.onboarding.currentlyDue
  if (due.length === 0) return <p>Nothing is due from you.</p>
  return <p>Due from you now: {due.map((key) => key.replaceAll('_', ' ')).join(', ')}.</p>
}

function Limits({ partner }: { partner: Partner }) {
  const limits = partner.limits as Record<string, { rateLimit?: number; burst?: number } | null | undefined>
  const rows = Object.entries(limits).filter(([, value]) => value && typeof value === 'object')
  if (rows.length === 0) return null
  return (
    <>
      <h3>Rate limits</h3>
      <dl className="details">
        {rows.map(([name, value]) => (
          <div key={name}>
            <dt>{name === 'production' ? 'Production' : name === 'sandbox' ? 'Sandbox' : name}</dt>
            <dd>
              {value?.rateLimit ?? '—'} requests a minute, bursts of {value?.burst ?? '—'}
            </dd>
          </div>
        ))}
      </dl>
    </>
  )
}

function QuickStart() {
  const origin = window.location.origin
  return (
    <>
      <h3>Quick start</h3>
      <p>With the sandbox client’s id and secret (shown once at sign-up; rotate it under Credentials if lost):</p>
      <pre className="code-block">
        <code>{`curl -s -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials \\
  ${origin}/oauth/token
curl -s -H "Authorization: Bearer $ACCESS_TOKEN" \\
  ${origin}/v1/orgs/$ORG_ID/events`}</code>
      </pre>
    </>
  )
}

export const route = createLazyRoute('/app/portal')({ component: PortalPage })
