import { STATUS_LABELS, type PayoutStatus } from './payouts-api'

export function PayoutStatusBadge({ status }: { status: PayoutStatus }) {
  return <span className={`badge badge-payout-${status}`}>{STATUS_LABELS[status]}</span>
}
