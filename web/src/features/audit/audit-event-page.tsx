import { useMutation, useQuery } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { problemMessage } from '../../api/messages'
import { Button, DateTime, ErrorState, Loading, PageHeader } from '../../ui'
import { auditEventQuery, checkInclusion, hashRecomputes, type OrgEventDetail } from './audit-api'

const routeApi = getRouteApi('/app/audit/$eventId')

/** The event's own hash, recomputed in the browser from the fields shown and the previous hash. */
function HashCheck({ event }: { event: OrgEventDetail }) {
  const check = useQuery({
    queryKey: ['audit', 'recompute', event.id, event.hash, event.previousHash],
    queryFn: () => hashRecomputes(event),
    staleTime: Infinity,
  })
  if (check.isPending) return <>checking…</>
  if (check.error) return <>could not be recomputed: {String(check.error)}</>
  return check.data ? (
    <span className="verdict-ok">matches the fields and the previous hash</span>
  ) : (
    <span className="verdict-broken">does not match: the fields or the previous hash were changed</span>
  )
}

/** "Verify inclusion": the proof, its seal and the signing keys, checked here with Web Crypto. */
function InclusionCheck({ event }: { event: OrgEventDetail }) {
  const verify = useMutation({ mutationFn: () => checkInclusion(event) })
  return (
    <section aria-labelledby="inclusion-title">
      <h2 id="inclusion-title">Inclusion in a seal</h2>
      <p className="muted">
        Fetches the event’s inclusion proof in the newest seal, the seal and the service’s public keys
        (/v1/evidence/keys), and checks in this browser that the seal is signed by its key and that the proof leads from
        this event’s hash to the seal’s root.
      </p>
      <Button variant="primary" onClick={() => verify.mutate()} busy={verify.isPending}>
        Verify inclusion
      </Button>
      <div role="status" className="chain-check-result">
        {verify.isPending ? (
          <p>Verifying…</p>
        ) : verify.error ? (
          <p className="verdict-broken">Could not verify: {problemMessage(verify.error)}</p>
        ) : verify.data?.verified ? (
          <p className="verdict-ok">
            Included in seal {verify.data.sealId} signed by key {verify.data.keyId}: verified
          </p>
        ) : verify.data ? (
          <p className="verdict-broken">
            Not verified{verify.data.sealId ? ` against seal ${verify.data.sealId}` : ''}: {verify.data.reason}
          </p>
        ) : null}
      </div>
    </section>
  )
}

function AuditEventPage() {
  const { eventId } = routeApi.useParams()
  const event = useQuery(auditEventQuery(eventId))
  if (event.isPending) return <Loading label="Loading the event…" />
  if (event.error) return <ErrorState error={event.error} onRetry={() => void event.refetch()} />
  const data = event.data
  return (
    <>
      <PageHeader title={`Event ${data.sequence}: ${data.action}`}>
        <p>
          <Link to="/audit">Back to the audit log</Link>
        </p>
      </PageHeader>
      <dl className="details">
        <dt>Id</dt>
        <dd>{data.id}</dd>
        <dt>Sequence</dt>
        <dd>{data.sequence}</dd>
        <dt>Action</dt>
        <dd>{data.action}</dd>
        <dt>Time</dt>
        <dd>
          <DateTime value={data.createdAt} />
        </dd>
        <dt>Actor</dt>
        <dd>{data.userId}</dd>
        <dt>Resource</dt>
        <dd>{data.resource ? `${data.resource.type} ${data.resource.id}` : '—'}</dd>
        <dt>Org</dt>
        <dd>{data.orgId}</dd>
        <dt>Hash</dt>
        <dd>
          <code>{data.hash}</code>
        </dd>
        <dt>Previous hash</dt>
        <dd>
          <code>{data.previousHash}</code>
        </dd>
        <dt>Recomputed hash</dt>
        <dd>
          <HashCheck event={data} />
        </dd>
      </dl>
      <h2>Data</h2>
      <pre className="json" role="region" tabIndex={0} aria-label="The event's data as JSON">
        {JSON.stringify(data.data, null, 2)}
      </pre>
      <InclusionCheck event={data} />
    </>
  )
}

export const route = createLazyRoute('/app/audit/$eventId')({ component: AuditEventPage })
