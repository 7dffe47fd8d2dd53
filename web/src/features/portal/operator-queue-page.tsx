import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createLazyRoute, Link, useNavigate } from '@tanstack/react-router'
import type { FormEvent } from 'react'
import { operatorQueueRoute, PARTNER_STATUSES } from '../../app/routes'
import { Button, EmptyState, ErrorState, Loading, PageHeader, Pagination, SelectField, Table } from '../../ui'
import { operatorPartnersQuery, type OperatorPartnerList } from './portal-api'
import { PARTNER_STATUS_NAMES, REGION_NAMES, TIER_NAMES } from './portal-names'

type Row = OperatorPartnerList['data'][number]

/** The operator console's review queue: partners by status, those waiting for a decision first by default. */
function OperatorQueuePage() {
  const search = operatorQueueRoute.useSearch()
  const navigate = useNavigate({ from: '/portal/operator' })
  const list = useQuery({ ...operatorPartnersQuery(search), placeholderData: keepPreviousData })
  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const status = String(new FormData(event.currentTarget).get('status'))
    void navigate({ search: status ? { status: status as Row['status'] } : {} })
  }
  return (
    <>
      <PageHeader title="Review queue">
        <p>Partners and their onboarding. Each decision is recorded with your name and sent to the partner.</p>
      </PageHeader>
      <form role="search" className="filters" onSubmit={filter}>
        <SelectField
          label="Status"
          name="status"
          key={search.status ?? ''}
          defaultValue={search.status ?? ''}
          options={[
            { value: '', label: 'Any status' },
            ...PARTNER_STATUSES.map((status) => ({ value: status, label: PARTNER_STATUS_NAMES[status] ?? status })),
          ]}
        />
        <Button type="submit">Filter</Button>
      </form>
      {list.isPending ? (
        <Loading label="Loading partners…" />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={search.status ? 'No partner has this status' : 'No partners yet'} />
      ) : (
        <>
          <Table<Row>
            caption="Partners"
            rows={list.data.data}
            rowKey={(partner) => partner.id}
            columns={[
              {
                header: 'Company',
                cell: (partner) => (
                  <Link to="/portal/operator/$partnerId" params={{ partnerId: partner.id }}>
                    {partner.company}
                  </Link>
                ),
              },
              { header: 'Tier', cell: (partner) => TIER_NAMES[partner.tier] },
              { header: 'Region', cell: (partner) => REGION_NAMES[partner.region] ?? partner.region },
              { header: 'Status', cell: (partner) => PARTNER_STATUS_NAMES[partner.status] ?? partner.status },
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

export const route = createLazyRoute('/app/portal/operator')({ component: OperatorQueuePage })
