import { createLazyRoute } from '@tanstack/react-router'
import { credentialRoute } from '../../app/routes'
import { useSession } from '../../app/session'
import { CredentialDetail } from './credential-detail'
import { SETTINGS_PATHS } from './integrations-api'

function CredentialDetailPage() {
  const { id } = credentialRoute.useParams()
  const { can } = useSession()
  return <CredentialDetail key={id} id={id} basePath={SETTINGS_PATHS.credentials} canWrite={can('clients:write')} />
}

export const route = createLazyRoute('/app/settings/credentials/$id')({ component: CredentialDetailPage })
