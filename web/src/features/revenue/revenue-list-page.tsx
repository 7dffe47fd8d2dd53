import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { revenueRoute, type RevenueSearch } from '../../app/routes'
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
import { useCreatorChoices, useCreatorName } from '../creators/creators-api'
import { REVENUE_TYPES, revenueListQuery, useCatalogChoices, type RevenueEntry } from './revenue-api'

/** A choice from a shared link that is not among the first 100 still shows as chosen. */
function withChosen(options: { value: string; label: string }[], chosen: string | undefined) {
  return chosen && !options.some((option) => option.value === chosen)
    ? [...options, { value: chosen, label: chosen }]
    : options
}

function RevenueListPage() {
  const search = revenueRoute.useSearch()
  const navigate = useNavigate({ from: '/revenue' })
  const { can } = useSession()
  const creators = useCreatorChoices()
  const catalog = useCatalogChoices()
  const creatorName = useCreatorName()
  const list = useQuery({ ...revenueListQuery(search), placeholderData: keepPreviousData })
  const { cursor: _cursor, ...filters } = search
  const filtered = Object.values(filters).some((value) => value !== undefined)
  const title = (catalogId: string) => catalog.data?.find((entry) => entry.id === catalogId)?.title ?? catalogId

  const applyFilters = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const value = (name: string) => String(form.get(name) ?? '').trim() || undefined
    // New filters start from the first page: a cursor belongs to the filters it was made with.
    const next: RevenueSearch = {
      catalogId: value('catalogId'),
      creatorId: value('creatorId'),
      periodFrom: value('periodFrom'),
      periodTo: value('periodTo'),
      currency: value('currency')?.toUpperCase(),
      batchId: search.batchId,
    }
    void navigate({ search: next })
  }

  return (
    <>
      <PageHeader
        title="Revenue"
        actions={
          // Write actions for this page go here, each behind its permission.
          can('revenue:write') ? (
            <Button variant="primary" onClick={() => void navigate({ to: '/revenue/new', search: {} })}>
              Record revenue
            </Button>
          ) : null
        }
      >
        {search.batchId ? <p className="muted">The lines of import batch {search.batchId}.</p> : null}
      </PageHeader>
      <form
        className="filters"
        onSubmit={applyFilters}
        role="search"
        aria-label="Filter revenue"
        key={JSON.stringify(search)}
      >
        <SelectField
          label="Catalog entry"
          name="catalogId"
          defaultValue={search.catalogId ?? ''}
          options={withChosen(
            [
              { value: '', label: 'Any entry' },
              ...(catalog.data ?? []).map((entry) => ({ value: entry.id, label: entry.title })),
            ],
            search.catalogId,
          )}
        />
        <SelectField
          label="Creator"
          name="creatorId"
          defaultValue={search.creatorId ?? ''}
          options={withChosen(
            [
              { value: '', label: 'Any creator' },
              ...(creators.data ?? []).map((creator) => ({ value: creator.id, label: creator.name })),
            ],
            search.creatorId,
          )}
        />
        <TextField label="Period from" name="periodFrom" type="date" defaultValue={search.periodFrom ?? ''} />
        <TextField label="Period to" name="periodTo" type="date" defaultValue={search.periodTo ?? ''} />
        <TextField
          label="Currency"
          name="currency"
          maxLength={3}
          defaultValue={search.currency ?? ''}
          hint="ISO 4217, such as EUR"
        />
        <div className="filters-actions">
          <Button type="submit" variant="primary">
            Apply filters
          </Button>
          {filtered ? <Button onClick={() => void navigate({ search: {} })}>Clear filters</Button> : null}
        </div>
      </form>
      {list.isPending ? (
        <Loading label="Loading revenue…" />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={filtered ? 'No revenue matches these filters' : 'No revenue recorded yet'}>
          {filtered ? (
            <p>Change or clear the filters.</p>
          ) : (
            <p>Revenue entries are split to creators by the catalog entry’s splits as they are recorded.</p>
          )}
        </EmptyState>
      ) : (
        <>
          <Table<RevenueEntry>
            caption="Revenue entries, newest first"
            rows={list.data.data}
            rowKey={(entry) => entry.id}
            columns={[
              { header: 'Period', cell: (entry) => `${entry.periodStart} to ${entry.periodEnd}` },
              {
                header: 'Catalog entry',
                cell: (entry) => (
                  <Link to="/catalog/$id" params={{ id: entry.catalogId }}>
                    {title(entry.catalogId)}
                  </Link>
                ),
              },
              { header: 'Source', cell: (entry) => entry.source },
              {
                header: 'Type',
                cell: (entry) => `${REVENUE_TYPES[entry.type]}${entry.reverses ? ' (reversal)' : ''}`,
              },
              { header: 'Territory', cell: (entry) => entry.territory },
              { header: 'Units', numeric: true, cell: (entry) => entry.units },
              { header: 'Amount', numeric: true, cell: (entry) => `${entry.amount} ${entry.currency}` },
              {
                header: 'Allocations',
                cell: (entry) => (
                  <ul className="allocations">
                    {entry.allocations.map((allocation) => (
                      <li key={allocation.creatorId}>
                        {creatorName(allocation.creatorId)}: {allocation.amount} {entry.currency}
                      </li>
                    ))}
                  </ul>
                ),
              },
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

export const route = createLazyRoute('/app/revenue')({ component: RevenueListPage })
