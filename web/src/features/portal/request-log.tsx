import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import { formErrors } from '../../api/messages'
import { DateTime, FilterForm, ListView, TextField, useListQuery } from '../../ui'

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

export const requestLogQuery = (clientId: string, search: RequestLogSearch) =>
  queryOptions({
    queryKey: ['clients', clientId, 'requests', search] as const,
    queryFn: () => fetchRequests(clientId, search),
  })

const FILTERS = { status: 'Status', path: 'Route' }

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
  const log = useListQuery(requestLogQuery(clientId, search))
  const filterErrors = formErrors(log.error, FILTERS)
  const filtered = search.status !== undefined || search.path !== undefined
  return (
    <section aria-labelledby="request-log-heading">
      <h2 id="request-log-heading">Request log</h2>
      <p className="muted">Every /v1 and /oauth/token request made with this client, kept 30 days.</p>
      <FilterForm<RequestLogSearch>
        label="Filter the request log"
        search={search}
        onSearch={onSearch}
        read={(value) => ({ status: value('status'), path: value('path') })}
      >
        <TextField
          label={FILTERS.status}
          name="status"
          defaultValue={search.status ?? ''}
          hint="2xx, 4xx, 5xx or an exact code such as 401."
          error={filterErrors.fields.status}
        />
        <TextField
          label={FILTERS.path}
          name="path"
          defaultValue={search.path ?? ''}
          hint={
            <>
              A route pattern, such as <code>/v1/orgs/{'{orgId}'}/events</code>.
            </>
          }
          error={filterErrors.fields.path}
        />
      </FilterForm>
      <ListView<RequestRow>
        list={log}
        loading="Loading the request log…"
        errorMessage={filterErrors.general ?? 'Correct the filters above to see the requests.'}
        cursor={search.cursor}
        onCursor={(cursor) => onSearch({ ...search, cursor })}
        empty={filtered ? 'No request matches these filters' : 'No requests yet'}
        caption="Requests, newest first"
        rowKey={(row) => row.requestId + row.at}
        columns={[
          { header: 'Time', cell: (row) => <DateTime value={row.at} /> },
          { header: 'Method', cell: (row) => row.method },
          { header: 'Route', cell: (row) => <code>{row.path}</code> },
          { header: 'Status', cell: (row) => row.status, numeric: true },
          { header: 'Latency (ms)', cell: (row) => row.latencyMs, numeric: true },
          { header: 'Address', cell: (row) => row.address },
          { header: 'Request ID', cell: (row) => <code>{row.requestId}</code> },
        ]}
      />
    </section>
  )
}
