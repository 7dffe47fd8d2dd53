import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { CATALOG_KINDS, CATALOG_PAGE_SIZES, catalogRoute, type CatalogSearch } from '../../app/routes'
import { useSession } from '../../app/session'
import {
  Button,
  EmptyState,
  ErrorState,
  Loading,
  PageHeader,
  Pagination,
  SelectField,
  Table,
  TextField,
} from '../../ui'
import { useCreatorChoices } from '../creators/creators-api'
import { catalogListQuery, KIND_LABELS, type CatalogEntry } from './catalog-api'
import { StatusBadge } from './status-badge'

function CatalogListPage() {
  const search = catalogRoute.useSearch()
  const navigate = useNavigate({ from: '/catalog' })
  const { can } = useSession()
  const creators = useCreatorChoices()
  const list = useQuery({ ...catalogListQuery(search), placeholderData: keepPreviousData })
  const filtered = Boolean(search.kind || search.isrc || search.creatorId || search.q)

  const applyFilters = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const value = (name: string) => String(form.get(name) ?? '').trim() || undefined
    // New filters start from the first page: a cursor belongs to the filters it was made with.
    const next: CatalogSearch = {
      kind: value('kind') as CatalogSearch['kind'],
      isrc: value('isrc'),
      creatorId: value('creatorId'),
      q: value('q'),
      limit: CATALOG_PAGE_SIZES.find((size) => String(size) === value('limit')),
    }
    void navigate({ search: next })
  }

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
      <form
        className="filters"
        onSubmit={applyFilters}
        role="search"
        aria-label="Filter the catalog"
        key={JSON.stringify(search)}
      >
        <TextField label="Search titles and artists" name="q" type="search" defaultValue={search.q ?? ''} />
        <SelectField
          label="Kind"
          name="kind"
          defaultValue={search.kind ?? ''}
          options={[
            { value: '', label: 'Any kind' },
            ...CATALOG_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] })),
          ]}
        />
        <TextField label="ISRC" name="isrc" defaultValue={search.isrc ?? ''} />
        <SelectField
          label="Creator"
          name="creatorId"
          defaultValue={search.creatorId ?? ''}
          options={[
            { value: '', label: 'Any creator' },
            ...(creators.data ?? []).map((creator) => ({ value: creator.id, label: creator.name })),
            // A creator from a shared link that is not among the first 100 still shows as chosen.
            ...(search.creatorId && !creators.data?.some((creator) => creator.id === search.creatorId)
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
        <div className="filters-actions">
          <Button type="submit" variant="primary">
            Apply filters
          </Button>
          {filtered ? (
            <Button onClick={() => void navigate({ search: { limit: search.limit } })}>Clear filters</Button>
          ) : null}
        </div>
      </form>
      {list.isPending ? (
        <Loading label="Loading the catalog…" />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={filtered ? 'No entries match these filters' : 'The catalog is empty'}>
          {filtered ? (
            <p>Change or clear the filters.</p>
          ) : can('catalog:write') ? (
            <p>Create the first entry: a work, a recording or a release, with its splits.</p>
          ) : (
            <p>Nothing has been catalogued in this org yet.</p>
          )}
        </EmptyState>
      ) : (
        <>
          <Table<CatalogEntry>
            caption="Catalog entries, newest first"
            rows={list.data.data}
            rowKey={(entry) => entry.id}
            columns={[
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
              { header: 'Created', cell: (entry) => entry.createdAt.slice(0, 10) },
            ]}
          />
          <Pagination
            nextCursor={list.data.pagination.cursor}
            hasMore={list.data.pagination.hasMore}
            paged={search.cursor !== undefined}
            onNext={(cursor) => void navigate({ search: { ...search, cursor } })}
            onFirst={() => void navigate({ search: { ...search, cursor: undefined } })}
          />
        </>
      )}
    </>
  )
}

export const route = createLazyRoute('/app/catalog')({ component: CatalogListPage })
