import { useQuery } from '@tanstack/react-query'
import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { DateTime, ErrorState, Loading, PageHeader } from '../../ui'
import { creatorQuery, roleLabel } from './creators-api'

const routeApi = getRouteApi('/app/creators/$id')

function CreatorDetailPage() {
  const { id } = routeApi.useParams()
  const creator = useQuery(creatorQuery(id))
  if (creator.isPending) return <Loading />
  if (creator.error) return <ErrorState error={creator.error} onRetry={() => void creator.refetch()} />
  const data = creator.data
  const optional = (value: string | null) => value ?? '—'
  return (
    <>
      <PageHeader title={data.name}>
        <p>
          {data.kind} · {data.roles.map(roleLabel).join(', ')}
        </p>
      </PageHeader>
      <dl className="details">
        <dt>Id</dt>
        <dd>{data.id}</dd>
        <dt>Legal identity</dt>
        <dd>{optional(data.legalName)}</dd>
        <dt>Email</dt>
        <dd>{optional(data.email)}</dd>
        <dt>Country</dt>
        <dd>{optional(data.country)}</dd>
        <dt>IPI</dt>
        <dd>{optional(data.ipi)}</dd>
        <dt>ISNI</dt>
        <dd>{optional(data.isni)}</dd>
        <dt>Payout currency</dt>
        <dd>{data.payoutCurrency}</dd>
        <dt>Minimum payout</dt>
        <dd>
          {data.minimumPayout} {data.payoutCurrency}
        </dd>
        <dt>Opening balance</dt>
        <dd>
          {data.openingBalance} {data.payoutCurrency}
        </dd>
        <dt>Created</dt>
        <dd>
          <DateTime value={data.createdAt} />
        </dd>
      </dl>
      <p>
        <Link to="/catalog" search={{ creatorId: data.id }}>
          Catalog entries split to {data.name}
        </Link>
      </p>
    </>
  )
}

export const route = createLazyRoute('/app/creators/$id')({ component: CreatorDetailPage })
