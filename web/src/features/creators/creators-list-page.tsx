import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router'
import { creatorsRoute } from '../../app/routes'
import { useSession } from '../../app/session'
import { Button, EmptyState, ErrorState, Loading, PageHeader, Pagination, Table } from '../../ui'
import { creatorListQuery, roleLabel, type Creator } from './creators-api'

function CreatorsListPage() {
  const { cursor } = creatorsRoute.useSearch()
  const navigate = useNavigate({ from: '/creators' })
  const { can } = useSession()
  const list = useQuery({ ...creatorListQuery(cursor), placeholderData: keepPreviousData })
  return (
    <>
      <PageHeader
        title="Creators"
        actions={
          can('creators:write') ? (
            <Button variant="primary" onClick={() => void navigate({ to: '/creators/new' })}>
              New creator
            </Button>
          ) : null
        }
      />
      {list.isPending ? (
        <Loading label="Loading creators…" />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState title="No creators yet">
          <p>Creators are the artists, writers, producers and companies paid from revenue.</p>
        </EmptyState>
      ) : (
        <>
          <Table<Creator>
            caption="Creators, newest first"
            rows={list.data.data}
            rowKey={(creator) => creator.id}
            columns={[
              {
                header: 'Name',
                cell: (creator) => (
                  <Link to="/creators/$id" params={{ id: creator.id }}>
                    {creator.name}
                  </Link>
                ),
              },
              { header: 'Kind', cell: (creator) => creator.kind },
              { header: 'Roles', cell: (creator) => creator.roles.map(roleLabel).join(', ') },
              { header: 'Payout currency', cell: (creator) => creator.payoutCurrency },
              { header: 'Opening balance', numeric: true, cell: (creator) => creator.openingBalance },
            ]}
          />
          <Pagination
            nextCursor={list.data.pagination.cursor}
            hasMore={list.data.pagination.hasMore}
            paged={cursor !== undefined}
            onNext={(next) => void navigate({ search: { cursor: next } })}
            onFirst={() => void navigate({ search: {} })}
          />
        </>
      )}
    </>
  )
}

export const route = createLazyRoute('/app/creators')({ component: CreatorsListPage })
