import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { useSession } from '../../app/session'
import { Button, EmptyState, ListView, PageHeader, useListQuery } from '../../ui'
import { creatorListQuery, roleLabel, type Creator } from './creators-api'

const routeApi = getRouteApi('/app/creators')

function CreatorsListPage() {
  const { cursor } = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const { can } = useSession()
  const list = useListQuery(creatorListQuery(cursor))
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
      <ListView<Creator>
        list={list}
        loading="Loading creators…"
        cursor={cursor}
        onCursor={(next) => void navigate({ search: { cursor: next } })}
        empty={
          <EmptyState title="No creators yet">
            <p>Creators are the artists, writers, producers and companies paid from revenue.</p>
          </EmptyState>
        }
        caption="Creators, newest first"
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
    </>
  )
}

export const route = createLazyRoute('/app/creators')({ component: CreatorsListPage })
