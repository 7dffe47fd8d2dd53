import { Link } from '@tanstack/react-router'
import { useSession } from '../../app/session'
import { buttonClass, CopyableId, DateTime, ListView, PageHeader, useListQuery } from '../../ui'
import { credentialListQuery, pageUnder, type Credential } from './integrations-api'

export interface CredentialsListProps {
  /** Where the credential pages are mounted: `{basePath}/new`, `{basePath}/{id}`. */
  basePath: string
  /** The page's cursor (kept in the URL by the mounting route) and how to go to another page. */
  cursor: string | undefined
  onCursor: (cursor: string | undefined) => void
  /** Whether to offer "New credential" (the API refuses the write to others anyway). */
  canWrite: boolean
}

export const credentialStatus = (credential: Credential) => (credential.status === 'active' ? 'Active' : 'Revoked')

/** The org's API credentials (OAuth clients), newest first. */
export function CredentialsList({ basePath, cursor, onCursor, canWrite }: CredentialsListProps) {
  const list = useListQuery(credentialListQuery(cursor))
  const { active } = useSession()
  return (
    <>
      <PageHeader
        title="API credentials"
        actions={
          canWrite ? (
            <Link to={pageUnder(basePath, 'new')} className={buttonClass('primary')}>
              New credential
            </Link>
          ) : null
        }
      >
        <p>OAuth clients that call the /v1 API for this organisation with the client credentials grant.</p>
        {active ? (
          <p>
            Their calls name this organisation in the path, <code>/v1/orgs/{'{orgId}'}/…</code>: org id{' '}
            <CopyableId label="org id" value={active.orgId} />
          </p>
        ) : null}
      </PageHeader>
      <ListView<Credential>
        list={list}
        loading="Loading credentials…"
        cursor={cursor}
        onCursor={onCursor}
        empty={cursor ? 'No credentials on this page' : 'No credentials yet'}
        caption="API credentials, newest first"
        rowKey={(credential) => credential.id}
        columns={[
          {
            header: 'Name',
            cell: (credential) => <Link to={pageUnder(basePath, credential.id)}>{credential.name}</Link>,
          },
          {
            header: 'Client id',
            cell: (credential) => <CopyableId label="client id" value={credential.id} of={credential.name} />,
          },
          { header: 'Status', cell: credentialStatus },
          { header: 'Environment', cell: (credential) => credential.environment },
          { header: 'Scopes', cell: (credential) => credential.scopes.join(', ') },
          { header: 'Secret', cell: (credential) => credential.secretHint },
          {
            header: 'Last used',
            cell: (credential) => (credential.lastUsedAt ? <DateTime value={credential.lastUsedAt} /> : 'Never'),
          },
          { header: 'Created', cell: (credential) => <DateTime value={credential.createdAt} /> },
        ]}
      />
    </>
  )
}
