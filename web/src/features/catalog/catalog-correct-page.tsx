import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import { ErrorState, Loading, PageHeader } from '../../ui'
import { catalogEntryQuery, useCreateCatalogEntry } from './catalog-api'
import { CatalogForm } from './catalog-form'

const routeApi = getRouteApi('/app/catalog/$id/correct')

/** A correction is a new entry that supersedes this one; the old entry stays, marked superseded. */
function CorrectCatalogEntryPage() {
  const { id } = routeApi.useParams()
  const entry = useQuery(catalogEntryQuery(id))
  const create = useCreateCatalogEntry()
  const navigate = useNavigate()
  if (entry.isPending) return <Loading />
  if (entry.error) return <ErrorState error={entry.error} onRetry={() => void entry.refetch()} />
  return (
    <>
      <PageHeader title={`Correct “${entry.data.title}”`}>
        <p>
          Saving creates a new entry that supersedes{' '}
          <Link to="/catalog/$id" params={{ id }}>
            {id}
          </Link>
          . The old entry is kept, marked superseded, and links to the new one.
        </p>
      </PageHeader>
      <CatalogForm
        corrects={entry.data}
        submitLabel="Save correction"
        busy={create.isPending}
        error={create.error}
        onSubmit={(body) =>
          create.mutate(body, { onSuccess: (next) => void navigate({ to: '/catalog/$id', params: { id: next.id } }) })
        }
      />
    </>
  )
}

export const route = createLazyRoute('/app/catalog/$id/correct')({ component: CorrectCatalogEntryPage })
