import type { ReactNode } from 'react'
import { useNavigate, useParams, useSearch } from '@tanstack/react-router'
import type { Access } from '../../../../src/platform/permissions.js'
import { useSession } from '../../app/session'
import { CredentialCreate } from './credential-create'
import { CredentialDetail } from './credential-detail'
import { CredentialsList } from './credentials-list'
import type { IntegrationPaths } from './integrations-api'
import { WebhookCreate } from './webhook-create'
import { WebhookDetail } from './webhook-detail'
import { WebhooksList } from './webhooks-list'

const CLIENTS_WRITE: Access = 'clients:write'
const WEBHOOKS_WRITE: Access = 'webhooks:write'

/** The page's cursor (a search parameter) and a way to change it, wherever the page is mounted. */
function useCursor(): [string | undefined, (cursor: string | null | undefined) => void] {
  const search = useSearch({ strict: false }) as { cursor?: string }
  const navigate = useNavigate()
  return [search.cursor, (next) => void navigate({ to: '.', search: next ? { cursor: next } : {} })]
}

function useIdParam(): string {
  return (useParams({ strict: false }) as { id: string }).id
}

/**
 * The credentials and webhooks pages for one mount (the org's settings, the partner portal): each
 * page reads its id and cursor from wherever it is mounted and links under `paths`. `extra` adds a
 * section under a credential (the portal's request log).
 */
export function integrationPages(paths: IntegrationPaths, extra: { credential?: (id: string) => ReactNode } = {}) {
  return {
    CredentialsList() {
      const [cursor, onCursor] = useCursor()
      const { can } = useSession()
      return (
        <CredentialsList
          basePath={paths.credentials}
          cursor={cursor}
          onCursor={onCursor}
          canWrite={can(CLIENTS_WRITE)}
        />
      )
    },
    NewCredential() {
      return <CredentialCreate basePath={paths.credentials} />
    },
    Credential() {
      const id = useIdParam()
      const { can } = useSession()
      return (
        <>
          <CredentialDetail key={id} id={id} basePath={paths.credentials} canWrite={can(CLIENTS_WRITE)} />
          {extra.credential?.(id)}
        </>
      )
    },
    WebhooksList() {
      const [cursor, onCursor] = useCursor()
      const { can } = useSession()
      return (
        <WebhooksList basePath={paths.webhooks} cursor={cursor} onCursor={onCursor} canWrite={can(WEBHOOKS_WRITE)} />
      )
    },
    NewWebhook() {
      return <WebhookCreate basePath={paths.webhooks} />
    },
    Webhook() {
      const id = useIdParam()
      const [cursor, onCursor] = useCursor()
      const { can } = useSession()
      return (
        <WebhookDetail
          key={id}
          id={id}
          basePath={paths.webhooks}
          deliveriesCursor={cursor}
          onDeliveriesCursor={onCursor}
          canWrite={can(WEBHOOKS_WRITE)}
        />
      )
    },
  }
}
