import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { problemMessage } from '../../api/messages'
import { useSession } from '../../app/session'
import { Button, ConfirmDialog, CopyableId, DateTime, ErrorState, Loading, PageHeader } from '../../ui'
import { credentialStatus } from './credentials-list'
import { credentialQuery, useRevokeCredential, useRotateCredential, type Credential } from './integrations-api'
import { SecretReveal } from './secret-reveal'

export interface CredentialDetailProps {
  id: string
  /** Where the credential pages are mounted (the list; the detail is `{basePath}/{id}`). */
  basePath: string
  /** Whether to offer rotate and revoke (the API refuses them to others anyway). */
  canWrite: boolean
}

/** One credential: its scopes, secret hint, grace period and last use; rotate its secret or revoke it. */
export function CredentialDetail({ id, basePath, canWrite }: CredentialDetailProps) {
  const credential = useQuery(credentialQuery(id))
  const [confirming, setConfirming] = useState<'rotate' | 'revoke' | null>(null)
  const rotate = useRotateCredential(id)
  const revoke = useRevokeCredential(id)
  const settled = { onSuccess: () => setConfirming(null) }

  if (credential.isPending) return <Loading label="Loading the credential…" />
  if (credential.error) return <ErrorState error={credential.error} onRetry={() => void credential.refetch()} />
  const data = credential.data
  const active = data.status === 'active'
  const rotated = rotate.data
  return (
    <>
      <PageHeader
        title={data.name}
        actions={
          canWrite && active ? (
            <>
              <Button onClick={() => setConfirming('rotate')}>Rotate secret</Button>
              <Button variant="danger" onClick={() => setConfirming('revoke')}>
                Revoke
              </Button>
            </>
          ) : null
        }
      >
        <p>
          <Link to={basePath}>All credentials</Link>
        </p>
      </PageHeader>
      {rotated && active ? (
        <SecretReveal label="New client secret" secret={rotated.secret}>
          <p role="status">
            The secret was rotated. The previous secret keeps working until{' '}
            <strong>
              <DateTime value={rotated.previousSecretExpiresAt} />
            </strong>
            .
          </p>
        </SecretReveal>
      ) : null}
      <CredentialFacts credential={data} />
      <ConfirmDialog
        open={confirming === 'rotate'}
        onOpenChange={(open) => setConfirming(open ? 'rotate' : null)}
        title="Rotate the secret?"
        description="A new secret is made and shown once. The current one keeps working for a grace period, so you can deploy the new one."
        confirm="Rotate the secret"
        busy={rotate.isPending}
        error={problemMessage(rotate.error)}
        onConfirm={() => rotate.mutate(undefined, settled)}
      />
      <ConfirmDialog
        open={confirming === 'revoke'}
        onOpenChange={(open) => setConfirming(open ? 'revoke' : null)}
        title={`Revoke ${data.name}?`}
        description="Its secrets stop working at once and its tokens are refused. This cannot be undone."
        confirm="Revoke the credential"
        variant="danger"
        busy={revoke.isPending}
        error={problemMessage(revoke.error)}
        onConfirm={() => revoke.mutate(undefined, settled)}
      />
    </>
  )
}

/** Its status, id, scopes, rate limit, secret hint and rotation, and when it was last used and from where. */
function CredentialFacts({ credential }: { credential: Credential }) {
  const { active } = useSession()
  return (
    <dl className="details">
      <dt>Status</dt>
      <dd>
        {credentialStatus(credential)}
        {credential.revokedAt ? (
          <>
            {' '}
            since <DateTime value={credential.revokedAt} />
          </>
        ) : null}
      </dd>
      <dt>Client id</dt>
      <dd>
        <CopyableId label="client id" value={credential.id} />
      </dd>
      {active ? (
        <>
          <dt>Org id</dt>
          <dd>
            <CopyableId label="org id" value={active.orgId} />
          </dd>
        </>
      ) : null}
      <dt>Environment</dt>
      <dd>{credential.environment}</dd>
      <dt>Scopes</dt>
      <dd>{credential.scopes.join(', ')}</dd>
      <dt>Rate limit</dt>
      <dd>
        {credential.rateLimit.perMinute} per minute, bursts of {credential.rateLimit.burst} ({credential.tier})
      </dd>
      <dt>Secret</dt>
      <dd>{credential.secretHint}</dd>
      <dt>Secret rotated</dt>
      <dd>
        <DateTime value={credential.secretRotatedAt} />
      </dd>
      <dt>Previous secret works until</dt>
      <dd>
        <DateTime value={credential.previousSecretExpiresAt} />
      </dd>
      <dt>Last used</dt>
      <dd>
        {credential.lastUsedAt ? (
          <>
            <DateTime value={credential.lastUsedAt} />
            {credential.lastUsedFrom ? ` from ${credential.lastUsedFrom}` : ''}
          </>
        ) : (
          'Never'
        )}
      </dd>
      <dt>Created</dt>
      <dd>
        <DateTime value={credential.createdAt} />
      </dd>
    </dl>
  )
}
