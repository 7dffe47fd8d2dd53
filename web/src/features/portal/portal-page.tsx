import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link } from '@tanstack/react-router'
import { ApiError } from '../../api/client'
import { useSession } from '../../app/session'
import { EmptyState, ErrorState, Loading, PageHeader } from '../../ui'
import { OnboardingChecklist } from './onboarding-steps'
import { operatorPartnersQuery, partnerQuery, type Partner } from './portal-api'
import { PARTNER_STATUS_NAMES, REGION_NAMES, TIER_NAMES } from './portal-names'

/** The partner's home: who they are, where onboarding stands and what is due, limits, and the way in. */
function PortalPage() {
  const partner = useQuery(partnerQuery)
  const { role } = useSession()
  const operatorLink = <OperatorLink />
  if (partner.isPending) return <Loading label="Loading your partner account…" />
  if (partner.error instanceof ApiError && partner.error.status === 404) {
    return (
      <>
        <PageHeader title="Partner portal" />
        {operatorLink}
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
          {data.company} · {TIER_NAMES[data.tier]} · {REGION_NAMES[data.region] ?? data.region} ·{' '}
          <span className={`badge badge-${data.status}`}>{PARTNER_STATUS_NAMES[data.status] ?? data.status}</span>
        </p>
      </PageHeader>
      {operatorLink}
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

/** Operators get a way to the console; for anyone else the queue answers 404 and nothing shows. */
function OperatorLink() {
  const queue = useQuery({ ...operatorPartnersQuery({}), retry: false })
  if (!queue.isSuccess) return null
  return (
    <p>
      <Link to="/portal/operator" search={{}}>
        Operator console
      </Link>
      : review partners and decide.
    </p>
  )
}

function CurrentlyDue({ partner }: { partner: Partner }) {
  const due = partner.onboarding.currentlyDue
  if (due.length === 0) return <p>Nothing is due from you.</p>
  return <p>Due from you now: {due.map((key) => key.replaceAll('_', ' ')).join(', ')}.</p>
}

function Limits({ partner }: { partner: Partner }) {
  const { sandbox, production } = partner.limits
  return (
    <>
      <h3>Rate limits</h3>
      <dl className="details">
        <dt>Sandbox</dt>
        <dd>
          {sandbox.perMinute} requests a minute, bursts of {sandbox.burst}
        </dd>
        <dt>Production</dt>
        <dd>
          {production
            ? `${production.perMinute} requests a minute, bursts of ${production.burst}`
            : 'Set by our reviewers when you are approved'}
        </dd>
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
