import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { FormEvent } from 'react'
import { api, unwrap } from '../../api/client'
import { Button, EmptyState, ErrorState, Loading, Pagination, Table, TextField } from '../../ui'

export interface RequestLogSearch {
  status?: string | undefined
  path?: string | undefined
  cursor?: string | undefined
}

const fetchRequests = (clientId: string, search: RequestLogSearch) =>
  unwrap(
    api.GET('/api/clients/{id}/requests', {
      params: {
        path: { id: clientId },
        query: { status: search.status, path: search.path, cursor: search.cursor },
      },
    }),
  )
type RequestRow = Awaited<ReturnType<typeof fetchRequests>>['data'][number]

export const requestLogQuery = (clientId: string, search: RequestLogSearch) => ({
  queryKey: ['clients', clientId, 'requests', search] as const,
  queryFn: () => fetchRequests(clientId, search),
})

/**
 * A client's request log, newest first: what was called, the answer and how long it took; never a
 * body or a secret. The filters and the cursor live in the page's URL (`onSearch`).
 */
export function RequestLog({
  clientId,
  search,
  onSearch,
}: {
  clientId: string
  search: RequestLogSearch
  onSearch: (search: RequestLogSearch) => void
}) {
  const log = useQuery({ ...requestLogQuery(clientId, search), placeholderData: keepPreviousData })
  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const status = String(form.get('status')).trim()
    const path = String(form.get('path')).trim()
    // New filters start from the first page: a cursor belongs to the filters it was made with.
    onSearch({ ...(status ? { status } : {}), ...(path ? { path } : {}) })
  }
  const filtered = search.status !== undefined || search.path !== undefined
  return (
    <section aria-labelledby="request-log-heading">
      <h2 id="request-log-heading">Request log</h2>
      <p className="muted">Every /v1 and /oauth/token request made with this client, kept 30 days.</p>
      <form role="search" className="filters" onSubmit={filter} key={`${search.status}|${search.path}`}>
        <TextField
          label="Status"
          name="status"
          defaultValue={search.status ?? ''}
          hint="2xx, 4xx, 5xx or an exact code such as 401."
        />
        <TextField
          label="Route"
          name="path"
          defaultValue={search.path ?? ''}
          hint="A route pattern, such as /v1/orgs/{orgId}/events."
        />
        <Button type="submit">Filter</Button>
      </form>
      {log.isPending ? (
        <Loading label="Loading the request log…" />
      ) : log.error ? (
        <ErrorState error={log.error} onRetry={() => void log.refetch()} />
      ) : log.data.data.length === 0 ? (
        <EmptyState title={filtered ? 'No request matches these filters' : 'No requests yet'} />
      ) : (
        <>
          <Table<RequestRow>
            caption="Requests, newest first"
            rows={log.data.data}
            rowKey={(row) => row.requestId + row.at}
            columns={[
              { header: 'Time', cell: (row) => row.at.replace('T', ' ').slice(0, 19) },
              { header: 'Method', cell: (row) => row.method },
              { header: 'Route', cell: (row) => <code>{row.path}</code> },
              { header: 'Status', cell: (row) => row.status, numeric: true },
              { header: 'Latency (ms)', cell: (row) => row.latencyMs, numeric: true },
              { header: 'Address', cell: (row) => row.address },
              { header: 'Request ID', cell: (row) => <code>{row.requestId}</code> },
            ]}
          />
          <Pagination
            nextCursor={log.data.pagination.cursor}
            hasMore={log.data.pagination.hasMore}
            paged={search.cursor !== undefined}
            onNext={(cursor) => onSearch({ ...search, cursor })}
            onFirst={() => onSearch({ ...search, cursor: undefined })}
          />
        </>
      )}
    </section>
  )
}
