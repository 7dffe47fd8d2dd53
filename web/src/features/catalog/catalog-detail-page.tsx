import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link, useNavigate } from '@tanstack/react-router'
import { Fragment, useState } from 'react'
import { useSession } from '../../app/session'
import { Button, CalendarDate, DateTime, Dialog, ErrorState, Loading, PageHeader, Table } from '../../ui'
import { roleLabel, useCreatorName } from '../creators/creators-api'
import { catalogEntryQuery, KIND_LABELS, type Split } from './catalog-api'
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
  const { can } = useSession()
  const navigate = useNavigate()
  const [showRecord, setShowRecord] = useState(false)
  const creatorName = useCreatorName()
  const entry = useQuery(catalogEntryQuery(id))
  if (entry.isPending) return <Loading />
  if (entry.error) return <ErrorState error={entry.error} onRetry={() => void entry.refetch()} />
  const data = entry.data
  const identifiers = Object.entries(data.identifiers).filter(([, value]) => value !== null)
  return (
    <>
      <PageHeader
        title={data.title}
        actions={
          <>
            <Button onClick={() => setShowRecord(true)}>Show API record</Button>
            {can('catalog:write') && data.status === 'active' ? (
              <Button variant="primary" onClick={() => void navigate({ to: '/catalog/$id/correct', params: { id } })}>
                Correct this entry
              </Button>
            ) : null}
          </>
        }
      >
        <p>
          {KIND_LABELS[data.kind]} · <StatusBadge status={data.status} />
        </p>
      </PageHeader>
      {data.supersededBy ? (
        <p className="notice" role="note">
          This entry was corrected: it is superseded by <CatalogEntryLink id={data.supersededBy} />.
        </p>
      ) : null}
      <dl className="details">
        <dt>Id</dt>
        <dd>{data.id}</dd>
        {data.versionTitle ? (
          <>
            <dt>Version</dt>
            <dd>{data.versionTitle}</dd>
          </>
        ) : null}
        <dt>Display artist</dt>
        <dd>{data.displayArtist ?? '—'}</dd>
        {identifiers.map(([name, value]) => (
          <Fragment key={name}>
            <dt>{name.toUpperCase()}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
        <dt>Release date</dt>
        <dd>
          <CalendarDate value={data.releaseDate} />
        </dd>
        <dt>Territories</dt>
        <dd>{data.territories.join(', ')}</dd>
        {data.workId ? (
          <>
            <dt>Underlying work</dt>
            <dd>
              <CatalogEntryLink id={data.workId} />
            </dd>
          </>
        ) : null}
        <dt>Supersedes</dt>
        <dd>{data.supersedes ? <CatalogEntryLink id={data.supersedes} /> : '—'}</dd>
        <dt>Superseded by</dt>
        <dd>{data.supersededBy ? <CatalogEntryLink id={data.supersededBy} /> : '—'}</dd>
        <dt>Created</dt>
        <dd>
          <DateTime value={data.createdAt} />
        </dd>
      </dl>
      <Dialog
        open={showRecord}
        onOpenChange={setShowRecord}
        title="API record"
        description={`GET /api/catalog/${data.id}, as the API answers it`}
      >
        <pre className="record" tabIndex={0} aria-label="The record as JSON">
          {JSON.stringify(data, null, 2)}
        </pre>
      </Dialog>
      <h2>Splits</h2>
      <Table<Split>
        caption="Splits"
        rows={data.splits}
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
    </>
  )
}

export const route = createLazyRoute('/app/catalog/$id')({ component: CatalogDetailPage })
