import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { buttonClass, EmptyState, ErrorState, Loading, PageHeader, Pagination, Table } from '../../ui'
import { credentialListQuery, pageUnder, when, type Credential } from './integrations-api'

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
  const list = useQuery({ ...credentialListQuery(cursor), placeholderData: keepPreviousData })
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
      </PageHeader>
      {list.isPending ? (
        <Loading label="Loading credentials…" />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={cursor ? 'No credentials on this page' : 'No credentials yet'} />
      ) : (
        <>
          <Table<Credential>
            caption="API credentials, newest first"
            rows={list.data.data}
            rowKey={(credential) => credential.id}
            columns={[
              {
                header: 'Name',
                cell: (credential) => <Link to={pageUnder(basePath, credential.id)}>{credential.name}</Link>,
              },
              { header: 'Status', cell: credentialStatus },
              { header: 'Environment', cell: (credential) => credential.environment },
              { header: 'Scopes', cell: (credential) => credential.scopes.join(', ') },
              { header: 'Secret', cell: (credential) => credential.secretHint },
              { header: 'Last used', cell: (credential) => when(credential.lastUsedAt) },
              { header: 'Created', cell: (credential) => when(credential.createdAt) },
            ]}
          />
          <Pagination
            nextCursor={list.data.pagination.cursor}
            hasMore={list.data.pagination.hasMore}
            paged={cursor !== undefined}
            onNext={(next) => onCursor(next)}
            onFirst={() => onCursor(undefined)}
          />
        </>
      )}
    </>
  )
}
