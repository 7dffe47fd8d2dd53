import { Link } from '@tanstack/react-router'
import { buttonClass, DateTime, ListView, PageHeader, useListQuery } from '../../ui'
import { pageUnder, webhookListQuery, type Webhook } from './integrations-api'

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
  const list = useListQuery(webhookListQuery(cursor))
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
      <ListView<Webhook>
        list={list}
        loading="Loading webhooks…"
        cursor={cursor}
        onCursor={onCursor}
        empty={cursor ? 'No webhooks on this page' : 'No webhooks yet'}
        caption="Webhooks, newest first"
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
          { header: 'Created', cell: (webhook) => <DateTime value={webhook.createdAt} /> },
        ]}
      />
    </>
  )
}
