import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { PageHeader } from '../../ui'
import { useCreateCatalogEntry } from './catalog-api'
import { CatalogForm } from './catalog-form'

function NewCatalogEntryPage() {
  const create = useCreateCatalogEntry()
  const navigate = useNavigate()
  return (
    <>
      <PageHeader title="New catalog entry" />
      <CatalogForm
        submitLabel="Create entry"
        busy={create.isPending}
        error={create.error}
        onSubmit={(body) =>
          create.mutate(body, { onSuccess: (entry) => void navigate({ to: '/catalog/$id', params: { id: entry.id } }) })
        }
      />
    </>
  )
}

export const route = createLazyRoute('/app/catalog/new')({ component: NewCatalogEntryPage })
