import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import { formErrors, problemMessage } from '../../api/messages'
import { Button, DateTime, EmptyState, FilterForm, ListView, PageHeader, useListQuery } from '../../ui'
import { ActionSelect, DayField, FILTERS, readFilters } from './audit-filters'
import {
  actorName,
  auditListQuery,
  shortHash,
  walkChain,
  type AuditSearch,
  type ChainWalk,
  type OrgEvent,
} from './audit-api'

const routeApi = getRouteApi('/app/audit')

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
    // Each page's progress is committed at once, so a fast walk still shows every step.
    const progress = (checked: number, loaded: number) =>
      flushSync(() => setWalk({ state: 'running', checked, loaded }))
    walkChain(progress, current.signal).then(
      (result) => !current.signal.aborted && setWalk(result),
      (error: unknown) =>
        !current.signal.aborted && setWalk({ state: 'failed', message: problemMessage(error) ?? String(error) }),
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
        {walk.state === 'running' && walk.loaded === 0 ? (
          <p>Fetching the first events…</p>
        ) : walk.state === 'running' ? (
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

/** The org's audit log: the event feed (newest first) with its filters and the cursor in the URL. */
function AuditListPage() {
  const search = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const list = useListQuery(auditListQuery(search))
  const filtered = Boolean(search.action || search.since || search.until)
  // A filter the API refused is shown at its field; the list then only says to correct it.
  const filterErrors = formErrors(list.error, FILTERS)

  return (
    <>
      <PageHeader title="Audit log">
        <p className="muted">Every change in this org, hash-chained in the order it happened; newest first here.</p>
      </PageHeader>
      <ChainCheck />
      <FilterForm<AuditSearch> label="Filter the audit log" search={search} read={readFilters}>
        <ActionSelect value={search.action} error={filterErrors.fields.action} />
        <DayField
          name="since"
          label={FILTERS.since}
          iso={search.since}
          hint="Events on or after this day"
          error={filterErrors.fields.since}
        />
        <DayField
          name="until"
          label={FILTERS.until}
          iso={search.until}
          end
          hint="Events up to the end of this day"
          error={filterErrors.fields.until}
        />
      </FilterForm>
      <ListView<OrgEvent>
        list={list}
        loading="Loading the audit log…"
        errorMessage={filterErrors.general ?? 'Correct the filters above to see the events.'}
        cursor={search.cursor}
        onCursor={(cursor) => void navigate({ search: { ...search, cursor } })}
        empty={
          <EmptyState title={filtered ? 'No events match these filters' : 'No events yet'}>
            {filtered ? <p>Change or clear the filters.</p> : null}
          </EmptyState>
        }
        caption="Audit log events, newest first"
        rowKey={(event) => event.id}
        columns={[
          { header: 'Sequence', cell: (event) => event.sequence, numeric: true },
          { header: 'Time', cell: (event) => <DateTime value={event.createdAt} /> },
          {
            header: 'Action',
            cell: (event) => (
              <Link to="/audit/$eventId" params={{ eventId: event.id }}>
                {event.action}
              </Link>
            ),
          },
          { header: 'Actor', cell: (event) => actorName(list.data?.actors, event.userId) },
          { header: 'Hash', cell: (event) => <code title={event.hash}>{shortHash(event.hash)}</code> },
        ]}
      />
    </>
  )
}

export const route = createLazyRoute('/app/audit')({ component: AuditListPage })
