import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { buttonClass, EmptyState, ErrorState, Loading, PageHeader, Pagination, Table } from '../../ui'
import { pageUnder, webhookListQuery, when, type Webhook } from './integrations-api'

export interface WebhooksListProps {
  /** Where the webhook pages are mounted: `{basePath}/new`, `{basePath}/{id}`. */
  basePath: string
  /** The page's cursor (kept in the URL by the mounting route) and how to go to another page. */
  cursor: string | undefined
  onCursor: (cursor: string | undefined) => void
  /** Whether to offer "Register webhook" (the API refuses the write to others anyway). */
  canWrite: boolean
}

export const webhookStatus = (webhook: Webhook) =>
  webhook.status === 'enabled' ? 'Enabled' : `Disabled${webhook.disabledReason ? ` (${webhook.disabledReason})` : ''}`

/** The org's webhook endpoints, newest first. */
export function WebhooksList({ basePath, cursor, onCursor, canWrite }: WebhooksListProps) {
  const list = useQuery({ ...webhookListQuery(cursor), placeholderData: keepPreviousData })
  return (
    <>
      <PageHeader
        title="Webhooks"
        actions={
          canWrite ? (
            <Link to={pageUnder(basePath, 'new')} className={buttonClass('primary')}>
              Register webhook
            </Link>
          ) : null
        }
      >
        <p>Endpoints this organisation’s events are sent to, signed with each endpoint’s secret.</p>
      </PageHeader>
      {list.isPending ? (
        <Loading label="Loading webhooks…" />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={cursor ? 'No webhooks on this page' : 'No webhooks yet'} />
      ) : (
        <>
          <Table<Webhook>
            caption="Webhooks, newest first"
            rows={list.data.data}
            rowKey={(webhook) => webhook.id}
            columns={[
              {
                header: 'URL',
                cell: (webhook) => (
                  <Link to={pageUnder(basePath, webhook.id)} className="wrap-anywhere">
                    {webhook.url}
                  </Link>
                ),
              },
              { header: 'Kinds', cell: (webhook) => webhook.events.join(', ') },
              { header: 'Status', cell: webhookStatus },
              { header: 'Created', cell: (webhook) => when(webhook.createdAt) },
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
