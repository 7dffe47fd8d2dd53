import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createLazyRoute, useNavigate } from '@tanstack/react-router'
import { api, unwrap } from '../../api/client'
import { useIdempotencyKey } from '../../app/idempotency'
import { PageHeader } from '../../ui'
import { catalogKeys, type CreateCatalogEntry } from './catalog-api'
import { CatalogForm } from './catalog-form'

/** Creates a catalog entry; also the page a correction uses (with `supersedes`). */
export function useCreateCatalogEntry() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const keyFor = useIdempotencyKey()
  return useMutation({
    mutationFn: (body: CreateCatalogEntry) =>
      unwrap(api.POST('/api/catalog', { body, params: { header: { 'Idempotency-Key': keyFor(body) } } })),
    onSuccess: async (entry) => {
      await queryClient.invalidateQueries({ queryKey: catalogKeys.all })
      await navigate({ to: '/catalog/$id', params: { id: entry.id } })
    },
  })
}

function NewCatalogEntryPage() {
  const create = useCreateCatalogEntry()
  return (
    <>
      <PageHeader title="New catalog entry" />
      <CatalogForm
        submitLabel="Create entry"
        busy={create.isPending}
        error={create.error}
        onSubmit={(body) => create.mutate(body)}
      />
    </>
  )
}

export const route = createLazyRoute('/app/catalog/new')({ component: NewCatalogEntryPage })
