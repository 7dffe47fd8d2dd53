import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { formErrors } from '../../api/messages'
import { useSession } from '../../app/session'
import {
  Button,
  DateTime,
  EmptyState,
  FilterForm,
  ListView,
  PageHeader,
  SelectField,
  TextField,
  useListQuery,
  type Column,
} from '../../ui'
import { useCreatorChoices, type Creator } from '../creators/creators-api'
import {
  CATALOG_KINDS,
  CATALOG_PAGE_SIZES,
  catalogListQuery,
  KIND_LABELS,
  type CatalogEntry,
  type CatalogSearch,
} from './catalog-api'
import { StatusBadge } from './status-badge'

const routeApi = getRouteApi('/app/catalog')

const FILTERS = { q: 'Search titles and artists', kind: 'Kind', isrc: 'ISRC', creatorId: 'Creator' }

function CatalogListPage() {
  const search = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { can } = useSession()
  const creators = useCreatorChoices()
  const list = useListQuery(catalogListQuery(search))
  const filtered = Boolean(search.kind || search.isrc || search.creatorId || search.q)
  const filterErrors = formErrors(list.error, FILTERS)

  return (
    <>
      <PageHeader
        title="Catalog"
        actions={
          can('catalog:write') ? (
            <Button variant="primary" onClick={() => void navigate({ to: '/catalog/new' })}>
              New catalog entry
            </Button>
          ) : null
        }
      />
      <CatalogFilters search={search} creators={creators.data} errors={filterErrors.fields} />
      <ListView<CatalogEntry>
        list={list}
        loading="Loading the catalog…"
        errorMessage={filterErrors.general ?? 'Correct the filters above to see the catalog.'}
        cursor={search.cursor}
        onCursor={(cursor) => void navigate({ search: { ...search, cursor } })}
        empty={<CatalogEmptyState filtered={filtered} canWrite={can('catalog:write')} />}
        caption="Catalog entries, newest first"
        rowKey={(entry) => entry.id}
        columns={COLUMNS}
      />
    </>
  )
}

/** Kind, ISRC, creator and text, and the page size: all in the URL. */
function CatalogFilters({
  search,
  creators,
  errors,
}: {
  search: CatalogSearch
  creators: readonly Creator[] | undefined
  /** The API's messages for the filters it refused. */
  errors: Record<string, string>
}) {
  return (
    <FilterForm<CatalogSearch>
      label="Filter the catalog"
      search={search}
      keep={['limit']}
      read={(value) => ({
        kind: value('kind') as CatalogSearch['kind'],
        isrc: value('isrc'),
        creatorId: value('creatorId'),
        q: value('q'),
        limit: CATALOG_PAGE_SIZES.find((size) => String(size) === value('limit')),
      })}
    >
      <TextField label={FILTERS.q} name="q" type="search" defaultValue={search.q ?? ''} error={errors.q} />
      <SelectField
        label={FILTERS.kind}
        name="kind"
        defaultValue={search.kind ?? ''}
        options={[
          { value: '', label: 'Any kind' },
          ...CATALOG_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] })),
        ]}
      />
      <TextField label={FILTERS.isrc} name="isrc" defaultValue={search.isrc ?? ''} error={errors.isrc} />
      <SelectField
        label={FILTERS.creatorId}
        name="creatorId"
        defaultValue={search.creatorId ?? ''}
        options={[
          { value: '', label: 'Any creator' },
          ...(creators ?? []).map((creator) => ({ value: creator.id, label: creator.name })),
          // A creator from a shared link that is not among the first 100 still shows as chosen.
          ...(search.creatorId && !creators?.some((creator) => creator.id === search.creatorId)
            ? [{ value: search.creatorId, label: search.creatorId }]
            : []),
        ]}
      />
      <SelectField
        label="Rows per page"
        name="limit"
        defaultValue={String(search.limit ?? CATALOG_PAGE_SIZES[0])}
        options={CATALOG_PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))}
      />
    </FilterForm>
  )
}

/** No entry: say whether the filters hide some, or how the catalog gets its first. */
function CatalogEmptyState({ filtered, canWrite }: { filtered: boolean; canWrite: boolean }) {
  return (
    <EmptyState title={filtered ? 'No entries match these filters' : 'The catalog is empty'}>
      {filtered ? (
        <p>Change or clear the filters.</p>
      ) : canWrite ? (
        <p>Create the first entry: a work, a recording or a release, with its splits.</p>
      ) : (
        <p>Nothing has been catalogued in this org yet.</p>
      )}
    </EmptyState>
  )
}

const COLUMNS: readonly Column<CatalogEntry>[] = [
  {
    header: 'Title',
    cell: (entry) => (
      <Link to="/catalog/$id" params={{ id: entry.id }}>
        {entry.title}
        {entry.versionTitle ? ` (${entry.versionTitle})` : ''}
      </Link>
    ),
  },
  { header: 'Kind', cell: (entry) => KIND_LABELS[entry.kind] },
  { header: 'Artist', cell: (entry) => entry.displayArtist ?? '—' },
  {
    header: 'Identifier',
    cell: (entry) => entry.identifiers.isrc ?? entry.identifiers.iswc ?? entry.identifiers.upc ?? '—',
  },
  { header: 'Status', cell: (entry) => <StatusBadge status={entry.status} /> },
  { header: 'Created', cell: (entry) => <DateTime value={entry.createdAt} /> },
]

export const route = createLazyRoute('/app/catalog')({ component: CatalogListPage })
