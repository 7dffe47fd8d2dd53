import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { fieldErrors } from '../../api/client'
import { auditRoute, type AuditSearch } from '../../app/routes'
import { Button, EmptyState, ErrorState, Loading, PageHeader, Pagination, Table, TextField } from '../../ui'
import { auditListQuery, shortHash, walkChain, type ChainWalk, type OrgEvent } from './audit-api'

type Walk =
  | { state: 'idle' }
  | { state: 'running'; checked: number; loaded: number }
  | ChainWalk
  | { state: 'failed'; message: string }

/** "Verify the chain": every event of the log, page by page, its hash recomputed in the browser. */
function ChainCheck() {
  const [walk, setWalk] = useState<Walk>({ state: 'idle' })
  const controller = useRef<AbortController | null>(null)
  useEffect(() => () => controller.current?.abort(), [])

  const start = () => {
    controller.current?.abort()
    const current = new AbortController()
    controller.current = current
    setWalk({ state: 'running', checked: 0, loaded: 0 })
    walkChain((checked, loaded) => setWalk({ state: 'running', checked, loaded }), current.signal).then(
      (result) => !current.signal.aborted && setWalk(result),
      (error: unknown) =>
        !current.signal.aborted && setWalk({ state: 'failed', message: fieldErrors(error).general ?? String(error) }),
    )
  }

  return (
    <section className="chain-check" aria-labelledby="chain-check-title">
      <h2 id="chain-check-title">The hash chain</h2>
      <p className="muted">
        Fetches every event, oldest first, and recomputes each hash in this browser from the event’s fields and the hash
        before it.
      </p>
      <Button variant="primary" onClick={start} busy={walk.state === 'running'}>
        Verify the chain
      </Button>
      <div role="status" className="chain-check-result">
        {walk.state === 'running' ? (
          <p>
            {walk.checked} of {walk.loaded} events checked
          </p>
        ) : walk.state === 'intact' ? (
          <p className="verdict-ok">
            Chain intact: {walk.events} events, head {walk.head?.hash ?? 'none (the log is empty)'}
          </p>
        ) : walk.state === 'broken' ? (
          <p className="verdict-broken">
            Chain broken at sequence {walk.sequence}
            {walk.eventId ? ` (${walk.eventId})` : ''}: {walk.reason}, {walk.detail}
          </p>
        ) : walk.state === 'failed' ? (
          <p className="verdict-broken">Could not walk the chain: {walk.message}</p>
        ) : null}
      </div>
    </section>
  )
}

/** The org's audit log: the event feed (oldest first, as the API gives it) with its filters and the cursor in the URL. */
function AuditListPage() {
  const search = auditRoute.useSearch()
  const navigate = useNavigate({ from: '/audit' })
  const list = useQuery({ ...auditListQuery(search), placeholderData: keepPreviousData })
  const filtered = Boolean(search.action || search.since || search.until)
  const { fields } = fieldErrors(list.error)

  const applyFilters = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const value = (name: string) => String(form.get(name) ?? '').trim() || undefined
    // A cursor belongs to the filters it was made with: new filters start from the first page.
    const next: AuditSearch = { action: value('action'), since: value('since'), until: value('until') }
    void navigate({ search: next })
  }

  return (
    <>
      <PageHeader title="Audit log">
        <p className="muted">Every change in this org, hash-chained in the order it happened (oldest first).</p>
      </PageHeader>
      <ChainCheck />
      <form
        className="filters"
        onSubmit={applyFilters}
        role="search"
        aria-label="Filter the audit log"
        key={JSON.stringify(search)}
      >
        <TextField
          label="Action"
          name="action"
          defaultValue={search.action ?? ''}
          hint="For example catalog.created"
          error={fields.action}
        />
        <TextField
          label="Since"
          name="since"
          defaultValue={search.since ?? ''}
          hint="ISO 8601 time, for example 2026-11-28T00:00:00Z"
          error={fields.since}
        />
        <TextField
          label="Until"
          name="until"
          defaultValue={search.until ?? ''}
          hint="Events before this time"
          error={fields.until}
        />
        <div className="filters-actions">
          <Button type="submit" variant="primary">
            Apply filters
          </Button>
          {filtered ? <Button onClick={() => void navigate({ search: {} })}>Clear filters</Button> : null}
        </div>
      </form>
      {list.isPending ? (
        <Loading label="Loading the audit log…" />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={filtered ? 'No events match these filters' : 'No events yet'}>
          {filtered ? <p>Change or clear the filters.</p> : null}
        </EmptyState>
      ) : (
        <>
          <Table<OrgEvent>
            caption="Audit log events, oldest first"
            rows={list.data.data}
            rowKey={(event) => event.id}
            columns={[
              { header: 'Sequence', cell: (event) => event.sequence, numeric: true },
              { header: 'Time', cell: (event) => event.createdAt },
              {
                header: 'Action',
                cell: (event) => (
                  <Link to="/audit/$eventId" params={{ eventId: event.id }}>
                    {event.action}
                  </Link>
                ),
              },
              { header: 'Actor', cell: (event) => event.userId },
              { header: 'Hash', cell: (event) => <code title={event.hash}>{shortHash(event.hash)}</code> },
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

export const route = createLazyRoute('/app/audit')({ component: AuditListPage })
