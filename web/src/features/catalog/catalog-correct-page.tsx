import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link } from '@tanstack/react-router'
import { correctCatalogRoute } from '../../app/routes'
import { ErrorState, Loading, PageHeader } from '../../ui'
import { catalogEntryQuery } from './catalog-api'
import { CatalogForm } from './catalog-form'
import { useCreateCatalogEntry } from './catalog-new-page'

/** A correction is a new entry that supersedes this one; the old entry stays, marked superseded. */
function CorrectCatalogEntryPage() {
  const { id } = correctCatalogRoute.useParams()
  const entry = useQuery(catalogEntryQuery(id))
  const create = useCreateCatalogEntry()
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
        onSubmit={(body) => create.mutate(body)}
      />
    </>
  )
}

export const route = createLazyRoute('/app/catalog/$id/correct')({ component: CorrectCatalogEntryPage })
