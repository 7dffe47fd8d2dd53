import type { PayoutStatus } from '../../app/routes'
import { STATUS_LABELS } from './payouts-api'

export function PayoutStatusBadge({ status }: { status: PayoutStatus }) {
  return <span className={`badge badge-payout-${status}`}>{STATUS_LABELS[status]}</span>
}
