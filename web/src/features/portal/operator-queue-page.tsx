import { createLazyRoute, getRouteApi, Link } from '@tanstack/react-router'
import { CalendarDate, FilterForm, ListView, PageHeader, SelectField, useListQuery } from '../../ui'
import { WaitingSince } from './waiting-since'
import { operatorPartnersQuery, type OperatorPartnerList } from './portal-api'
import { PARTNER_STATUS_NAMES, PARTNER_STATUSES, REGION_NAMES, TIER_NAMES, type PartnerStatus } from './portal-names'

type Row = OperatorPartnerList['data'][number]

const routeApi = getRouteApi('/app/portal/operator')

/** The operator console's review queue: partners by status, those waiting for a decision first by default. */
function OperatorQueuePage() {
  const search = routeApi.useSearch()
  const navigate = routeApi.useNavigate()
  const list = useListQuery(operatorPartnersQuery(search))
  return (
    <>
      <PageHeader title="Review queue">
        <p>Partners and their onboarding. Each decision is recorded with your name and sent to the partner.</p>
      </PageHeader>
      <FilterForm<{ status?: PartnerStatus | undefined; cursor?: string | undefined }>
        label="Filter partners"
        search={search}
        read={(value) => ({ status: value('status') as PartnerStatus | undefined })}
      >
        <SelectField
          label="Status"
          name="status"
          defaultValue={search.status ?? ''}
          options={[
            { value: '', label: 'Any status' },
            ...PARTNER_STATUSES.map((status) => ({ value: status, label: PARTNER_STATUS_NAMES[status] ?? status })),
          ]}
        />
      </FilterForm>
      <ListView<Row>
        list={list}
        loading="Loading partners…"
        cursor={search.cursor}
        onCursor={(cursor) => void navigate({ search: { ...search, cursor } })}
        empty={search.status ? 'No partner has this status' : 'No partners yet'}
        caption="Partners"
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
          {
            header: 'Decision due by',
            cell: (partner) => (partner.reviewExpectedBy ? <CalendarDate value={partner.reviewExpectedBy} /> : '—'),
          },
          { header: 'Signed up', cell: (partner) => <WaitingSince iso={partner.createdAt} /> },
        ]}
      />
    </>
  )
}

export const route = createLazyRoute('/app/portal/operator')({ component: OperatorQueuePage })
