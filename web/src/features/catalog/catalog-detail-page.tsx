import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import { Fragment, useState } from 'react'
import { useSession } from '../../app/session'
import { Button, CalendarDate, DateTime, Dialog, ErrorState, Loading, PageHeader, Table } from '../../ui'
import { roleLabel, useCreatorName } from '../creators/creators-api'
import { catalogEntryQuery, KIND_LABELS, type CatalogEntry, type Split } from './catalog-api'
import { percent } from './splits-editor'
import { StatusBadge } from './status-badge'

const routeApi = getRouteApi('/app/catalog/$id')

function CatalogEntryLink({ id }: { id: string }) {
  return (
    <Link to="/catalog/$id" params={{ id }}>
      {id}
    </Link>
  )
}

function CatalogDetailPage() {
  const { id } = routeApi.useParams()
  const [showRecord, setShowRecord] = useState(false)
  const creatorName = useCreatorName()
  const entry = useQuery(catalogEntryQuery(id))
  if (entry.isPending) return <Loading />
  if (entry.error) return <ErrorState error={entry.error} onRetry={() => void entry.refetch()} />
  const data = entry.data
  return (
    <>
      <CatalogEntryHeader entry={data} onShowRecord={() => setShowRecord(true)} />
      {data.supersededBy ? (
        <p className="notice" role="note">
          This entry was corrected: it is superseded by <CatalogEntryLink id={data.supersededBy} />.
        </p>
      ) : null}
      <CatalogEntryDetails entry={data} />
      <ApiRecordDialog entry={data} open={showRecord} onOpenChange={setShowRecord} />
      <h2>Splits</h2>
      <SplitsTable splits={data.splits} creatorName={creatorName} />
    </>
  )
}

/** The title, kind and status; "Show API record", and "Correct this entry" for an active entry to those who may. */
function CatalogEntryHeader({ entry, onShowRecord }: { entry: CatalogEntry; onShowRecord: () => void }) {
  const { can } = useSession()
  const navigate = useNavigate()
  return (
    <PageHeader
      title={entry.title}
      actions={
        <>
          <Button onClick={onShowRecord}>Show API record</Button>
          {can('catalog:write') && entry.status === 'active' ? (
            <Button
              variant="primary"
              onClick={() => void navigate({ to: '/catalog/$id/correct', params: { id: entry.id } })}
            >
              Correct this entry
            </Button>
          ) : null}
        </>
      }
    >
      <p>
        {KIND_LABELS[entry.kind]} · <StatusBadge status={entry.status} />
      </p>
    </PageHeader>
  )
}

/** Every field of the entry, its identifiers and the supersession links. */
function CatalogEntryDetails({ entry }: { entry: CatalogEntry }) {
  const identifiers = Object.entries(entry.identifiers).filter(([, value]) => value !== null)
  return (
    <dl className="details">
      <dt>Id</dt>
      <dd>{entry.id}</dd>
      {entry.versionTitle ? (
        <>
          <dt>Version</dt>
          <dd>{entry.versionTitle}</dd>
        </>
      ) : null}
      <dt>Display artist</dt>
      <dd>{entry.displayArtist ?? '—'}</dd>
      {identifiers.map(([name, value]) => (
        <Fragment key={name}>
          <dt>{name.toUpperCase()}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
      <dt>Release date</dt>
      <dd>
        <CalendarDate value={entry.releaseDate} />
      </dd>
      <dt>Territories</dt>
      <dd>{entry.territories.join(', ')}</dd>
      {entry.workId ? (
        <>
          <dt>Underlying work</dt>
          <dd>
            <CatalogEntryLink id={entry.workId} />
          </dd>
        </>
      ) : null}
      <dt>Supersedes</dt>
      <dd>{entry.supersedes ? <CatalogEntryLink id={entry.supersedes} /> : '—'}</dd>
      <dt>Superseded by</dt>
      <dd>{entry.supersededBy ? <CatalogEntryLink id={entry.supersededBy} /> : '—'}</dd>
      <dt>Created</dt>
      <dd>
        <DateTime value={entry.createdAt} />
      </dd>
    </dl>
  )
}

/** The entry exactly as the API answers it, as JSON. */
function ApiRecordDialog({
  entry,
  open,
  onOpenChange,
}: {
  entry: CatalogEntry
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="API record"
      description={`GET /api/catalog/${entry.id}, as the API answers it`}
    >
      <pre className="record" tabIndex={0} aria-label="The record as JSON">
        {JSON.stringify(entry, null, 2)}
      </pre>
    </Dialog>
  )
}

/** Who is paid from the entry, in basis points and as a percentage. */
function SplitsTable({ splits, creatorName }: { splits: Split[]; creatorName: (id: string) => string }) {
  return (
    <Table<Split>
      caption="Splits"
      rows={splits}
      rowKey={(split) => `${split.creatorId} ${split.role}`}
      columns={[
        {
          header: 'Creator',
          cell: (split) => (
            <Link to="/creators/$id" params={{ id: split.creatorId }}>
              {creatorName(split.creatorId)}
            </Link>
          ),
        },
        { header: 'Role', cell: (split) => roleLabel(split.role) },
        { header: 'Share (basis points)', numeric: true, cell: (split) => split.shareBps },
        { header: 'Share', numeric: true, cell: (split) => percent(split.shareBps) },
      ]}
    />
  )
}

export const route = createLazyRoute('/app/catalog/$id')({ component: CatalogDetailPage })
