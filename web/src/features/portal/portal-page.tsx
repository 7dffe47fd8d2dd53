import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link } from '@tanstack/react-router'
import { ApiError } from '../../api/client'
import { useSession } from '../../app/session'
import { CopyableId, EmptyState, ErrorState, Loading, PageHeader } from '../../ui'
import { OnboardingChecklist } from './onboarding-steps'
import { partnerQuery, type Partner } from './portal-api'
import { PARTNER_STATUS_NAMES, REGION_NAMES, TIER_NAMES } from './portal-names'
import { QuickStart } from './quick-start'

/** The partner's home: who they are, where onboarding stands and what is due, limits, and the way in. */
function PortalPage() {
  const partner = useQuery(partnerQuery)
  const { role } = useSession()
  if (partner.isPending) return <Loading label="Loading your partner account…" />
  if (partner.error instanceof ApiError && partner.error.status === 404) return <NotAPartner />
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
      <section aria-labelledby="onboarding-heading">
        <h2 id="onboarding-heading">Onboarding</h2>
        <CurrentlyDue partner={data} />
        <OnboardingChecklist partner={data} canWrite={role === 'owner' || role === 'admin'} />
      </section>
      <section aria-labelledby="integration-heading">
        <h2 id="integration-heading">Your integration</h2>
        <dl className="details">
          <dt>Sandbox org id</dt>
          <dd>
            <CopyableId label="org id" value={data.sandboxOrgId} of="the sandbox org" />
          </dd>
          <dt>Sandbox client id</dt>
          <dd>
            <CopyableId label="client id" value={data.sandboxClientId} of="the sandbox credential" />
          </dd>
        </dl>
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
      </section>
      {/* The sandbox credential is made with every read scope: its token may read the event feed. */}
      <QuickStart
        baseUrl={window.location.origin}
        orgId={data.sandboxOrgId}
        clientId={data.sandboxClientId}
        scopes={['events:read']}
        secret={null}
      />
    </>
  )
}

/** Signed in without a partner: apply with this account (its orgs stay as they are). */
function NotAPartner() {
  return (
    <>
      <PageHeader title="Partner portal" />
      <EmptyState title="This account is not a partner">
        <p>
          Partners build on Oeuvre’s API and get a sandbox organisation with demo data and credentials at once. Your
          organisations stay as they are.
        </p>
        <p>
          <Link to="/portal/apply" className="button button-primary">
            Apply as a partner with this account
          </Link>
        </p>
      </EmptyState>
    </>
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

export const route = createLazyRoute('/app/portal')({ component: PortalPage })
