import { queryOptions } from '@tanstack/react-query'
import { api, unwrap } from '../../api/client'
import { formErrors } from '../../api/messages'
import { FilterForm, ListView, TextField, useListQuery } from '../../ui'
import { RequestRow } from './request-row'

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
type RequestItem = Awaited<ReturnType<typeof fetchRequests>>['data'][number]

export const requestLogQuery = (clientId: string, search: RequestLogSearch) =>
  queryOptions({
    queryKey: ['clients', clientId, 'requests', search] as const,
    queryFn: () => fetchRequests(clientId, search),
  })

const FILTERS = { status: 'Status', path: 'Route' }

/**
 * A client's request log, newest first: what was called, the answer and how long it took, each
 * opening to why a refused call was refused and its request ID; never a body or a secret. The filters and the cursor live in the page's URL (`onSearch`).
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
      <ListView<RequestItem>
        list={log}
        loading="Loading the request log…"
        errorMessage={filterErrors.general ?? 'Correct the filters above to see the requests.'}
        cursor={search.cursor}
        onCursor={(cursor) => onSearch({ ...search, cursor })}
        empty={filtered ? 'No request matches these filters' : 'No requests yet'}
      >
        {(rows) => (
          <ol className="request-rows" aria-label="Requests, newest first">
            {rows.map((row) => (
              <RequestRow key={row.requestId + row.at} row={row} />
            ))}
          </ol>
        )}
      </ListView>
    </section>
  )
}
