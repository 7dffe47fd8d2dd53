import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { credentialsRoute } from '../../app/routes'
import { useSession } from '../../app/session'
import { CredentialsList } from './credentials-list'
import { SETTINGS_PATHS } from './integrations-api'

function CredentialsListPage() {
  const { cursor } = credentialsRoute.useSearch()
  const navigate = useNavigate({ from: '/settings/credentials' })
  const { can } = useSession()
  return (
    <CredentialsList
      basePath={SETTINGS_PATHS.credentials}
      cursor={cursor}
      onCursor={(next) => void navigate({ search: next ? { cursor: next } : {} })}
      canWrite={can('clients:write')}
    />
  )
}

export const route = createLazyRoute('/app/settings/credentials')({ component: CredentialsListPage })
