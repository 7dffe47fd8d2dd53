import {
  keepPreviousData,
  useQuery,
  type QueryKey,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Pagination } from './pagination'
import { EmptyState, ErrorState, Loading } from './states'
import { Table, type Column } from './table'

/** A page of a list as every list endpoint of the API answers it. */
export interface ListPage<Row> {
  data: Row[]
  pagination: { cursor: string | null; hasMore: boolean }
}

/**
 * A list's query (`useListQuery(payoutListQuery(search))`): while another page or other filters
 * load, the page shown stays (`keepPreviousData`). Add `refetchInterval` when rows change by themselves.
 */
export function useListQuery<Page extends ListPage<unknown>, Key extends QueryKey>(
  options: UseQueryOptions<Page, Error, Page, Key>,
): UseQueryResult<Page, Error> {
  return useQuery({ ...options, placeholderData: keepPreviousData })
}

interface ListViewBase<Row> {
  /** The list's query, from `useListQuery`. */
  list: UseQueryResult<ListPage<Row>, Error>
  /** What is loading: "Loading payouts…". */
  loading: string
  /** Shown when the page has no row: a title, or an `EmptyState` that says whether filters hide records. */
  empty: string | ReactNode
  /** The page's cursor (a search parameter of its URL) and how to go to another page (undefined: the first). */
  cursor: string | undefined
  onCursor: (cursor: string | undefined) => void
  /** What to say when the list could not load, when the page says it better (the filters' errors shown at them). */
  errorMessage?: string | undefined
}

interface ListViewTable<Row> extends ListViewBase<Row> {
  caption: string
  columns: readonly Column<Row>[]
  rowKey: (row: Row) => string
  children?: never
}

interface ListViewCustom<Row> extends ListViewBase<Row> {
  /** The rows drawn another way than a table (a delivery log). */
  children: (rows: Row[]) => ReactNode
}

export type ListViewProps<Row> = ListViewTable<Row> | ListViewCustom<Row>

/**
 * Every list page: `Loading` while the first page comes, `ErrorState` (with "Try again") when it
 * fails, the empty state, else the rows and keyset paging by the API's cursor. While another page
 * loads, the one shown stays.
 */
export function ListView<Row>(props: ListViewProps<Row>) {
  const { list, loading, empty, cursor, onCursor, errorMessage } = props
  if (list.isPending) return <Loading label={loading} />
  if (list.error) return <ErrorState error={list.error} message={errorMessage} onRetry={() => void list.refetch()} />
  const rows = list.data.data
  if (rows.length === 0) return typeof empty === 'string' ? <EmptyState title={empty} /> : <>{empty}</>
  return (
    <>
      {props.children ? (
        props.children(rows)
      ) : (
        <Table<Row> caption={props.caption} columns={props.columns} rows={rows} rowKey={props.rowKey} />
      )}
      <Pagination
        nextCursor={list.data.pagination.cursor}
        hasMore={list.data.pagination.hasMore}
        paged={cursor !== undefined}
        onNext={onCursor}
        onFirst={() => onCursor(undefined)}
      />
    </>
  )
}
