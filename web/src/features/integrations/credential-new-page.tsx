import { createLazyRoute } from '@tanstack/react-router'
import { CredentialCreate } from './credential-create'
import { SETTINGS_PATHS } from './integrations-api'

function NewCredentialPage() {
  return <CredentialCreate basePath={SETTINGS_PATHS.credentials} />
}

export const route = createLazyRoute('/app/settings/credentials/new')({ component: NewCredentialPage })
