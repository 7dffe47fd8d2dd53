import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { formErrors } from '../../api/messages'
import { useSession } from '../../app/session'
import {
  Button,
  EmptyState,
  FilterForm,
  ListView,
  PageHeader,
  Period,
  SelectField,
  TextField,
  useListQuery,
  type Column,
} from '../../ui'
import { useCreatorChoices, useCreatorName } from '../creators/creators-api'
import {
  REVENUE_TYPES,
  revenueListQuery,
  useCatalogChoices,
  type RevenueEntry,
  type RevenueSearch,
} from './revenue-api'

const routeApi = getRouteApi('/app/revenue')

const FILTERS = {
  catalogId: 'Catalog entry',
  creatorId: 'Creator',
  periodFrom: 'Period from',
  periodTo: 'Period to',
  currency: 'Currency',
}

/** A choice from a shared link that is not among the first 100 still shows as chosen. */
function withChosen(options: { value: string; label: string }[], chosen: string | undefined) {
  return chosen && !options.some((option) => option.value === chosen)
    ? [...options, { value: chosen, label: chosen }]
    : options
}

function RevenueListPage() {
  const search = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { can } = useSession()
  const creators = useCreatorChoices()
  const catalog = useCatalogChoices()
  const creatorName = useCreatorName()
  const list = useListQuery(revenueListQuery(search))
  const { cursor: _cursor, ...filters } = search
  const filtered = Object.values(filters).some((value) => value !== undefined)
  const title = (catalogId: string) => catalog.data?.find((entry) => entry.id === catalogId)?.title ?? catalogId
  const filterErrors = formErrors(list.error, FILTERS)

  return (
    <>
      <PageHeader
        title="Revenue"
        actions={
          // Write actions for this page go here, each behind its permission.
          can('revenue:write') ? (
            <>
              <Button onClick={() => void navigate({ to: '/revenue/import' })}>Import a statement</Button>
              <Button variant="primary" onClick={() => void navigate({ to: '/revenue/new', search: {} })}>
                Record revenue
              </Button>
            </>
          ) : null
        }
      >
        {search.batchId ? <p className="muted">The lines of import batch {search.batchId}.</p> : null}
      </PageHeader>
      <RevenueFilters search={search} catalog={catalog.data} creators={creators.data} errors={filterErrors.fields} />
      <ListView<RevenueEntry>
        list={list}
        loading="Loading revenue…"
        errorMessage={filterErrors.general ?? 'Correct the filters above to see the revenue.'}
        cursor={search.cursor}
        onCursor={(cursor) => void navigate({ search: { ...search, cursor } })}
        empty={
          <EmptyState title={filtered ? 'No revenue matches these filters' : 'No revenue recorded yet'}>
            {filtered ? (
              <p>Change or clear the filters.</p>
            ) : (
              <p>Revenue entries are split to creators by the catalog entry’s splits as they are recorded.</p>
            )}
          </EmptyState>
        }
        caption="Revenue entries, newest first"
        rowKey={(entry) => entry.id}
        columns={revenueColumns(title, creatorName)}
      />
    </>
  )
}

/** Catalog entry, creator, period and currency, all in the URL (an import batch's filter is kept as it is). */
function RevenueFilters({
  search,
  catalog,
  creators,
  errors,
}: {
  search: RevenueSearch
  catalog: readonly { id: string; title: string }[] | undefined
  creators: readonly { id: string; name: string }[] | undefined
  /** The API's messages for the filters it refused. */
  errors: Record<string, string>
}) {
  return (
    <FilterForm<RevenueSearch>
      label="Filter revenue"
      search={search}
      read={(value) => ({
        catalogId: value('catalogId'),
        creatorId: value('creatorId'),
        periodFrom: value('periodFrom'),
        periodTo: value('periodTo'),
        currency: value('currency')?.toUpperCase(),
        batchId: search.batchId,
      })}
    >
      <SelectField
        label={FILTERS.catalogId}
        name="catalogId"
        defaultValue={search.catalogId ?? ''}
        options={withChosen(
          [
            { value: '', label: 'Any entry' },
            ...(catalog ?? []).map((entry) => ({ value: entry.id, label: entry.title })),
          ],
          search.catalogId,
        )}
      />
      <SelectField
        label={FILTERS.creatorId}
        name="creatorId"
        defaultValue={search.creatorId ?? ''}
        options={withChosen(
          [
            { value: '', label: 'Any creator' },
            ...(creators ?? []).map((creator) => ({ value: creator.id, label: creator.name })),
          ],
          search.creatorId,
        )}
      />
      <TextField
        label={FILTERS.periodFrom}
        name="periodFrom"
        type="date"
        defaultValue={search.periodFrom ?? ''}
        error={errors.periodFrom}
      />
      <TextField
        label={FILTERS.periodTo}
        name="periodTo"
        type="date"
        defaultValue={search.periodTo ?? ''}
        error={errors.periodTo}
      />
      <TextField
        label={FILTERS.currency}
        name="currency"
        maxLength={3}
        defaultValue={search.currency ?? ''}
        hint="ISO 4217, such as EUR"
        error={errors.currency}
      />
    </FilterForm>
  )
}

/** An entry: its period, catalog entry, source, type, territory, units and amount, and its allocation per creator. */
function revenueColumns(
  title: (catalogId: string) => string,
  creatorName: (creatorId: string) => string,
): Column<RevenueEntry>[] {
  return [
    { header: 'Period', cell: (entry) => <Period start={entry.periodStart} end={entry.periodEnd} /> },
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
  ]
}

export const route = createLazyRoute('/app/revenue')({ component: RevenueListPage })
